import { eq, sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { modelCalls, modelPrices } from "#app/db/schema.ts";
import { storyReadLimits } from "#app/domain/game-master/tokens.server.ts";
import { callCost, type TurnSample } from "#app/lib/game-models.ts";
import { makeAdmin, signUp } from "#tests/helpers/accounts.ts";
import { adminApi, gameBody } from "#tests/helpers/admin-api.ts";
import { queryRows } from "#tests/helpers/database.ts";
import { gameMasterTest as test } from "#tests/helpers/fixtures.ts";
import { postChat, readTurn } from "#tests/helpers/game-chat.ts";
import { seedStory } from "#tests/helpers/stories.ts";
import type { TestServer } from "#tests/helpers/server.ts";
import { DEFAULT_REPLY } from "#tests/fakes/streaming-model.ts";

/**
 * A game's own model and context budget (issue 34, docs/decisions/060): chosen by the admin among
 * the site's model and those priced for the provider, within bounds; the turn calls the game's
 * model, records it, and reads and sends as much of the story as the game's budget holds.
 */

const SITE_MODEL = "fake-storyteller-7b";
const GAME_MODEL = "fake-storyteller-70b";
const SITE_BUDGET = 3000;

test.override("serverEnv", { AI_MODEL: SITE_MODEL, AI_CONTEXT_TOKENS: String(SITE_BUDGET) });

test.beforeEach(({ model }) => {
  model.script(() => ({ ...DEFAULT_REPLY, usage: { inputTokens: 900, cachedInputTokens: 300, outputTokens: 40 } }));
});

async function adminOf(server: TestServer) {
  const admin = await signUp(server);
  await makeAdmin(server, admin);
  return adminApi(server, admin);
}

async function priceGameModel(server: TestServer) {
  await server.connection.db
    .insert(modelPrices)
    .values({ provider: "openai-compatible", model: GAME_MODEL, inputPerMillion: 4, cachedInputPerMillion: 0.4, outputPerMillion: 16 })
    .onConflictDoNothing();
}

/** A story of 60 exchanges of about 600 characters each, each one's number findable in what the model is sent. */
function seedLongStory(server: TestServer, userId: string, gameSlug: string) {
  const exchanges = Array.from({ length: 60 }, (_, index) => ({
    message: `I walk on, step ${index + 1}. ${"The road goes ever on. ".repeat(13)}`,
    reply: `You reach milestone ${index + 1}. ${"Pines lean over the path. ".repeat(11)}`,
  }));
  return seedStory(server.connection.db, { userId, gameSlug, exchanges });
}

/** The request the model was sent for the player's message, and the seeded exchanges it holds. */
function requestFor(requests: { body: Record<string, unknown> }[], message: string) {
  const request = requests.find((each) => JSON.stringify(each.body.messages).includes(message));
  if (!request) throw new Error(`No request held "${message}".`);
  const text = (request.body.messages as { content: string }[]).map((each) => each.content).join("\n");
  return { model: request.body.model, exchangesSent: new Set([...text.matchAll(/milestone (\d+)\./g)].map((match) => match[1])).size };
}

describe("a game's model and context budget", () => {
  test("the admin chooses them within what the site offers, and is told why otherwise", async ({ server }) => {
    const api = await adminOf(server);
    await priceGameModel(server);
    const refusals = [
      [
        { model: "gpt-unknown" },
        "is not a model this site can use: choose the site's model or one priced for openai-compatible in the Models tab.",
      ],
      [{ contextTokens: 500 }, "The context budget is a whole number of tokens from 1,000 to 200,000, or empty for the site's."],
      [{ contextTokens: "lots" }, "The context budget is a whole number of tokens from 1,000 to 200,000"],
      [{ contextTokens: 300_000 }, "from 1,000 to 200,000"],
    ] as const;
    for (const [fields, error] of refusals) {
      const answer = await api("POST", "/api/admin/games", gameBody({ slug: "refused-game", ...fields }));
      expect(answer.status, error).toBe(400);
      expect(answer.body.error).toContain(error);
    }

    const created = await api("POST", "/api/admin/games", gameBody({ slug: "chosen-game", model: GAME_MODEL, contextTokens: "12,000" }));
    expect(created).toMatchObject({ status: 201, body: { game: { model: GAME_MODEL, contextTokens: 12_000 } } });
    const id = (created.body as { game: { id: string } }).game.id;
    // The site's model by its id, and back to the site's (empty) for both.
    expect((await api("PUT", `/api/admin/games/${id}`, gameBody({ slug: "chosen-game", model: SITE_MODEL }))).body.game).toMatchObject({
      model: SITE_MODEL,
      contextTokens: null,
    });
    expect((await api("PUT", `/api/admin/games/${id}`, gameBody({ slug: "chosen-game", model: "" }))).body.game).toMatchObject({ model: null });
    // A model whose price was removed stays the game's own.
    await api("PUT", `/api/admin/games/${id}`, gameBody({ slug: "chosen-game", model: GAME_MODEL }));
    await server.connection.db.delete(modelPrices).where(eq(modelPrices.model, GAME_MODEL));
    expect((await api("PUT", `/api/admin/games/${id}`, gameBody({ slug: "chosen-game", model: GAME_MODEL, title: "Chosen" }))).status).toBe(200);
    expect((await api("POST", "/api/admin/games", gameBody({ slug: "another-game", model: GAME_MODEL }))).status).toBe(400);
  });

  test("a turn calls the game's model, records it, and sends the history its budget holds", async ({ server, model }) => {
    const api = await adminOf(server);
    await priceGameModel(server);
    const player = await signUp(server);
    const play = async (slug: string, fields: Record<string, unknown>) => {
      expect((await api("POST", "/api/admin/games", gameBody({ slug, title: slug, prompt: "You narrate a long walk.", ...fields }))).status).toBe(
        201,
      );
      const storyId = await seedLongStory(server, player.userId, slug);
      const message = `I rest at the end of ${slug}.`;
      const response = await postChat(server, player, { message, story_id: storyId, game_slug: slug });
      if (!response.ok) throw new Error(await response.text());
      const turn = await readTurn(response);
      expect(turn, JSON.stringify(turn)).toMatchObject({ done: true });
      return { storyId, ...requestFor(model.requests, message) };
    };

    const site = await play("site-walk", {});
    const wide = await play("wide-walk", { model: GAME_MODEL, contextTokens: 20_000 });
    const narrow = await play("narrow-walk", { contextTokens: 1_000 });

    expect([site.model, wide.model, narrow.model]).toEqual([SITE_MODEL, GAME_MODEL, SITE_MODEL]);
    // The site's budget reads at most its characters of history: 3,000 tokens × 3.5, about 17 exchanges of 600.
    expect(site.exchangesSent).toBeLessThan(18);
    // The game's budget is read by begin_turn too: every exchange reaches the model, far more than the site's budget could read.
    expect(wide.exchangesSent).toBe(60);
    expect(narrow.exchangesSent).toBeLessThan(site.exchangesSent);
    expect(narrow.exchangesSent).toBeLessThanOrEqual(5);

    const [call] = await server.connection.db.select().from(modelCalls).where(eq(modelCalls.storyId, wide.storyId));
    expect(call).toMatchObject({ kind: "send", provider: "openai-compatible", model: GAME_MODEL, inputTokens: 900, cachedInputTokens: 300 });
    // The editor's estimate prices tokens as the database priced the call.
    const [price] = await server.connection.db.select().from(modelPrices).where(eq(modelPrices.model, GAME_MODEL));
    const sample: TurnSample = [call!.inputTokens, call!.cachedInputTokens, call!.cacheWriteTokens, call!.outputTokens];
    expect(callCost(price!, sample)).toBeCloseTo(call!.cost!, 6);
  });

  test("begin_turn reads a game's budget as the site's is read", async ({ server }) => {
    for (const budget of [1_000, 3_000, 8_000, 20_001, 64_000, 200_000]) {
      const [limits] = await queryRows<{ max_exchanges: number; max_characters: number }>(
        server.connection.db,
        sql`select * from story_read_limits(${budget})`,
      );
      const expected = storyReadLimits(budget);
      expect([limits?.max_exchanges, limits?.max_characters], String(budget)).toEqual([expected.maxExchanges, expected.maxCharacters]);
    }
    // No budget of the game's own: no limits of its own (the site's apply).
    expect(await queryRows(server.connection.db, sql`select * from story_read_limits(null)`)).toEqual([
      { max_exchanges: null, max_characters: null },
    ]);
  });
});
