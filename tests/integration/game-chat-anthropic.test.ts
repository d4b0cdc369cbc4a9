import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { modelCalls, modelPrices } from "#app/db/schema.ts";
import { signUp } from "#tests/helpers/accounts.ts";
import { balanceAndLedger, eventually, postChat, readTurn, storedMessages, TEST_GAME } from "#tests/helpers/game-chat.ts";
import { gameMasterTest } from "#tests/helpers/fixtures.ts";
import { beginStory, OPENING_EXCHANGE } from "#tests/helpers/stories.ts";
import { DEFAULT_REPLY } from "#tests/fakes/streaming-model.ts";

const TIMEOUT_MS = 1500;

const test = gameMasterTest.extend("modelProvider", { scope: "file" }, "anthropic" as const);

test.override("serverEnv", {
  AI_MODEL: "claude-fake-1",
  AI_API_KEY: "anthropic-test-key",
  AI_TIMEOUT_MS: String(TIMEOUT_MS),
  AI_MAX_OUTPUT_TOKENS: "456",
});

test.beforeEach(({ model }) => {
  model.script(() => DEFAULT_REPLY);
});

describe("a turn with an Anthropic model", () => {
  test("streams the reply in order, stores it and sends the game prompt as Anthropic's system field", async ({ server, model }) => {
    const player = await signUp(server);
    await beginStory(server, player, TEST_GAME.slug);
    const tokens = ["Rain ", "on the ", "Salt Quay", ".\n\n1. Hide\n2. Run"];
    model.script(() => ({ tokens, tokenDelayMs: 10 }));
    const response = await postChat(server, player, { message: "I step off the boat.", game_slug: TEST_GAME.slug });
    expect(response.status).toBe(200);
    const turn = await readTurn(response);
    expect(turn).toEqual({ pieces: tokens, text: tokens.join(""), done: true });
    expect((await storedMessages(server, player)).slice(2)).toEqual([
      { role: "user", content: "I step off the boat." },
      { role: "assistant", content: tokens.join("") },
    ]);
    expect(await balanceAndLedger(player)).toEqual({ balance: 19, ledger: 19 });

    const request = await eventually(async () => model.requests.at(-1));
    expect(request.headers["x-api-key"]).toBe("anthropic-test-key");
    expect(request.body).toMatchObject({ model: "claude-fake-1", stream: true, max_tokens: 456 });
    // A cache breakpoint after the game's part of the system prompt and after the history (docs/decisions/055).
    const system = request.body.system as { text: string; cache_control?: unknown }[];
    expect(system).toHaveLength(1);
    expect(system[0]?.text).toContain("PROMPT-MARKER");
    expect(system[0]?.cache_control).toEqual({ type: "ephemeral" });
    expect(request.body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: OPENING_EXCHANGE.message }] },
      { role: "assistant", content: [{ type: "text", text: OPENING_EXCHANGE.reply, cache_control: { type: "ephemeral" } }] },
      { role: "user", content: [{ type: "text", text: "I step off the boat." }] },
    ]);
  });

  test("records the call with Anthropic's cache reads and writes, priced by the price table", async ({ server, model }) => {
    await server.connection.db.insert(modelPrices).values({
      provider: "anthropic",
      model: "claude-fake-1",
      inputPerMillion: 3,
      cachedInputPerMillion: 0.3,
      cacheWritePerMillion: 3.75,
      outputPerMillion: 15,
      currency: "USD",
    });
    const player = await signUp(server);
    const storyId = await beginStory(server, player, TEST_GAME.slug);
    model.script(() => ({ tokens: ["Fog."], usage: { inputTokens: 5000, cachedInputTokens: 3000, cacheWriteTokens: 1500, outputTokens: 20 } }));
    expect((await readTurn(await postChat(server, player, { message: "I wait.", game_slug: TEST_GAME.slug }))).done).toBe(true);
    const [call] = await server.connection.db.select().from(modelCalls).where(eq(modelCalls.storyId, storyId));
    expect(call).toMatchObject({
      kind: "send",
      provider: "anthropic",
      model: "claude-fake-1",
      inputTokens: 5000,
      cachedInputTokens: 3000,
      cacheWriteTokens: 1500,
      outputTokens: 20,
      estimated: false,
      outcome: "ok",
      // 500 uncached × $3 + 3000 read × $0.30 + 1500 written × $3.75 + 20 output × $15, per million.
      cost: (500 * 3 + 3000 * 0.3 + 1500 * 3.75 + 20 * 15) / 1e6,
    });
  });

  test("refunds when Anthropic answers 500 before any text", async ({ server, model }) => {
    const player = await signUp(server);
    await beginStory(server, player, TEST_GAME.slug);
    model.script(() => ({ status: 500 }));
    const turn = await postChat(server, player, { message: "I ring the bell.", game_slug: TEST_GAME.slug }).then(readTurn);
    expect(turn.error).toMatch(/refunded/);
    expect(turn.pieces).toEqual([]);
    expect(await balanceAndLedger(player)).toEqual({ balance: 20, ledger: 20 });
    expect(await storedMessages(server, player)).toHaveLength(2);
  });

  test("keeps the credit and what was delivered when the stream is cut mid-reply", async ({ server, model }) => {
    const player = await signUp(server);
    await beginStory(server, player, TEST_GAME.slug);
    model.script(() => ({ tokens: ["The ", "lamp ", "goes ", "out"], cutAfter: 2 }));
    const turn = await postChat(server, player, { message: "I blow on the lamp.", game_slug: TEST_GAME.slug }).then(readTurn);
    expect(turn.text).toBe("The lamp ");
    expect(turn.error).toMatch(/interrupted/);
    expect(await balanceAndLedger(player)).toEqual({ balance: 19, ledger: 19 });
    expect((await storedMessages(server, player)).slice(2)).toEqual([
      { role: "user", content: "I blow on the lamp." },
      { role: "assistant", content: "The lamp " },
    ]);
  });

  test("refunds when Anthropic never answers", async ({ server, model }) => {
    const player = await signUp(server);
    await beginStory(server, player, TEST_GAME.slug);
    model.script(() => ({ hang: true }));
    const turn = await postChat(server, player, { message: "I wait.", game_slug: TEST_GAME.slug }).then(readTurn);
    expect(turn.error).toMatch(/refunded/);
    expect(await balanceAndLedger(player)).toEqual({ balance: 20, ledger: 20 });
  });

  test("relays a slow model's tokens as they come", async ({ server, model }) => {
    const player = await signUp(server);
    await beginStory(server, player, TEST_GAME.slug);
    model.script(() => ({ tokens: ["One ", "by ", "one."], startDelayMs: 300, tokenDelayMs: 200 }));
    const response = await postChat(server, player, { message: "I count.", game_slug: TEST_GAME.slug });
    const reader = response.body!.getReader();
    const reads: string[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      reads.push(new TextDecoder().decode(value));
    }
    expect(reads.join("")).toContain("data: [DONE]");
    // The pieces arrive in separate reads as the model produces them, not buffered to the end.
    expect(reads.filter((chunk) => chunk.includes('"content"')).length).toBeGreaterThanOrEqual(3);
  });
});
