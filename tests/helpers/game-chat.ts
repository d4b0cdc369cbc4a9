import { and, asc, desc, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { applyCreditChange, getBalance, ledgerTotal } from "#app/domain/credits.server.ts";
import { creditLedger, gameContent, gameMessages, games } from "#app/db/schema.ts";
import { startOpenAICompatibleServer } from "#tests/fakes/openai-compatible.ts";
import type { FakeModelServer, RecordedRequest, ScriptedReply } from "#tests/fakes/streaming-model.ts";
import type { TestAccount } from "./accounts.ts";
import { startTestServer, type TestServer } from "./server.ts";

/** A game of the tests' own (independent of content/), with a prompt and published world content. */
export const TEST_GAME = {
  slug: "lantern-harbor",
  title: "Lantern Harbor",
  tagline: "Every lantern hides a ledger",
  prompt:
    "PROMPT-MARKER: You are the Game Master of Lantern Harbor, a port city of smugglers and lamplighters. Address the player as you. Characters: Harbormaster Ilse Varga, who counts every ship; Captain Oren Dask, a smuggler with debts. Track **Coin 40 · Favour 55 · Suspicion 10** after each turn. End every reply with 3 to 6 numbered choices.",
  content: [
    {
      contentType: "world_setting" as const,
      title: "The Harbor",
      content:
        "WORLD-MARKER\n\n## Places\n\n- **The Salt Quay**: where the night boats unload crates nobody declares.\n- **The Lamp Tower**: the lighthouse whose keeper sees every ship.",
    },
    {
      contentType: "combat_mechanics" as const,
      title: "Troubles",
      content: "## Troubles\n\n- **Customs raids**: the harbormaster's men search a warehouse at dawn.",
    },
    { contentType: "pro_tips" as const, title: "Tips", content: "TIPS-MARKER: player advice stays out of the model's context." },
    { contentType: "story_background" as const, title: "Draft", content: "UNPUBLISHED-MARKER", isPublished: false },
  ],
};

export async function createTestGame(server: TestServer, overrides: Partial<typeof games.$inferInsert> = {}) {
  const slug = overrides.slug ?? TEST_GAME.slug;
  await server.connection.db
    .insert(games)
    .values({
      slug,
      title: TEST_GAME.title,
      tagline: TEST_GAME.tagline,
      description: "A test game.",
      prompt: TEST_GAME.prompt,
      ...overrides,
    })
    .onConflictDoNothing();
  await server.connection.db
    .insert(gameContent)
    .values(TEST_GAME.content.map((section) => ({ gameSlug: slug, ...section })))
    .onConflictDoNothing();
  return slug;
}

/**
 * A test server whose Game Master is `model` (a local fake of a provider's API), with the tests'
 * game in its database and a chat limit no test reaches unless it sets its own.
 */
export async function startServerWithModel(model: FakeModelServer, env: Record<string, string | undefined>) {
  const server = await startTestServer({ AI_BASE_URL: model.baseUrl, CHAT_TURNS_PER_MINUTE: "1000", ...env });
  await createTestGame(server);
  return server;
}

export async function startGameMasterServer(startModel: () => Promise<FakeModelServer>, env: Record<string, string>) {
  const model = await startModel();
  const server = await startServerWithModel(model, env);
  return {
    model,
    server,
    close: async () => {
      await server.close();
      await model.close();
    },
  };
}

/**
 * The story tests' model settings: a local OpenAI-compatible model that gives up after 1.5 s of
 * silence, so a test of a failing model does not wait a minute.
 */
export const STORY_MODEL_ENV = {
  AI_PROVIDER: "openai-compatible",
  AI_MODEL: "fake-storyteller-7b",
  AI_API_KEY: "test-key",
  AI_TIMEOUT_MS: "1500",
};

/** The story tests' server (STORY_MODEL_ENV); `env` adds to its settings. */
export function startStoryTestServer(env: Record<string, string> = {}) {
  return startGameMasterServer(startOpenAICompatibleServer, { ...STORY_MODEL_ENV, ...env });
}

export function postChat(server: TestServer, account: TestAccount | undefined, body: unknown, init: RequestInit = {}) {
  return server.fetch("/api/game-chat", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      ...(account ? { Authorization: `Bearer ${account.token}` } : {}),
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...init,
  });
}

export interface ReadTurn {
  /** The `content` of each event, in order. */
  pieces: string[];
  text: string;
  done: boolean;
  error?: string;
}

/** Reads a game-chat event stream to its end, independently of the app's own client parser. */
export async function readTurn(response: Response): Promise<ReadTurn> {
  const raw = await response.text();
  const turn: ReadTurn = { pieces: [], text: "", done: false };
  for (const block of raw.split("\n\n")) {
    const line = block.split("\n").find((entry) => entry.startsWith("data: "));
    if (!line) continue;
    const data = line.slice("data: ".length);
    if (data === "[DONE]") {
      turn.done = true;
      continue;
    }
    const event = JSON.parse(data) as { content?: string; error?: string };
    if (typeof event.content === "string") turn.pieces.push(event.content);
    if (typeof event.error === "string") turn.error = event.error;
  }
  turn.text = turn.pieces.join("");
  return turn;
}

export async function storedMessages(server: TestServer, account: TestAccount, slug = TEST_GAME.slug) {
  return server.connection.db
    .select({ role: gameMessages.role, content: gameMessages.content })
    .from(gameMessages)
    .where(and(eq(gameMessages.userId, account.userId), eq(gameMessages.gameSlug, slug), isNull(gameMessages.removedAt)))
    .orderBy(asc(gameMessages.exchange), desc(gameMessages.role));
}

export async function ledgerRows(server: TestServer, account: TestAccount) {
  return server.connection.db
    .select({ delta: creditLedger.delta, reason: creditLedger.reason, reference: creditLedger.reference })
    .from(creditLedger)
    .where(eq(creditLedger.userId, account.userId))
    .orderBy(asc(creditLedger.id));
}

/** Sets a player's balance through the ledger (an admin grant or removal). */
export async function setBalance(account: TestAccount, credits: number) {
  const delta = credits - (await getBalance(account.userId));
  if (delta !== 0) {
    await applyCreditChange({ userId: account.userId, delta, reason: "admin_grant", reference: `test:${crypto.randomUUID()}` });
  }
}

export async function balanceAndLedger(account: TestAccount) {
  return { balance: await getBalance(account.userId), ledger: await ledgerTotal(account.userId) };
}

/** Polls until `check` returns a value (not undefined/false), or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The fake model's script for a file whose replies are told apart by number: "Reply number N.",
 * N counting every reply the file asks for.
 */
function numberedReplies(): (request: RecordedRequest) => ScriptedReply {
  let replies = 0;
  return () => {
    replies += 1;
    return { tokens: [`Reply `, `number ${replies}.`] };
  };
}

/**
 * A test file's story server (startStoryTestServer), started before its first test and closed
 * after its last, handed to `use` once it runs; before each test its model answers with
 * numberedReplies again, whatever script the test before set.
 */
export function withStoryTestServer(use: (started: { model: FakeModelServer; server: TestServer }) => void) {
  let started: Awaited<ReturnType<typeof startStoryTestServer>> | undefined;
  const replies = numberedReplies();
  beforeAll(async () => {
    started = await startStoryTestServer();
    use(started);
  });
  afterAll(() => started?.close());
  beforeEach(() => started?.model.script(replies));
}
