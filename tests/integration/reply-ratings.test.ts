import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { gameMessages, replyRatings, replyVersions } from "#app/db/schema.ts";
import { dashboardRange } from "#app/domain/admin-dashboard.server.ts";
import { RATING_REFUSALS } from "#app/domain/reply-ratings.server.ts";
import { DASHBOARD_DATASETS, datasetRows, toCsv, type Dashboard, type DashboardPeriod } from "#app/lib/admin-dashboard.ts";
import { replyRatingPath, type ReplyRating } from "#app/lib/reply-ratings.ts";
import type { StoryMessageView, StoryView } from "#app/lib/story-view.ts";
import { makeAdmin, signUp, type TestAccount, apiRequest, type ApiInit } from "#tests/helpers/accounts.ts";
import { eventually, postChat, readTurn, startStoryTestServer, TEST_GAME } from "#tests/helpers/game-chat.ts";
import type { TestServer } from "#tests/helpers/server.ts";
import { beginStory, seedStory } from "#tests/helpers/stories.ts";
import type { FakeModelServer } from "#tests/fakes/streaming-model.ts";

/**
 * Good reply / Bad reply (issue 33) against a real server and a local OpenAI-compatible model: each
 * reply is stored with the model that wrote it, a player rates the versions of replies in their
 * own story, and the admin overview's liked share is what the ratings say.
 */

const PROVIDER = "openai-compatible";
const MODEL = "fake-storyteller-7b";

let model: FakeModelServer;
let server: TestServer;
let stop: () => Promise<void>;
let admin: TestAccount;

beforeAll(async () => {
  ({ model, server, close: stop } = await startStoryTestServer({ AI_MODEL: MODEL }));
  admin = await signUp(server);
  await makeAdmin(server, admin);
});

afterAll(() => stop());

beforeEach(() => {
  model.script(() => ({ tokens: ["The court ", "falls silent."] }));
});

const api = (account: TestAccount | null, path: string, init?: ApiInit) => apiRequest(server, account, path, init);

/** A player whose story has its opening (seeded) and one reply written by the model; the reply's id. */
async function playing() {
  const player = await signUp(server);
  const storyId = await beginStory(server, player, TEST_GAME.slug);
  expect((await readTurn(await postChat(server, player, { message: "I bow to the court.", game_slug: TEST_GAME.slug }))).done).toBe(true);
  const reply = (await story(player, storyId)).messages.at(-1)!;
  expect(reply.role).toBe("assistant");
  return { player, storyId, replyId: reply.id };
}

async function story(account: TestAccount, storyId: string): Promise<StoryView> {
  const response = await api(account, `/api/stories/${storyId}`);
  expect(response.status).toBe(200);
  return (await response.json()) as StoryView;
}

const latestReply = async (account: TestAccount, storyId: string): Promise<StoryMessageView> => (await story(account, storyId)).messages.at(-1)!;

function rate(account: TestAccount | null, storyId: string, replyId: number | string, version: number | string, body: unknown) {
  return api(account, `/api/stories/${storyId}/replies/${replyId}/versions/${version}/rating`, { method: "PUT", body });
}

function clear(account: TestAccount, storyId: string, replyId: number, version: number) {
  return api(account, replyRatingPath(storyId, replyId, version), { method: "DELETE" });
}

function storedRatings(replyId: number) {
  return server.connection.db
    .select({
      version: replyRatings.version,
      rating: replyRatings.rating,
      reason: replyRatings.reason,
      modelProvider: replyRatings.modelProvider,
      model: replyRatings.model,
    })
    .from(replyRatings)
    .where(eq(replyRatings.messageId, replyId))
    .orderBy(replyRatings.version);
}

describe("a reply's model", () => {
  it("is stored with the reply, and with each version a Retry adds", async () => {
    const { player, storyId, replyId } = await playing();
    const [reply] = await server.connection.db
      .select({ modelProvider: gameMessages.modelProvider, model: gameMessages.model })
      .from(gameMessages)
      .where(eq(gameMessages.id, replyId));
    expect(reply).toEqual({ modelProvider: PROVIDER, model: MODEL });

    expect((await readTurn(await api(player, `/api/stories/${storyId}/retry`, { body: { exchange: 2 } }))).done).toBe(true);
    const versions = await server.connection.db
      .select({ version: replyVersions.version, modelProvider: replyVersions.modelProvider, model: replyVersions.model })
      .from(replyVersions)
      .where(eq(replyVersions.messageId, replyId))
      .orderBy(replyVersions.version);
    expect(versions).toEqual([
      { version: 1, modelProvider: PROVIDER, model: MODEL },
      { version: 2, modelProvider: PROVIDER, model: MODEL },
    ]);
  });
});

