import { expect } from "vitest";
import type { Database } from "#app/db/client.server.ts";
import { gameMessages, stories } from "#app/db/schema.ts";
import type { StoryView } from "#app/lib/story-view.ts";
import { apiRequest, signUp, type TestAccount } from "./accounts.ts";
import { postChat, readTurn, TEST_GAME } from "./game-chat.ts";
import type { TestServer } from "./server.ts";

export interface SeededExchange {
  message: string;
  reply: string;
}

/**
 * A story written straight into the database, as if played: one story row and its exchanges,
 * numbered from 1 (inserted in batches, so stories of thousands of exchanges stay quick).
 */
export async function seedStory(db: Database, { userId, gameSlug, exchanges }: { userId: string; gameSlug: string; exchanges: SeededExchange[] }) {
  const [story] = await db.insert(stories).values({ userId, gameSlug, exchanges: exchanges.length }).returning({ id: stories.id });
  if (!story) throw new Error("The story could not be seeded.");
  const rows = exchanges.flatMap(({ message, reply }, index) => [
    { userId, gameSlug, storyId: story.id, exchange: index + 1, role: "user" as const, content: message },
    { userId, gameSlug, storyId: story.id, exchange: index + 1, role: "assistant" as const, content: reply },
  ]);
  for (let start = 0; start < rows.length; start += 2000) await db.insert(gameMessages).values(rows.slice(start, start + 2000));
  return story.id;
}

/** The opening exchange of a story already played: the next turn is a paid one (the opening scene is free). */
export const OPENING_EXCHANGE: SeededExchange = { message: "I am ready.", reply: "The story begins at the harbour." };

/** Begins the player's story in a game, as if they had played its free opening scene. */
export function beginStory(server: { connection: { db: Database } }, account: { userId: string }, gameSlug: string) {
  return seedStory(server.connection.db, { userId: account.userId, gameSlug, exchanges: [OPENING_EXCHANGE] });
}

/** A story as its player's page reads it (`GET /api/stories/{id}`), which must answer 200. */
export async function storyOf(server: TestServer, account: TestAccount, storyId: string): Promise<StoryView> {
  const response = await apiRequest(server, account, `/api/stories/${storyId}`);
  expect(response.status).toBe(200);
  return (await response.json()) as StoryView;
}

/** A new player with a begun story of the tests' game and `turns` paid exchanges after its opening. */
export async function playingStory(server: TestServer, turns = 1) {
  const player = await signUp(server);
  const storyId = await beginStory(server, player, TEST_GAME.slug);
  for (let turn = 0; turn < turns; turn += 1) {
    expect((await readTurn(await postChat(server, player, { message: `Action ${turn + 1}`, game_slug: TEST_GAME.slug }))).done).toBe(true);
  }
  return { player, storyId };
}
