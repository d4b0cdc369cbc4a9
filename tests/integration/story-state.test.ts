import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gameMessages, rateLimit } from "#app/db/schema.ts";
import { FAILED_REPLY_LIMIT } from "#app/domain/game-master/reply-writer.server.ts";
import { rateLimitKey } from "#app/domain/rate-limit.server.ts";
import type { StoryView } from "#app/lib/story-view.ts";
import type { TrackedStat } from "#app/lib/tracked-stats.ts";
import { makeAdmin, signUp, type TestAccount, apiRequest } from "#tests/helpers/accounts.ts";
import { balanceAndLedger, createTestGame, postChat, readTurn, startStoryTestServer, TEST_GAME } from "#tests/helpers/game-chat.ts";
import type { TestServer } from "#tests/helpers/server.ts";
import type { FakeModelServer, RecordedRequest } from "#tests/fakes/streaming-model.ts";

/**
 * The living state of issue 17 against a real server and a local OpenAI-compatible model: the
 * model is told the stats and asked for a state block; the block is taken out of the reply as it
 * streams (wherever the tokens split it), validated against the game's stats and stored with the
 * reply; Retry, versions and Undo bring back the state of the story on screen.
 */

const STATE_GAME = "harbor-with-stats";
const STATS: TrackedStat[] = [
  { name: "Favour", kind: "number", min: 0, max: 100, start: 55 },
  { name: "Title", kind: "text", start: "Deputy" },
  { name: "Allies", kind: "list", start: [] },
];
const START = { Favour: 55, Title: "Deputy", Allies: [] };

let model: FakeModelServer;
let server: TestServer;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ model, server, close: stop } = await startStoryTestServer());
  await createTestGame(server, { slug: STATE_GAME, trackedStats: STATS });
});

afterAll(() => stop());

/** A reply whose state block the tokens split everywhere a filter could trip. */
function replyWithState(prose: string, state: unknown) {
  const block = `\n\n<state>${JSON.stringify(state)}</state>\n`;
  return { tokens: [prose, ...(block.match(/[\s\S]{1,3}/g) ?? [])] };
}

const api = (account: TestAccount, path: string, body?: unknown) => apiRequest(server, account, path, { body });

async function viewOf(account: TestAccount, storyId: string) {
  return (await (await api(account, `/api/stories/${storyId}`)).json()) as StoryView;
}

async function latestStoryId(account: TestAccount) {
  const [row] = await server.connection.db
    .select({ storyId: gameMessages.storyId })
    .from(gameMessages)
    .where(and(eq(gameMessages.userId, account.userId), eq(gameMessages.gameSlug, STATE_GAME)));
  return row!.storyId;
}

async function turn(account: TestAccount, message: string, reply: { tokens: string[] }) {
  model.script(() => reply);
  return readTurn(await postChat(server, account, { message, game_slug: STATE_GAME }));
}

/** The request's last message: the tracked state goes with the player's new message (docs/decisions/055). */
const turnMessageOf = (request: RecordedRequest) => (request.body.messages as { role: string; content: string }[]).at(-1)?.content ?? "";

/** A player whose story in the state game has an opening (Favour 60) and one turn (Favour 70). */
async function playing() {
  const player = await signUp(server);
  await turn(player, "I am ready.", replyWithState("The quay is quiet.", { Favour: 60, Title: "Harbormaster" }));
  const storyId = await latestStoryId(player);
  await turn(player, "I help Ilse count the ships.", replyWithState("Ilse nods.", { favour: 70, ALLIES: ["Ilse Varga"] }));
  return { player, storyId };
}

