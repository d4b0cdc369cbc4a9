import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { db } from "../db/database.server.ts";
import { gameMessages, replyRatings } from "../db/schema.ts";
import type { MessageRole } from "../lib/constants.ts";
import type { StatCheck } from "../lib/stat-checks.ts";
import { MATCH_END, MATCH_START, type StoryMessageView } from "../lib/story-view.ts";
import { ConflictError } from "./errors.server.ts";
import type { Story } from "./stories.server.ts";

/**
 * A story's messages (SPEC's game_messages). The live story is read by exchange number from the
 * index on (story, exchange, role): exchanges are numbered from 1 without gaps, so any window of
 * them — the newest, an older page, the model's context — is a range, never a sort of the story.
 * A branch's exchanges are its own and those it shares with the story it came from, read where
 * they are stored (app/db/functions/story_messages.sql, docs/decisions/063).
 */

/** A stored message as the server reads it: the play screen's view, with its time as a date. */
export interface StoryMessage extends Omit<StoryMessageView, "createdAt"> {
  createdAt: Date;
}

export interface NewStoryMessage {
  role: MessageRole;
  content: string;
}

/**
 * A column of liveMessages(…)'s rows, read and decoded as the table's own (drizzle selects only
 * columns of tables it sees in the query, and a function's rows are not one).
 */
function liveColumn<T extends AnyPgColumn>(column: T) {
  return sql<T["_"]["data"]>`${gameMessages}.${sql.identifier(column.name)}`.mapWith(column);
}

const columns = {
  id: liveColumn(gameMessages.id),
  exchange: liveColumn(gameMessages.exchange),
  role: liveColumn(gameMessages.role),
  content: liveColumn(gameMessages.content),
  status: liveColumn(gameMessages.status),
  version: liveColumn(gameMessages.version),
  versions: liveColumn(gameMessages.versions),
  createdAt: liveColumn(gameMessages.createdAt),
  roll: sql<StatCheck | null>`${gameMessages}.${sql.identifier(gameMessages.roll.name)}`,
};

/** The largest exchange number: a range open at its end. */
const LAST_EXCHANGE = 2_147_483_647;

/**
 * A story's live messages of exchanges first…last, wherever they are stored, under the table's own
 * name, so its columns are selected, filtered and ordered as the table's.
 */
function liveMessages(storyId: string, first = 1, last = LAST_EXCHANGE) {
  return sql`story_messages(${storyId}::uuid, ${first}::int, ${last}::int) as ${gameMessages}`;
}

/** In story order: by exchange, and a player's message ('user') before its reply ('assistant'). */
const storyOrder = [asc(gameMessages.exchange), desc(gameMessages.role)];

/** The messages of exchanges first…last (inclusive), in story order, each reply with its player's rating of the version shown. */
export async function storyMessagesBetween(storyId: string, first: number, last: number): Promise<StoryMessage[]> {
  if (last < first) return [];
  const rows = await db()
    .select({ ...columns, rating: replyRatings.rating, reason: replyRatings.reason })
    .from(liveMessages(storyId, first, last))
    .leftJoin(
      replyRatings,
      and(
        eq(replyRatings.messageId, gameMessages.id),
        eq(replyRatings.version, gameMessages.version),
        eq(replyRatings.userId, gameMessages.userId),
      ),
    )
    .orderBy(...storyOrder);
  return rows.map(({ rating, reason, ...message }) => ({ ...message, rating: rating ? { rating, reason } : null }));
}

/** What says whether a story has a new exchange's reply in flight, and which. */
type StoryInFlight = Pick<Story, "id" | "exchanges" | "activeTurnKind" | "activeReplyId">;

/**
 * The messages of exchanges first…last as the play screen shows them: with the reply of a new
 * exchange in flight, which is not stored until its turn ends (finish_turn.sql, docs/decisions/068),
 * as the empty "streaming" reply the screen fills from its live stream. It is placed as a stored
 * one was: after its player's message, of the same time. (A retried or continued reply is stored,
 * and read as "streaming".)
 */