describe("rating a reply", () => {
  it("stores Good reply, replaces it with Bad reply and a reason, and clears it; the story shows each", async () => {
    const { player, storyId, replyId } = await playing();

    const good = await rate(player, storyId, replyId, 1, { rating: "good" });
    expect(good.status).toBe(200);
    expect(await good.json()).toEqual({ rating: { rating: "good", reason: null } });
    expect((await latestReply(player, storyId)).rating).toEqual({ rating: "good", reason: null });

    const bad = await rate(player, storyId, replyId, 1, { rating: "bad", reason: "repeats" });
    expect(await bad.json()).toEqual({ rating: { rating: "bad", reason: "repeats" } });
    expect(await storedRatings(replyId)).toEqual([{ version: 1, rating: "bad", reason: "repeats", modelProvider: PROVIDER, model: MODEL }]);
    const shown = await story(player, storyId);
    expect(shown.messages.map((message) => message.rating)).toEqual([null, null, null, { rating: "bad", reason: "repeats" }]);

    const cleared = await clear(player, storyId, replyId, 1);
    expect(cleared.status).toBe(200);
    expect(await cleared.json()).toEqual({ rating: null });
    expect(await storedRatings(replyId)).toEqual([]);
    expect((await latestReply(player, storyId)).rating).toBeNull();
  });

  it("keeps one rating per version: each version on screen shows its own", async () => {
    const { player, storyId, replyId } = await playing();
    expect((await rate(player, storyId, replyId, 1, { rating: "good" })).status).toBe(200);
    expect((await readTurn(await api(player, `/api/stories/${storyId}/retry`, { body: { exchange: 2 } }))).done).toBe(true);
    expect(await latestReply(player, storyId)).toMatchObject({ version: 2, rating: null });

    expect((await rate(player, storyId, replyId, 2, { rating: "bad", reason: "boring" })).status).toBe(200);
    expect((await latestReply(player, storyId)).rating).toEqual({ rating: "bad", reason: "boring" });
    expect((await api(player, `/api/stories/${storyId}/version`, { body: { exchange: 2, version: 1 } })).status).toBe(200);
    expect(await latestReply(player, storyId)).toMatchObject({ version: 1, rating: { rating: "good", reason: null } });
    expect((await storedRatings(replyId)).map((row) => [row.version, row.rating])).toEqual([
      [1, "good"],
      [2, "bad"],
    ]);
  });

  it("is the story owner's alone: anyone else is told the reply is not there", async () => {
    const { player, storyId, replyId } = await playing();
    const stranger = await signUp(server);
    for (const response of [await rate(stranger, storyId, replyId, 1, { rating: "bad" }), await clear(stranger, storyId, replyId, 1)]) {
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ code: "not_found", error: RATING_REFUSALS.missing });
    }
    expect((await rate(null, storyId, replyId, 1, { rating: "good" })).status).toBe(401);
    expect(await storedRatings(replyId)).toEqual([]);
    expect((await rate(player, storyId, replyId, 1, { rating: "good" })).status).toBe(200);
  });

  it("refuses what names no reply version, and what is not a rating", async () => {
    const { player, storyId, replyId } = await playing();
    const playerMessage = (await story(player, storyId)).messages.at(-2)!;
    for (const [reply, version] of [
      [playerMessage.id, 1],
      [replyId, 2],
      [replyId + 1000, 1],
      ["abc", 1],
      [replyId, 0],
    ] as const) {
      const response = await rate(player, storyId, reply, version, { rating: "good" });
      expect(response.status, `reply ${reply}, version ${version}`).toBe(404);
    }
    expect((await rate(player, "not-a-story", replyId, 1, { rating: "good" })).status).toBe(404);

    const goodWithReason = await rate(player, storyId, replyId, 1, { rating: "good", reason: "boring" });
    expect(goodWithReason.status).toBe(400);
    expect(await goodWithReason.json()).toMatchObject({ code: "invalid_input", fieldErrors: { reason: expect.any(String) as string } });
    expect((await rate(player, storyId, replyId, 1, { rating: "meh" })).status).toBe(400);
    expect((await rate(player, storyId, replyId, 1, { rating: "bad", reason: "too long" })).status).toBe(400);
    expect(await storedRatings(replyId)).toEqual([]);
  });

  it("waits while the reply is written, and refuses a reply that was lost", async () => {
    const { player, storyId, replyId } = await playing();
    model.script(() => ({ tokens: ["More ", "of ", "the ", "scene."], tokenDelayMs: 400 }));
    const continuing = api(player, `/api/stories/${storyId}/continue`, { body: { exchange: 2 } });
    await eventually(async () => (await latestReply(player, storyId)).status === "streaming");
    const writing = await rate(player, storyId, replyId, 1, { rating: "good" });
    expect(writing.status).toBe(409);
    expect(await writing.json()).toMatchObject({ code: "story_busy", error: RATING_REFUSALS.writing });
    expect((await readTurn(await continuing)).done).toBe(true);

    // A new exchange's reply is stored when its turn ends: until then the story shows it, and it is not rated yet.
    model.script(() => ({ tokens: ["The ", "court ", "waits."], tokenDelayMs: 400 }));
    const sending = postChat(server, player, { message: "I wait.", game_slug: TEST_GAME.slug, story_id: storyId });
    await eventually(async () => (await latestReply(player, storyId)).status === "streaming");
    const newReply = await latestReply(player, storyId);
    expect(newReply).toMatchObject({ exchange: 3, role: "assistant", content: "", versions: 1 });
    const early = await rate(player, storyId, newReply.id, 1, { rating: "good" });
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({ code: "story_busy", error: RATING_REFUSALS.writing });
    expect((await readTurn(await sending)).done).toBe(true);
    expect(await latestReply(player, storyId)).toMatchObject({ id: newReply.id, status: "complete", content: "The court waits." });
    expect((await rate(player, storyId, newReply.id, 1, { rating: "good" })).status).toBe(200);

    await server.connection.db.update(gameMessages).set({ status: "interrupted", content: "" }).where(eq(gameMessages.id, replyId));
    const lost = await rate(player, storyId, replyId, 1, { rating: "bad" });
    expect(lost.status).toBe(409);
    expect(await lost.json()).toMatchObject({ code: "reply_not_ratable", error: RATING_REFUSALS.lost });
  });
});

