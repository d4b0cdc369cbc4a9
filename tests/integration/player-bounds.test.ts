import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { stories } from "#app/db/schema.ts";
import { TOO_MANY_WATCHERS_MESSAGE } from "#app/domain/game-master/live-replies.server.ts";
import { GAME_MESSAGES_PAGE } from "#app/domain/game-messages.server.ts";
import { MAX_STREAMS_PER_USER, openReplyWatchers } from "#app/domain/realtime.server.ts";
import { storiesKeptMessage } from "#app/domain/story-library.server.ts";
import { STARTER_CREDITS } from "#app/lib/constants.ts";
import { signUp, type TestAccount, apiRequest } from "#tests/helpers/accounts.ts";
import { gameMasterTest as test } from "#tests/helpers/fixtures.ts";
import { balanceAndLedger, eventually, postChat, STORY_MODEL_ENV, TEST_GAME } from "#tests/helpers/game-chat.ts";
import type { TestServer } from "#tests/helpers/server.ts";
import { openEventStream, type SseConnection } from "#tests/helpers/sse.ts";
import { beginStory, OPENING_EXCHANGE, seedStory } from "#tests/helpers/stories.ts";

/**
 * Issue 31, item 7: what one player can make the server hold is bounded, and each bound answers
 * 429 with a sentence saying what the limit is — New stories an hour and in all, replies followed
 * at once — and SPEC's GET /api/game-messages answers a page, however long the story.
 */

const STORIES_PER_HOUR = 3;
const STORIES_PER_PLAYER = 5;

test.override("serverEnv", {
  ...STORY_MODEL_ENV,
  STORIES_PER_HOUR: String(STORIES_PER_HOUR),
  STORIES_PER_PLAYER: String(STORIES_PER_PLAYER),
});

function newStory(server: TestServer, account: TestAccount) {
  return apiRequest(server, account, "/api/stories", { body: { game_slug: TEST_GAME.slug } });
}

function storiesOf(server: TestServer, account: TestAccount) {
  return server.connection.db.$count(stories, eq(stories.userId, account.userId));
}

async function seedStories(server: TestServer, account: TestAccount, count: number) {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) ids.push(await beginStory(server, account, TEST_GAME.slug));
  return ids;
}

describe("New story (POST /api/stories)", () => {
  test(`begins at most STORIES_PER_HOUR (${STORIES_PER_HOUR}) an hour, then answers 429 with Retry-After and the limit in words`, async ({
    server,
  }) => {
    const player = await signUp(server);
    for (let index = 0; index < STORIES_PER_HOUR; index += 1) expect((await newStory(server, player)).status).toBe(200);
    const refused = await newStory(server, player);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(60 * 59);
    expect(retryAfter).toBeLessThanOrEqual(60 * 60);
    expect(await refused.json()).toEqual({
      error: `You can begin ${STORIES_PER_HOUR} new stories an hour. Try again in 60 minutes.`,
      code: "rate_limited",
      retryAfterSeconds: retryAfter,
    });
    expect(await storiesOf(server, player)).toBe(STORIES_PER_HOUR);
  });

  test(`keeps at most STORIES_PER_PLAYER (${STORIES_PER_PLAYER}): then 429 saying to delete old stories, which makes room`, async ({ server }) => {
    const player = await signUp(server);
    const kept = await seedStories(server, player, STORIES_PER_PLAYER);
    const refused = await newStory(server, player);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBeNull();
    expect(await refused.json()).toEqual({ error: storiesKeptMessage(STORIES_PER_PLAYER), code: "rate_limited" });
    expect(await storiesOf(server, player)).toBe(STORIES_PER_PLAYER);

    // The refusal did not count against the hour: three deleted, three begun.
    for (const id of kept.slice(0, 3)) expect((await apiRequest(server, player, `/api/stories/${id}`, { method: "DELETE" })).status).toBe(200);
    for (let index = 0; index < STORIES_PER_HOUR; index += 1) expect((await newStory(server, player)).status).toBe(200);
    expect(await storiesOf(server, player)).toBe(STORIES_PER_PLAYER);
  });

  test("bounds the story a first turn in another game begins as well: 429 with the same sentence, nothing spent", async ({ server }) => {
    const player = await signUp(server);
    await seedStories(server, player, STORIES_PER_PLAYER);
    const refused = await postChat(server, player, { game_slug: "empress-simulator", message: "I take the throne." });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: storiesKeptMessage(STORIES_PER_PLAYER), code: "rate_limited" });
    expect(await storiesOf(server, player)).toBe(STORIES_PER_PLAYER);
    expect(await balanceAndLedger(player)).toEqual({ balance: STARTER_CREDITS, ledger: STARTER_CREDITS });
  });

  test("bounds Branch from here the same way: 429 with the same sentence, no branch made", async ({ server }) => {
    const player = await signUp(server);
    const [first] = await seedStories(server, player, STORIES_PER_PLAYER);
    const refused = await apiRequest(server, player, `/api/stories/${first}/branches`, { body: { exchange: 1 } });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: storiesKeptMessage(STORIES_PER_PLAYER), code: "rate_limited" });
    expect(await storiesOf(server, player)).toBe(STORIES_PER_PLAYER);
  });

  test("counts New stories sent at once one after another: one room left, one story begun", async ({ server }) => {
    const player = await signUp(server);
    await seedStories(server, player, STORIES_PER_PLAYER - 1);
    const answers = await Promise.all(Array.from({ length: STORIES_PER_HOUR }, () => newStory(server, player)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 429, 429]);
    expect(await storiesOf(server, player)).toBe(STORIES_PER_PLAYER);
  });
});

