import { and, asc, desc, eq, sql, type Placeholder } from "drizzle-orm";
import { preparedQuery } from "../db/prepared.server.ts";
import { db } from "../db/database.server.ts";
import { gameMessages } from "../db/schema.ts";
import type { MessageRole } from "../lib/constants.ts";
import type { StoredConversation } from "./game-master/context.server.ts";

/**
 * The stored story of one player in one game (SPEC's game_messages). Rows replay in the order
 * they were written (by id): the two rows of an exchange are written together.
 */

export interface StoryMessage {
  id: number;
  role: MessageRole;
  content: string;
  createdAt: Date;
}

export interface NewStoryMessage {
  role: MessageRole;
  content: string;
  createdAt?: Date;
}

function conversation(userId: string | Placeholder, gameSlug: string | Placeholder) {
  return and(eq(gameMessages.userId, userId), eq(gameMessages.gameSlug, gameSlug));
}

const columns = {
  id: gameMessages.id,
  role: gameMessages.role,
  content: gameMessages.content,
  createdAt: gameMessages.createdAt,
};

export async function listGameMessages(userId: string, gameSlug: string): Promise<StoryMessage[]> {
  return db().select(columns).from(gameMessages).where(conversation(userId, gameSlug)).orderBy(asc(gameMessages.id));
}

/** A page of one story, from its first message or from its newest. */
function storyPageQuery(from: "first" | "newest") {
  return preparedQuery((database) =>
    database
      .select(columns)
      .from(gameMessages)
      .where(conversation(sql.placeholder("userId"), sql.placeholder("gameSlug")))
      .orderBy(from === "first" ? asc(gameMessages.id) : desc(gameMessages.id))
      .limit(sql.placeholder("limit"))
      .prepare(`story_page_from_${from}`),
  );
}

const firstPageQuery = storyPageQuery("first");
const newestPageQuery = storyPageQuery("newest");

/**
 * What the model's context may draw on: the opening exchange and the newest `recentLimit`
 * messages (a long story is not loaded whole on every turn).
 */
export async function loadStoredConversation(userId: string, gameSlug: string, recentLimit: number): Promise<StoredConversation> {
  const [opening, newestFirst] = await Promise.all([
    firstPageQuery().execute({ userId, gameSlug, limit: 2 }),
    newestPageQuery().execute({ userId, gameSlug, limit: recentLimit }),
  ]);
  const recent = newestFirst.reverse();
  const oldestRecent = recent[0]?.id ?? Number.POSITIVE_INFINITY;
  const head = opening.filter((message) => message.id < oldestRecent);
  return {
    messages: [...head, ...recent].map(({ role, content }) => ({ role, content })),
    // A full page of recent rows plus older opening rows: messages in between may be missing.
    hasGap: recent.length === recentLimit && head.length > 0,
  };
}

/** One completed exchange, both rows at once: the player's message and the reply. */
export async function storeExchange({
  userId,
  gameSlug,
  message,
  reply,
  sentAt,
}: {
  userId: string;
  gameSlug: string;
  message: string;
  reply: string;
  sentAt: Date;
}) {
  // One statement writes both rows, or neither.
  await db()
    .insert(gameMessages)
    .values([
      { userId, gameSlug, role: "user", content: message, createdAt: sentAt },
      { userId, gameSlug, role: "assistant", content: reply, createdAt: new Date() },
    ]);
}

/** Save Chat: the stored story becomes exactly `messages`, in one transaction. */
export async function replaceGameMessages(userId: string, gameSlug: string, messages: NewStoryMessage[]) {
  const now = Date.now();
  await db().transaction(async (tx) => {
    await tx.delete(gameMessages).where(conversation(userId, gameSlug));
    if (messages.length === 0) return;
    await tx.insert(gameMessages).values(
      messages.map((message) => ({
        userId,
        gameSlug,
        role: message.role,
        content: message.content,
        // A client's clock may be wrong; a time in the future is not kept.
        createdAt: message.createdAt && message.createdAt.getTime() <= now ? message.createdAt : new Date(now),
      })),
    );
  });
}

/** Start Over: the story of this player in this game is deleted. */
export async function deleteGameMessages(userId: string, gameSlug: string) {
  const deleted = await db().delete(gameMessages).where(conversation(userId, gameSlug)).returning({ id: gameMessages.id });
  return deleted.length;
}