describe("the state block", () => {
  it("is asked for with the stats and their values, never reaches the player, and is stored with the reply", async () => {
    const player = await signUp(server);
    const opening = await turn(player, "I am ready.", replyWithState("The quay is quiet.", { Favour: 60, Title: "Harbormaster" }));
    expect(opening.done).toBe(true);
    expect(opening.text).toBe("The quay is quiet.");
    for (const piece of opening.pieces) expect(piece).not.toMatch(/[<>{}]|Favour|state/);

    const asked = turnMessageOf(model.requests.at(-1)!);
    expect(asked).toContain(
      '<tracked_state>\n- Favour: a whole number from 0 to 100. Now: 55\n- Title: a short text. Now: "Deputy"\n- Allies: a list of short texts. Now: []\n</tracked_state>',
    );
    // The rules, the same on every turn, close the game's part of the system prompt.
    const [system] = model.requests.at(-1)!.body.messages as { role: string; content: string }[];
    expect(system?.role).toBe("system");
    expect(system?.content).toContain("one JSON object between <state> and </state>");

    const storyId = await latestStoryId(player);
    const stored = await server.connection.db
      .select({ content: gameMessages.content, state: gameMessages.state })
      .from(gameMessages)
      .where(and(eq(gameMessages.storyId, storyId), eq(gameMessages.role, "assistant")));
    expect(stored).toEqual([{ content: "The quay is quiet.", state: { Favour: 60, Title: "Harbormaster", Allies: [] } }]);

    // The play screen gets the stats, the state, and the starting values it changed from.
    const view = await viewOf(player, storyId);
    expect(view.state).toEqual({ stats: STATS, values: { Favour: 60, Title: "Harbormaster", Allies: [] }, previous: START });
  });

  it("gives the next reply the stored state, and validates what comes back: numbers into range, names in any case, nothing unknown", async () => {
    const { player, storyId } = await playing();
    expect(turnMessageOf(model.requests.at(-1)!)).toContain("- Favour: a whole number from 0 to 100. Now: 60");
    let view = await viewOf(player, storyId);
    expect(view.state?.values).toEqual({ Favour: 70, Title: "Harbormaster", Allies: ["Ilse Varga"] });
    expect(view.state?.previous).toEqual({ Favour: 60, Title: "Harbormaster", Allies: [] });

    await turn(
      player,
      "I flatter everyone.",
      replyWithState("Smiles all round.", { FAVOUR: 250, Gold: 9, Title: { rank: 1 }, Allies: "Ilse Varga, Oren Dask" }),
    );
    view = await viewOf(player, storyId);
    expect(view.state?.values).toEqual({ Favour: 100, Title: "Harbormaster", Allies: ["Ilse Varga", "Oren Dask"] });
    expect(turnMessageOf(model.requests.at(-1)!)).toContain("Now: 70");
  });

  it("left out or garbled, leaves the state as it was, with no error and the credit spent as usual", async () => {
    const { player, storyId } = await playing();
    const garbled = await turn(player, "I wait.", { tokens: ["Nothing ", "changes.\n\n<state>{Favour: ", "up}</state>"] });
    expect(garbled).toMatchObject({ done: true, text: "Nothing changes." });
    const omitted = await turn(player, "I wait again.", { tokens: ["Still ", "nothing."] });
    expect(omitted).toMatchObject({ done: true, text: "Still nothing." });
    const view = await viewOf(player, storyId);
    expect(view.state?.values).toEqual({ Favour: 70, Title: "Harbormaster", Allies: ["Ilse Varga"] });
    // Opening free, then three paid turns.
    expect(await balanceAndLedger(player)).toEqual({ balance: 17, ledger: 17 });
  });
});

describe("a reply in Turkish (issue 31)", () => {
  // "İ" lower-cases to two characters: a filter that searched a lower-cased copy and cut the
  // original showed the block after 12 of them, and lost the rest of the reply after 27.
  it.each([12, 27])(
    "with %i dotted capitals before the block keeps the block out of the story, the stored reply and the export",
    async (count) => {
      const { player, storyId } = await playing();
      const prose = `${"İ".repeat(count)} İbrahim içeri girer.`;
      // All in one piece, as a provider that sends large chunks does.
      const reply = await turn(player, "İçeri girerim.", {
        tokens: [`${prose}\n\n<state>${JSON.stringify({ Favour: 72, Title: "İkbal" })}</state>\n`],
      });
      expect(reply).toMatchObject({ done: true, text: prose });

      const view = await viewOf(player, storyId);
      expect(view.messages.at(-1)?.content).toBe(prose);
      expect(view.state?.values).toEqual({ Favour: 72, Title: "İkbal", Allies: ["Ilse Varga"] });
      const [stored] = await server.connection.db
        .select({ content: gameMessages.content, state: gameMessages.state })
        .from(gameMessages)
        .where(and(eq(gameMessages.storyId, storyId), eq(gameMessages.exchange, 3), eq(gameMessages.role, "assistant")));
      expect(stored).toEqual({ content: prose, state: { Favour: 72, Title: "İkbal", Allies: ["Ilse Varga"] } });
      const exported = await (await api(player, `/api/stories/${storyId}/export?format=markdown`)).text();
      expect(exported).toContain(prose);
      expect(exported).not.toMatch(/state>|Favour/i);
    },
  );
});

