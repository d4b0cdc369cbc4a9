import { describe, expect } from "vitest";
import type { StoryMessageView, StoryView } from "#app/lib/story-view.ts";
import { STORY_OPENING_EXCHANGES, STORY_PAGE_EXCHANGES } from "#app/lib/story-view.ts";
import { signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { gameMasterTest as test } from "#tests/helpers/fixtures.ts";
import { postChat, readTurn, TEST_GAME } from "#tests/helpers/game-chat.ts";
import type { TestServer } from "#tests/helpers/server.ts";
import { seedStory } from "#tests/helpers/stories.ts";

/**
 * Issue 22: a long story is read in windows — the newest exchanges for the page, older and newer
 * pages by the index, and Find in story over the whole of it.
 */

test.override("serverEnv", { AI_MODEL: "fake" });

test.beforeAll(({ model }) => {
  model.script(() => ({ tokens: ["A ", "new ", "turn."], tokenDelayMs: 2 }));
});

function get<T>(server: TestServer, account: TestAccount, path: string): Promise<T> {
  return server.fetch(path, { headers: { Authorization: `Bearer ${account.token}` } }).then(async (response) => {
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  });
}

describe("a windowed story", () => {
  test("opens at its newest exchanges, and older pages return every message exactly once, in order, while new turns arrive", async ({
    server,
  }) => {
    const reader = await signUp(server);
    const storyId = await seedStory(server.connection.db, {
      userId: reader.userId,
      gameSlug: TEST_GAME.slug,
      exchanges: Array.from({ length: 200 }, (_, index) => ({ message: `move ${index + 1}`, reply: `reply ${index + 1}` })),
    });
    const newest = await get<StoryView>(server, reader, `/api/stories/${storyId}`);
    expect(newest.exchanges).toBe(200);
    expect(newest.messages).toHaveLength(STORY_OPENING_EXCHANGES * 2);
    expect(newest.messages[0]).toMatchObject({ exchange: 200 - STORY_OPENING_EXCHANGES + 1, role: "user" });
    expect(newest.messages.at(-1)).toMatchObject({ exchange: 200, role: "assistant" });

    // Scrolling up page by page while the player (in another tab) keeps playing.
    const read: StoryMessageView[] = [...newest.messages];
    let before = newest.messages[0]!.exchange;
    const playing = (async () => {
      for (let turn = 0; turn < 5; turn += 1)
        await readTurn(await postChat(server, reader, { message: `live ${turn}`, game_slug: TEST_GAME.slug }));
    })();
    while (before > 1) {
      const page = await get<{ messages: StoryMessageView[] }>(server, reader, `/api/stories/${storyId}?before=${before}`);
      read.unshift(...page.messages);
      before = page.messages[0]!.exchange;
    }
    await playing;
    expect(read.map((message) => `${message.exchange}:${message.role}`)).toEqual(
      Array.from({ length: 200 }, (_, index) => [`${index + 1}:user`, `${index + 1}:assistant`]).flat(),
    );
    expect(read.map((message) => message.content)).toEqual(
      Array.from({ length: 200 }, (_, index) => [`move ${index + 1}`, `reply ${index + 1}`]).flat(),
    );

    // The newer side: after exchange 200 come exactly the turns just played.
    const newer = await get<{ messages: StoryMessageView[] }>(server, reader, `/api/stories/${storyId}?after=200`);
    expect(newer.messages.filter((message) => message.role === "user").map((message) => message.content)).toEqual([
      "live 0",
      "live 1",
      "live 2",
      "live 3",
      "live 4",
    ]);
  });
});

describe("find in story", () => {
  test("finds a phrase from the first exchange of a 10,000-exchange story, and the window around it", async ({ server }) => {
    const keeper = await signUp(server);
    const storyId = await seedStory(server.connection.db, {
      userId: keeper.userId,
      gameSlug: TEST_GAME.slug,
      exchanges: Array.from({ length: 10_000 }, (_, index) =>
        index === 0
          ? { message: "I swear an oath beneath the drowned lighthouse.", reply: "The sea remembers every oath." }
          : { message: `I walk the quay, night ${index + 1}.`, reply: `The lanterns burn on night ${index + 1}.` },
      ),
    });
    const { matches } = await get<{ matches: { exchange: number; role: string; snippet: string }[] }>(
      server,
      keeper,
      `/api/stories/${storyId}/search?q=${encodeURIComponent('"drowned lighthouse"')}`,
    );
    expect(matches).toEqual([{ exchange: 1, role: "user", snippet: expect.stringContaining("⟦drowned⟧ ⟦lighthouse⟧") }]);

    const around = await get<{ messages: StoryMessageView[] }>(server, keeper, `/api/stories/${storyId}?around=1`);
    expect(around.messages[0]).toMatchObject({ exchange: 1, content: "I swear an oath beneath the drowned lighthouse." });
    expect(around.messages).toHaveLength(STORY_PAGE_EXCHANGES * 2);

    // Word forms match ("oaths" finds "oath"), other players' stories never do.
    const forms = await get<{ matches: unknown[] }>(server, keeper, `/api/stories/${storyId}/search?q=oaths`);
    expect(forms.matches).toHaveLength(2);
    const stranger = await signUp(server);
    const refused = await server.fetch(`/api/stories/${storyId}/search?q=oath`, { headers: { Authorization: `Bearer ${stranger.token}` } });
    expect(refused.status).toBe(404);
    const empty = await server.fetch(`/api/stories/${storyId}/search?q=%20`, { headers: { Authorization: `Bearer ${keeper.token}` } });
    expect(empty.status).toBe(400);
  });
});