export async function shownStoryMessages(story: StoryInFlight, first: number, last: number): Promise<StoryMessage[]> {
  const messages = await storyMessagesBetween(story.id, first, last);
  const { activeReplyId, exchanges } = story;
  if (activeReplyId === null || (story.activeTurnKind !== "send" && story.activeTurnKind !== "edit")) return messages;
  if (exchanges < first || exchanges > last || messages.some((message) => message.id === activeReplyId)) return messages;
  const asked = messages.at(-1);
  if (asked?.exchange !== exchanges || asked.role !== "user") return messages;
  const reply: StoryMessage = {
    id: activeReplyId,
    exchange: exchanges,
    role: "assistant",
    content: "",
    status: "streaming",
    version: 1,
    versions: 1,
    createdAt: asked.createdAt,
    roll: null,
    rating: null,
  };
  return [...messages, reply];
}

/** The newest `count` exchanges of a story, as the play screen shows them. */
export function latestStoryMessages(story: StoryInFlight, count: number): Promise<StoryMessage[]> {
  return shownStoryMessages(story, Math.max(1, story.exchanges - count + 1), story.exchanges);
}

/** Exchanges (a player's message and its reply) a page of GET /api/game-messages holds when `limit` is not given, and at most. */
export const GAME_MESSAGES_PAGE = { default: 50, max: 200 };

/**
 * A page of a story for docs/spec.md §7's GET, read by the index however long the story: the
 * `count` exchanges before exchange `before` (the newest when it is not given), in story order,
 * and the exchange the next, older page ends before (null when this page reaches the opening).
 */
export async function storyMessagesPage(
  story: StoryInFlight,
  { before, count }: { before?: number; count: number },
): Promise<{ messages: StoryMessage[]; olderBefore: number | null }> {
  const last = Math.min(story.exchanges, (before ?? story.exchanges + 1) - 1);
  const first = Math.max(1, last - count + 1);
  return { messages: await shownStoryMessages(story, first, last), olderBefore: last >= 1 && first > 1 ? first : null };
}

/**
 * The newest states stored with a story's replies up to exchange `through`, newest first: the
 * state the story is in, then the one before it (for what changed). Replies written before their
 * game tracked stats have none.
 */
export async function latestStoryStates(storyId: string, through: number, count: 1 | 2): Promise<unknown[]> {
  if (through < 1) return [];
  const rows = await db()
    .select({ state: sql<unknown>`state` })
    .from(sql`story_states(${storyId}::uuid, ${through}::int, ${count}::int)`);
  return rows.map((row) => row.state);
}

/**
 * Save Chat. Every exchange is stored as it happens, and the server is the only author of the Game
 * Master's replies (they are the model's context): Save Chat confirms that the messages on the
 * player's screen — the newest of the story — are the stored ones, and can neither add nor change
 * a message. Returns how many messages the story holds.
 */
export async function confirmSavedStory(storyId: string | undefined, shown: NewStoryMessage[]): Promise<number> {
  const stored = !storyId
    ? []
    : await db()
        .select({ role: columns.role, content: columns.content, total: sql<number>`count(*) over ()`.mapWith(Number) })
        .from(liveMessages(storyId))
        .orderBy(desc(gameMessages.exchange), asc(gameMessages.role))
        .limit(Math.max(shown.length, 1));
  const newest = stored.toReversed();
  const same =
    newest.length === shown.length &&
    newest.every((message, index) => message.role === shown[index]?.role && message.content === shown[index].content);
  if (!same) {
    throw new ConflictError("The story on this page is not the one saved on your account. Reload the page to see your saved story.");
  }
  return stored[0]?.total ?? 0;
}

/** A message that matches a search, with a line of context; the words found are between ⟦ and ⟧. */
export interface StoryMatch {
  exchange: number;
  role: MessageRole;
  snippet: string;
}

/**
 * Find in story: the messages of a story that contain the words searched for (as a search engine
 * reads them: any order, word forms alike, "quoted phrases" kept together), oldest first, from
 * the full-text index — however long the story.
 */
export async function findInStory(storyId: string, words: string, limit = 50): Promise<StoryMatch[]> {
  const query = sql`websearch_to_tsquery('english', ${words})`;
  return db()
    .select({
      exchange: columns.exchange,
      role: columns.role,
      snippet: sql<string>`ts_headline('english', ${gameMessages.content}, ${query}, ${`StartSel=${MATCH_START}, StopSel=${MATCH_END}, MaxWords=24, MinWords=10, MaxFragments=1`})`,
    })
    .from(liveMessages(storyId))
    .where(sql`${gameMessages.searchVector} @@ ${query}`)
    .orderBy(...storyOrder)
    .limit(limit);
}