describe("following a reply (GET /api/stories/{id}/reply)", () => {
  test(`lets one player follow at most ${MAX_STREAMS_PER_USER} replies at once: the next is 429 until one lets go`, async ({ server, model }) => {
    model.script(() => ({ tokens: Array.from({ length: 160 }, (_, index) => `word${index} `), tokenDelayMs: 50 }));
    const player = await signUp(server);
    const storyId = await beginStory(server, player, TEST_GAME.slug);
    const leave = new AbortController();
    expect((await postChat(server, player, { message: "I watch the tide.", game_slug: TEST_GAME.slug }, { signal: leave.signal })).status).toBe(
      200,
    );

    const before = openReplyWatchers();
    const watchers: SseConnection[] = [];
    for (let index = 0; index < MAX_STREAMS_PER_USER; index += 1) {
      const watcher = await openEventStream(`${server.url}/api/stories/${storyId}/reply`, { Authorization: `Bearer ${player.token}` });
      expect(watcher.response.status).toBe(200);
      await watcher.next();
      watchers.push(watcher);
    }
    expect(openReplyWatchers()).toBe(before + MAX_STREAMS_PER_USER);

    const refused = await apiRequest(server, player, `/api/stories/${storyId}/reply`);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: TOO_MANY_WATCHERS_MESSAGE, code: "rate_limited" });
    expect(openReplyWatchers()).toBe(before + MAX_STREAMS_PER_USER);

    watchers.pop()!.close();
    await eventually(async () => openReplyWatchers() === before + MAX_STREAMS_PER_USER - 1);
    const again = await openEventStream(`${server.url}/api/stories/${storyId}/reply`, { Authorization: `Bearer ${player.token}` });
    expect(again.response.status).toBe(200);
    for (const watcher of [...watchers, again]) watcher.close();
    leave.abort();
    await eventually(async () => openReplyWatchers() === before);
  });
});