describe("the admin overview's reply ratings", () => {
  const DAY = 24 * 60 * 60 * 1000;
  const noonDaysAgo = (days: number) => new Date(Date.parse(new Date().toISOString().slice(0, 10)) - days * DAY + 12 * 60 * 60 * 1000);

  /** A seeded story of `count` replies written by a model, each rated as `ratings` says, `days` ago. */
  async function ratedStory(
    gameSlug: string,
    writtenBy: { provider: string; model: string } | null,
    days: number,
    ratings: (ReplyRating | [ReplyRating, "repeats" | "ignored_me" | "wrong_facts" | "boring"])[],
  ) {
    const player = await signUp(server);
    const storyId = await seedStory(server.connection.db, {
      userId: player.userId,
      gameSlug,
      exchanges: ratings.map((_, index) => ({ message: `Move ${index + 1}`, reply: `Scene ${index + 1}` })),
    });
    const replies = await server.connection.db
      .update(gameMessages)
      .set({ modelProvider: writtenBy?.provider ?? null, model: writtenBy?.model ?? null })
      .where(and(eq(gameMessages.storyId, storyId), eq(gameMessages.role, "assistant")))
      .returning({ id: gameMessages.id, exchange: gameMessages.exchange });
    replies.sort((a, b) => a.exchange - b.exchange);
    await server.connection.db.insert(replyRatings).values(
      ratings.map((given, index) => {
        const [rating, reason] = typeof given === "string" ? [given, null] : given;
        return {
          messageId: replies[index]!.id,
          version: 1,
          userId: player.userId,
          rating,
          reason,
          modelProvider: writtenBy?.provider ?? null,
          model: writtenBy?.model ?? null,
          ratedAt: noonDaysAgo(days),
        };
      }),
    );
    return replies.map((reply) => reply.id);
  }

  async function dashboard(days: DashboardPeriod): Promise<Dashboard> {
    const response = await server.fetch(`/api/admin/dashboard?days=${days}`, { headers: { Cookie: admin.cookie } });
    expect(response.status).toBe(200);
    return ((await response.json()) as { dashboard: Dashboard }).dashboard;
  }

  /** What the overview should say, counted here from every stored rating. */
  async function expectedFigures(days: DashboardPeriod) {
    const { startsAt } = dashboardRange(days);
    const stored = await server.connection.db
      .select({
        rating: replyRatings.rating,
        ratedAt: replyRatings.ratedAt,
        provider: replyRatings.modelProvider,
        model: replyRatings.model,
        gameSlug: gameMessages.gameSlug,
        removedAt: gameMessages.removedAt,
      })
      .from(replyRatings)
      .innerJoin(gameMessages, eq(gameMessages.id, replyRatings.messageId));
    const counted = stored.filter((row) => row.removedAt === null && row.ratedAt.getTime() >= Date.parse(startsAt));
    const tally = (key: (row: (typeof counted)[number]) => string) => {
      const totals = new Map<string, { good: number; bad: number }>();
      for (const row of counted) {
        const entry = totals.get(key(row)) ?? { good: 0, bad: 0 };
        entry[row.rating] += 1;
        totals.set(key(row), entry);
      }
      return Object.fromEntries(totals);
    };
    return {
      days: tally((row) => row.ratedAt.toISOString().slice(0, 10)),
      games: tally((row) => row.gameSlug),
      models: tally((row) => `${row.provider}/${row.model}`),
    };
  }

  const byKey = <Row extends { good: number; bad: number }>(rows: Row[], key: (row: Row) => string) =>
    Object.fromEntries(rows.filter((row) => row.good + row.bad > 0).map((row) => [key(row), { good: row.good, bad: row.bad }]));

  it("gives the liked share per day, game and model as stored, leaving out replies taken back and ratings before the period", async () => {
    const gpt = { provider: "openai", model: "gpt-story" };
    const claude = { provider: "anthropic", model: "claude-story" };
    await ratedStory(TEST_GAME.slug, gpt, 3, ["good", "good", ["bad", "repeats"]]);
    await ratedStory("empress-simulator", claude, 3, ["good", ["bad", "boring"]]);
    await ratedStory("empress-simulator", gpt, 10, ["bad", "good", "good", "good"]);
    await ratedStory("empress-simulator", null, 12, ["good"]);
    await ratedStory(TEST_GAME.slug, claude, 45, ["bad", "bad"]);
    const [undone] = await ratedStory(TEST_GAME.slug, claude, 3, ["bad"]);
    await server.connection.db.update(gameMessages).set({ removedAt: new Date(), removal: "undone" }).where(eq(gameMessages.id, undone!));

    const month = await dashboard(30);
    const expected = await expectedFigures(30);
    expect(byKey(month.ratings, (row) => row.day)).toEqual(expected.days);
    expect(byKey(month.ratedGames, (row) => row.slug)).toEqual(expected.games);
    expect(byKey(month.ratedModels, (row) => `${row.provider}/${row.model}`)).toEqual(expected.models);
    // The seeded days, said outright: the reply undone three days ago is left out, the 45-day-old ratings too.
    expect(month.ratings.find((row) => row.day === noonDaysAgo(3).toISOString().slice(0, 10))).toMatchObject({ good: 3, bad: 2 });
    expect(month.ratings.find((row) => row.day === noonDaysAgo(10).toISOString().slice(0, 10))).toMatchObject({ good: 3, bad: 1 });
    expect(month.ratings).toHaveLength(30);
    expect(month.ratedModels.find((row) => row.provider === null)).toEqual({ provider: null, model: null, good: 1, bad: 0 });
    expect(month.ratedModels.find((row) => row.model === "claude-story")).toEqual({ ...claude, good: 1, bad: 1 });

    const quarter = await dashboard(90);
    expect(byKey(quarter.ratedModels, (row) => `${row.provider}/${row.model}`)).toEqual((await expectedFigures(90)).models);
    expect(quarter.ratedModels.find((row) => row.model === "claude-story")).toEqual({ ...claude, good: 1, bad: 3 });
  });

  it("downloads each ratings dataset as CSV with the liked share", async () => {
    const month = await dashboard(30);
    for (const dataset of ["ratings", "rated_games", "rated_models"] as const) {
      const response = await server.fetch(`/api/admin/dashboard/export?dataset=${dataset}&days=30`, { headers: { Cookie: admin.cookie } });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(toCsv(DASHBOARD_DATASETS[dataset].columns, datasetRows(month, dataset)));
    }
    const models = datasetRows(month, "rated_models");
    const claude = models.find((row) => row[1] === "claude-story");
    expect(claude).toEqual(["anthropic", "claude-story", 1, 1, "0.5000"]);
  });
});
