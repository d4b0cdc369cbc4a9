import { and, asc, desc, eq, lt, sql, type AnyColumn, type Placeholder, type SQL } from "drizzle-orm";
import { preparedQuery } from "../db/prepared.server.ts";
import { db } from "../db/database.server.ts";
import { gameMessages } from "../db/schema.ts";
import type { MessageRole } from "../lib/constants.ts";
import { ConflictError } from "./errors.server.ts";
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

/** What a model's context reads of a message. */
const contextColumns = { id: gameMessages.id, role: gameMessages.role, content: gameMessages.content };

/** Rows as one JSON array of [id, role, content]: parsed natively, not mapped row by row. */
type MessageTuples = [id: number, role: MessageRole, content: string][];

function messageTuples(rows: { id: SQL.Aliased | AnyColumn; role: SQL.Aliased | AnyColumn; content: SQL.Aliased | AnyColumn }) {
  return sql`coalesce(json_agg(json_build_array(${rows.id}, ${rows.role}, ${rows.content}) order by ${rows.id}), '[]')::text`;
}

/**
 * A story as its model context reads it, in one statement and one row: the opening exchange, and
 * the newest messages — at most `limit`, and only those the context could still hold after the
 * newer ones (fewer than `maxCharacters` in the newer messages), so a story of long replies does
 * not send hundreds of rows that the budget then drops — with how many rows that page had
 * before the cut.
 */
const storyForContextQuery = preparedQuery((database) => {
  const story = conversation(sql.placeholder("userId"), sql.placeholder("gameSlug"));
  const opening = database.select(contextColumns).from(gameMessages).where(story).orderBy(asc(gameMessages.id)).limit(2).as("opening");
  const page = database
    .select(contextColumns)
    .from(gameMessages)
    .where(story)
    .orderBy(desc(gameMessages.id))
    .limit(sql.placeholder("limit"))
    .as("page");
  const measured = database
    .select({
      id: page.id,
      role: page.role,
      content: page.content,
      newerCharacters:
        sql<number>`coalesce(sum(length(${page.content})) over (order by ${page.id} desc rows between unbounded preceding and 1 preceding), 0)`.as(
          "newer_characters",
        ),
      pageRows: sql<number>`count(*) over ()`.as("page_rows"),
    })
    .from(page)
    .as("measured");
  return database
    .select({
      opening: sql<string>`(select ${messageTuples(opening)} from ${opening})`,
      recent: sql<string>`${messageTuples(measured)}`,
      pageRows: sql<number>`coalesce(max(${measured.pageRows}), 0)::int`,
    })
    .from(measured)
    .where(lt(measured.newerCharacters, sql.placeholder("maxCharacters")))
    .prepare("story_for_context");
});

/**
 * What the model's context may draw on: the opening exchange and the newest messages, at most
 * `maxMessages` of them and no more than `maxCharacters` can fill (a long story is not loaded
 * whole on every turn).
 */
export async function loadStoredConversation(
  userId: string,
  gameSlug: string,
  { maxMessages, maxCharacters }: { maxMessages: number; maxCharacters: number },
): Promise<StoredConversation> {
  const [row] = await storyForContextQuery().execute({ userId, gameSlug, limit: maxMessages, maxCharacters });
  const opening = JSON.parse(row?.opening ?? "[]") as MessageTuples;
  const recent = JSON.parse(row?.recent ?? "[]") as MessageTuples;
  const pageRows = row?.pageRows ?? 0;
  const oldestRecent = recent[0]?.[0] ?? Number.POSITIVE_INFINITY;
  const head = opening.filter(([id]) => id < oldestRecent);
  // A page as long as the limit may not reach back to the opening; a shorter one holds the whole
  // story, so the rows it left out beyond the opening's are the messages in between.
  const hasGap = head.length > 0 && (pageRows === maxMessages || pageRows - recent.length > head.length);
  // After a gap, a reply whose player's message was left out would read as the answer to another.
  const firstAction = hasGap ? recent.findIndex(([, role]) => role === "user") : 0;
  const kept = firstAction < 0 ? [] : recent.slice(firstAction);
  return {
    messages: [...head, ...kept].map(([, role, content]) => ({ role, content })),
    hasGap,
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

/**
 * Save Chat. Every exchange is stored as it happens, and the server is the only author of the Game
 * Master's replies (they are the model's context): Save Chat confirms that the story on the
 * player's screen is the stored one, and can neither add nor change a message.
 */
export async function confirmSavedStory(userId: string, gameSlug: string, shown: NewStoryMessage[]): Promise<number> {
  const stored = await listGameMessages(userId, gameSlug);
  const same =
    stored.length === shown.length &&
    stored.every((message, index) => message.role === shown[index]?.role && message.content === shown[index].content);
  if (!same) {
    throw new ConflictError("The story on this page is not the one saved on your account. Reload the page to see your saved story.");
  }
  return stored.length;
}

/** Start Over: the story of this player in this game is deleted. */
export async function deleteGameMessages(userId: string, gameSlug: string) {
  const deleted = await db().delete(gameMessages).where(conversation(userId, gameSlug)).returning({ id: gameMessages.id });
  return deleted.length;
}