describe("GET /api/game-messages, a page at a time", () => {
  interface Page {
    messages: { id: number; exchange: number; role: string; content: string; created_at: string }[];
    next_before: number | null;
    next_page: string | null;
  }

  async function page(server: TestServer, account: TestAccount, path: string): Promise<Page> {
    const response = await apiRequest(server, account, path);
    expect(response.status).toBe(200);
    return (await response.json()) as Page;
  }

  const exchangesOf = (read: Page) => [...new Set(read.messages.map((message) => message.exchange))];
  const range = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, index) => first + index);

  test("answers the newest page to a client that sends only game_slug, and says where the older ones are, to the opening", async ({ server }) => {
    const player = await signUp(server);
    const exchanges = 120;
    await seedStory(server.connection.db, {
      userId: player.userId,
      gameSlug: TEST_GAME.slug,
      exchanges: [OPENING_EXCHANGE, ...range(2, exchanges).map((number) => ({ message: `Action ${number}`, reply: `Reply ${number}` }))],
    });
    const newest = await page(server, player, `/api/game-messages?game_slug=${TEST_GAME.slug}`);
    const size = GAME_MESSAGES_PAGE.default;
    expect(exchangesOf(newest)).toEqual(range(exchanges - size + 1, exchanges));
    expect(newest.messages.at(-2)).toMatchObject({ role: "user", content: `Action ${exchanges}`, exchange: exchanges });
    expect(newest.messages.at(-1)).toMatchObject({ role: "assistant", content: `Reply ${exchanges}`, created_at: expect.any(String) });
    expect(newest.next_before).toBe(exchanges - size + 1);
    expect(newest.next_page).toBe(`/api/game-messages?game_slug=${TEST_GAME.slug}&limit=${size}&before=${exchanges - size + 1}`);

    const older = await page(server, player, newest.next_page!);
    expect(exchangesOf(older)).toEqual(range(exchanges - 2 * size + 1, exchanges - size));
    const oldest = await page(server, player, older.next_page!);
    expect(exchangesOf(oldest)).toEqual(range(1, exchanges - 2 * size));
    expect(oldest.messages[0]).toMatchObject({ role: "user", content: OPENING_EXCHANGE.message });
    expect(oldest).toMatchObject({ next_before: null, next_page: null });
  });

  test("takes a limit up to the maximum and a cursor, and an empty story is an empty page", async ({ server }) => {
    const player = await signUp(server);
    expect(await page(server, player, `/api/game-messages?game_slug=${TEST_GAME.slug}`)).toEqual({
      messages: [],
      next_before: null,
      next_page: null,
    });
    await seedStory(server.connection.db, {
      userId: player.userId,
      gameSlug: TEST_GAME.slug,
      exchanges: range(1, 300).map((number) => ({ message: `Action ${number}`, reply: `Reply ${number}` })),
    });
    const small = await page(server, player, `/api/game-messages?game_slug=${TEST_GAME.slug}&limit=3&before=10`);
    expect(exchangesOf(small)).toEqual([7, 8, 9]);
    expect(small.next_before).toBe(7);
    const largest = await page(server, player, `/api/game-messages?game_slug=${TEST_GAME.slug}&limit=${GAME_MESSAGES_PAGE.max}`);
    expect(largest.messages).toHaveLength(2 * GAME_MESSAGES_PAGE.max);
    const first = await page(server, player, `/api/game-messages?game_slug=${TEST_GAME.slug}&before=1`);
    expect(first).toEqual({ messages: [], next_before: null, next_page: null });
  });

  test("refuses a limit or a cursor that is not one, with a sentence", async ({ server }) => {
    const player = await signUp(server);
    const cases: [string, string][] = [
      ["limit=0", '"limit" must be at least 1 exchange.'],
      [`limit=${GAME_MESSAGES_PAGE.max + 1}`, `"limit" can be at most ${GAME_MESSAGES_PAGE.max} exchanges a page.`],
      ["limit=ten", '"limit" must be a whole number of exchanges.'],
      ["limit=2.5", '"limit" must be a whole number of exchanges.'],
      ["before=0", '"before" must be the number of an exchange, from 1.'],
      ["before=-3", '"before" must be the number of an exchange, from 1.'],
      ["before=1e12", '"before" must be the number of an exchange.'],
    ];
    for (const [query, error] of cases) {
      const response = await apiRequest(server, player, `/api/game-messages?game_slug=${TEST_GAME.slug}&${query}`);
      expect(response.status, query).toBe(400);
      expect(await response.json()).toMatchObject({ error, code: "invalid_input" });
    }
  });
});