describe("a reply with nothing to read (issue 31)", () => {
  it("only a state block, or an unclosed one, is refunded like a failed call and counted against the player's failed replies", async () => {
    const { player, storyId } = await playing();
    const failedReplies = async () => {
      const [row] = await server.connection.db
        .select({ count: rateLimit.count })
        .from(rateLimit)
        .where(eq(rateLimit.key, rateLimitKey(FAILED_REPLY_LIMIT, player.userId)));
      return row?.count ?? 0;
    };
    const before = await balanceAndLedger(player);

    const onlyBlock = await turn(player, "I say nothing.", replyWithState("", { Favour: 99 }));
    expect(onlyBlock).toMatchObject({ done: true, text: "" });
    const unclosed = await turn(player, "I wait.", { tokens: ["\n<state>", '{"Favour": 99'] });
    expect(unclosed).toMatchObject({ done: true, text: "" });
    expect(await failedReplies()).toBe(2);
    // Refunded, and nothing of either is in the story, its state included.
    expect(await balanceAndLedger(player)).toEqual(before);
    const view = await viewOf(player, storyId);
    expect(view.messages).toHaveLength(4);
    expect(view.state?.values.Favour).toBe(70);

    // A reply the player can read is paid for and not counted; nor is a model that fails.
    await turn(player, "I speak.", replyWithState("Ilse listens.", { Favour: 71 }));
    model.script(() => ({ status: 500 }));
    await readTurn(await postChat(server, player, { message: "I speak again.", game_slug: STATE_GAME }));
    expect(await failedReplies()).toBe(2);
    expect(await balanceAndLedger(player)).toEqual({ balance: before.balance - 1, ledger: before.ledger - 1 });
  });

  it("past the limit, refuses the player's next call with 429 and Retry-After before the model is asked, spending nothing", async () => {
    const { player } = await playing();
    for (let reply = 0; reply < FAILED_REPLY_LIMIT.limit; reply += 1) {
      expect(await turn(player, `I stay silent ${reply}.`, replyWithState("", { Favour: 99 }))).toMatchObject({ done: true, text: "" });
    }
    const before = await balanceAndLedger(player);
    const asked = model.requests.length;
    const refused = await postChat(server, player, { message: "I try once more.", game_slug: STATE_GAME });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()) as { code: string; error: string }).toMatchObject({
      code: "rate_limited",
      error: expect.stringContaining("came back with nothing to read"),
    });
    expect(model.requests.length).toBe(asked);
    expect(await balanceAndLedger(player)).toEqual(before);

    // Another player is not held back.
    const other = await playing();
    expect(await turn(other.player, "I speak.", replyWithState("Ilse listens.", { Favour: 71 }))).toMatchObject({ done: true });
  });
});

describe("the state of the story on screen", () => {
  it("follows Retry, the version chosen, a failed Retry and Undo", async () => {
    const { player, storyId } = await playing();
    model.script(() => replyWithState("Ilse frowns instead.", { Favour: 40 }));
    expect((await readTurn(await api(player, `/api/stories/${storyId}/retry`, { exchange: 2 }))).done).toBe(true);
    // The retried reply starts from the opening's state, not from the version it replaces.
    expect(turnMessageOf(model.requests.at(-1)!)).toContain("Now: 60");
    expect((await viewOf(player, storyId)).state?.values.Favour).toBe(40);

    expect((await api(player, `/api/stories/${storyId}/version`, { exchange: 2, version: 1 })).status).toBe(200);
    expect((await viewOf(player, storyId)).state?.values).toEqual({ Favour: 70, Title: "Harbormaster", Allies: ["Ilse Varga"] });
    expect((await api(player, `/api/stories/${storyId}/version`, { exchange: 2, version: 2 })).status).toBe(200);
    expect((await viewOf(player, storyId)).state?.values.Favour).toBe(40);

    // A Retry that fails before any text returns to the version on screen, and to its state.
    expect((await api(player, `/api/stories/${storyId}/version`, { exchange: 2, version: 1 })).status).toBe(200);
    model.script(() => ({ status: 500 }));
    await readTurn(await api(player, `/api/stories/${storyId}/retry`, { exchange: 2 }));
    let view = await viewOf(player, storyId);
    expect(view.messages.at(-1)).toMatchObject({ version: 1, versions: 2 });
    expect(view.state?.values.Favour).toBe(70);

    expect((await api(player, `/api/stories/${storyId}/undo`, { exchange: 2 })).status).toBe(200);
    view = await viewOf(player, storyId);
    expect(view.state?.values).toEqual({ Favour: 60, Title: "Harbormaster", Allies: [] });
    expect(view.state?.previous).toEqual(START);

    // The JSON export keeps each reply's state, and each version's.
    const exported = (await (await api(player, `/api/stories/${storyId}/export?format=json`)).json()) as {
      messages: { exchange: number; role: string; state: unknown; versions: { version: number; state: unknown }[] }[];
    };
    const undone = exported.messages.find((message) => message.exchange === 2 && message.role === "assistant");
    expect(undone?.versions.map((version) => [version.version, version.state])).toEqual([
      [1, { Favour: 70, Title: "Harbormaster", Allies: ["Ilse Varga"] }],
      // Retried from the opening's state, where no one had joined yet.
      [2, { Favour: 40, Title: "Harbormaster", Allies: [] }],
    ]);
    expect(exported.messages.find((message) => message.exchange === 1 && message.role === "assistant")?.state).toEqual({
      Favour: 60,
      Title: "Harbormaster",
      Allies: [],
    });
  });

  it("moves on with Continue when the continuation carries a block, and stays when it does not", async () => {
    const { player, storyId } = await playing();
    model.script(() => ({ tokens: [" More happens."] }));
    await readTurn(await api(player, `/api/stories/${storyId}/continue`, { exchange: 2 }));
    expect((await viewOf(player, storyId)).state?.values.Favour).toBe(70);
    expect(turnMessageOf(model.requests.at(-1)!)).toContain("Now: 70");
    model.script(() => replyWithState(" Even more.", { Favour: 75 }));
    await readTurn(await api(player, `/api/stories/${storyId}/continue`, { exchange: 2 }));
    const view = await viewOf(player, storyId);
    expect(view.state?.values.Favour).toBe(75);
    expect(view.messages.at(-1)?.content).toBe("Ilse nods. More happens. Even more.");
  });

  it("is each story's own: a new story in the same game starts from the game's starting values", async () => {
    const { player, storyId } = await playing();
    const created = (await (await api(player, "/api/stories", { game_slug: STATE_GAME })).json()) as StoryView;
    expect(created.state).toEqual({ stats: STATS, values: START, previous: START });
    expect((await viewOf(player, storyId)).state?.values.Favour).toBe(70);
  });
});

