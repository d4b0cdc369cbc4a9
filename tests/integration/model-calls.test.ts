import { asc, eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { modelCalls, modelPrices, stories } from "#app/db/schema.ts";
import { SUMMARY_INSTRUCTIONS } from "#app/domain/game-master/story-summary.server.ts";
import { estimateMessageTokens, estimateTokens } from "#app/domain/game-master/tokens.server.ts";
import { signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { eventually, postChat, readTurn, TEST_GAME } from "#tests/helpers/game-chat.ts";
import { gameMasterTest as test } from "#tests/helpers/fixtures.ts";
import type { TestServer } from "#tests/helpers/server.ts";
import { beginStory, seedStory } from "#tests/helpers/stories.ts";
import { DEFAULT_REPLY, type FakeUsage, type RecordedRequest } from "#tests/fakes/streaming-model.ts";

/**
 * Every model call recorded (issue 34): the usage the OpenAI-compatible server reports (cached and
 * reasoning tokens included) or, when it reports none, the site's estimate; the model; the cost by
 * the price table; for every kind of turn, a failed one and a summary.
 */

const MODEL = "fake-storyteller-7b";

test.override("serverEnv", { AI_MODEL: MODEL, AI_CONTEXT_TOKENS: "3000", AI_TIMEOUT_MS: "2000" });

test.beforeEach(({ model }) => {
  model.script(() => DEFAULT_REPLY);
});

async function priced(server: TestServer) {
  await server.connection.db
    .insert(modelPrices)
    .values({ provider: "openai-compatible", model: MODEL, inputPerMillion: 2, cachedInputPerMillion: 0.2, outputPerMillion: 8, currency: "USD" })
    .onConflictDoNothing();
}

function callsOf(server: TestServer, storyId: string) {
  return server.connection.db.select().from(modelCalls).where(eq(modelCalls.storyId, storyId)).orderBy(asc(modelCalls.id));
}

/** What the site counts for a request when the provider reports nothing. */
function estimatedInput(request: RecordedRequest) {
  return (request.body.messages as { content: string }[]).reduce((sum, message) => sum + estimateMessageTokens(message.content), 0);
}

function control(server: TestServer, player: TestAccount, storyId: string, action: string, body: Record<string, unknown>) {
  return server.fetch(`/api/stories/${storyId}/${action}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${player.token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

describe("model calls", () => {
  test("a turn's call is stored with the usage the provider reports, its model, its timings and its cost", async ({ server, model }) => {
    await priced(server);
    const player = await signUp(server);
    const storyId = await beginStory(server, player, TEST_GAME.slug);
    const usage: FakeUsage = { inputTokens: 1000, cachedInputTokens: 600, outputTokens: 50, reasoningTokens: 5 };
    model.script(() => ({ tokens: ["The ", "bell ", "rings."], tokenDelayMs: 10, usage }));
    expect((await readTurn(await postChat(server, player, { message: "I listen.", game_slug: TEST_GAME.slug }))).done).toBe(true);
    expect(model.requests.at(-1)?.body.stream_options).toEqual({ include_usage: true });

    const [call] = await callsOf(server, storyId);
    expect(call).toMatchObject({
      kind: "send",
      storyId,
      gameSlug: TEST_GAME.slug,
      userId: player.userId,
      provider: "openai-compatible",
      model: MODEL,
      inputTokens: 1000,
      cachedInputTokens: 600,
      cacheWriteTokens: 0,
      outputTokens: 50,
      reasoningTokens: 5,
      estimated: false,
      outcome: "ok",
      // 400 uncached × $2 + 600 cached × $0.20 + 50 output × $8, per million.
      cost: 0.00132,
      currency: "USD",
    });
    expect(call?.firstTokenMs).toBeGreaterThanOrEqual(0);
    expect(call?.totalMs).toBeGreaterThanOrEqual(call?.firstTokenMs ?? Infinity);
  });

  test("retry, continue and edit are recorded as their kinds", async ({ server, model }) => {
    await priced(server);
    const player = await signUp(server);
    const storyId = await beginStory(server, player, TEST_GAME.slug);
    let output = 10;
    model.script(() => ({ tokens: ["A reply."], usage: { inputTokens: 500, cachedInputTokens: 100, outputTokens: (output += 1) } }));
    await readTurn(await postChat(server, player, { message: "I wait.", game_slug: TEST_GAME.slug }));
    expect((await readTurn(await control(server, player, storyId, "retry", { exchange: 2 }))).done).toBe(true);
    expect((await readTurn(await control(server, player, storyId, "continue", { exchange: 2 }))).done).toBe(true);
    expect((await readTurn(await control(server, player, storyId, "edit", { exchange: 2, message: "I run." }))).done).toBe(true);

    const calls = await callsOf(server, storyId);
    expect(calls.map(({ kind, outputTokens, estimated, outcome }) => ({ kind, outputTokens, estimated, outcome }))).toEqual([
      { kind: "send", outputTokens: 11, estimated: false, outcome: "ok" },
      { kind: "retry", outputTokens: 12, estimated: false, outcome: "ok" },
      { kind: "continue", outputTokens: 13, estimated: false, outcome: "ok" },
      { kind: "edit", outputTokens: 14, estimated: false, outcome: "ok" },
    ]);
    expect(calls.map((call) => call.cost)).toEqual([11, 12, 13, 14].map((tokens) => (400 * 2 + 100 * 0.2 + tokens * 8) / 1e6));
  });

  test("a provider that reports no usage: the call is estimated and marked so", async ({ server, model }) => {
    await priced(server);
    const player = await signUp(server);
    const storyId = await beginStory(server, player, TEST_GAME.slug);
    model.script(() => ({ tokens: ["Quiet ", "water."], usage: "none" }));
    await readTurn(await postChat(server, player, { message: "I row.", game_slug: TEST_GAME.slug }));
    const request = model.requests.at(-1)!;
    const [call] = await callsOf(server, storyId);
    const input = estimatedInput(request);
    const output = estimateTokens("Quiet water.");
    expect(call).toMatchObject({ inputTokens: input, cachedInputTokens: 0, outputTokens: output, reasoningTokens: null, estimated: true });
    expect(call?.cost).toBeCloseTo((input * 2 + output * 8) / 1e6, 6);
  });

  test("a call that fails before any text is recorded with the refund", async ({ server, model }) => {
    await priced(server);
    const player = await signUp(server);
    const storyId = await beginStory(server, player, TEST_GAME.slug);
    model.script(() => ({ status: 400 }));
    expect((await readTurn(await postChat(server, player, { message: "I shout.", game_slug: TEST_GAME.slug }))).error).toMatch(/refunded/);
    const [call] = await callsOf(server, storyId);
    expect(call).toMatchObject({ kind: "send", outcome: "failed", estimated: true, outputTokens: 0, firstTokenMs: null });
    expect(call?.inputTokens).toBe(estimatedInput(model.requests.at(-1)!));
  });

  test("a model without a price is recorded with no cost", async ({ server }) => {
    const player = await signUp(server);
    const storyId = await beginStory(server, player, TEST_GAME.slug);
    await server.connection.db.delete(modelPrices);
    await readTurn(await postChat(server, player, { message: "I sing.", game_slug: TEST_GAME.slug }));
    const [call] = await callsOf(server, storyId);
    expect(call).toMatchObject({ model: MODEL, cost: null, currency: null, estimated: false, inputTokens: 42, outputTokens: 12 });
  });

  test("the story so far's summary records its call with the summary", async ({ server, model }) => {
    await priced(server);
    const player = await signUp(server);
    const storyId = await seedStory(server.connection.db, {
      userId: player.userId,
      gameSlug: TEST_GAME.slug,
      exchanges: Array.from({ length: 60 }, (_, index) => ({
        message: `I walk the quay on night ${index + 1}.`,
        reply: `Night ${index + 1} passes quietly. ${"The lanterns burn low over the black water. ".repeat(12)}`,
      })),
    });
    const isSummary = (request: RecordedRequest) => (request.body.messages as { content: string }[])[0]?.content === SUMMARY_INSTRUCTIONS;
    model.script((request) =>
      isSummary(request)
        ? { tokens: ["You walked the quay for many nights."], usage: { inputTokens: 2000, cachedInputTokens: 0, outputTokens: 9 } }
        : DEFAULT_REPLY,
    );
    await readTurn(await postChat(server, player, { message: "I stop.", game_slug: TEST_GAME.slug, story_id: storyId }));
    const summary = await eventually(async () => (await callsOf(server, storyId)).find((call) => call.kind === "summary"));
    expect(summary).toMatchObject({
      provider: "openai-compatible",
      model: MODEL,
      inputTokens: 2000,
      outputTokens: 9,
      outcome: "ok",
      cost: (2000 * 2 + 9 * 8) / 1e6,
    });
    const [story] = await server.connection.db.select({ summary: stories.summary }).from(stories).where(eq(stories.id, storyId));
    expect(story?.summary).toBe("You walked the quay for many nights.");
  });
});