describe("a game without tracked stats", () => {
  it("asks for no block and shows no state", async () => {
    const player = await signUp(server);
    model.script(() => ({ tokens: ["Plain ", "prose <3."] }));
    const opening = await readTurn(await postChat(server, player, { message: "I am ready.", game_slug: TEST_GAME.slug }));
    expect(opening.text).toBe("Plain prose <3.");
    expect(JSON.stringify(model.requests.at(-1)!.body.messages)).not.toContain("tracked_state");
    const [row] = await server.connection.db
      .select({ storyId: gameMessages.storyId, state: gameMessages.state })
      .from(gameMessages)
      .where(and(eq(gameMessages.userId, player.userId), isNull(gameMessages.removedAt), eq(gameMessages.role, "assistant")));
    expect(row?.state).toBeNull();
    expect((await viewOf(player, row!.storyId)).state).toBeNull();
  });
});

describe("the admin's tracked stats", () => {
  it("are saved with the game, and refused with a message per field when they cannot work", async () => {
    const admin = await signUp(server);
    await makeAdmin(server, admin);
    const save = async (trackedStats: unknown) => {
      const response = await server.fetch("/api/admin/games", {
        method: "POST",
        headers: { Cookie: admin.cookie, "Content-Type": "application/json" },
        body: JSON.stringify({
          title: "Stat Court",
          slug: `stat-court-${Date.now()}`,
          description: "A court.",
          prompt: "You narrate.",
          trackedStats,
        }),
      });
      return {
        status: response.status,
        body: (await response.json()) as { game?: { trackedStats: unknown }; fieldErrors?: Record<string, string> },
      };
    };
    const refused = await save([
      { name: "Favour", kind: "number", min: "100", max: "0", start: "5" },
      { name: "favour", kind: "text", start: "" },
    ]);
    expect(refused.status).toBe(400);
    expect(refused.body.fieldErrors).toEqual({
      "trackedStats.0.max": "The lowest value must be below the highest.",
      "trackedStats.1.name": "Two stats cannot share a name.",
    });
    const saved = await save([
      { name: "Favour", kind: "number", min: "0", max: "100", start: "50" },
      { name: "Allies", kind: "list", min: "", max: "", start: "Pei Zhen, Han Qiu" },
    ]);
    expect(saved.status).toBe(201);
    expect(saved.body.game?.trackedStats).toEqual([
      { name: "Favour", kind: "number", min: 0, max: 100, start: 50 },
      { name: "Allies", kind: "list", start: ["Pei Zhen", "Han Qiu"] },
    ]);
  });
});
