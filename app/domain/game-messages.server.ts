import { and, asc, between, desc, eq, gte, isNotNull, isNull, lt, lte, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { preparedQuery } from "../db/prepared.server.ts";
import { db } from "../db/database.server.ts";
import { gameMessages } from "../db/schema.ts";
import type { MessageRole } from "../lib/constants.ts";
import { MATCH_END, MATCH_START, type StoryMessageView } from "../lib/story-view.ts";
import { ConflictError } from "./errors.server.ts";
import type { StoredConversation } from "./game-master/context.server.ts";
import type { Story } from "./stories.server.ts";

/**
 * A story's messages (SPEC's game_messages). The live story is read by exchange number from the
 * index on (story, exchange, role): exchanges are numbered from 1 without gaps, so any window of
 * them — the newest, an older page, the model's context — is a range, never a sort of the story.
 */

/** A stored message as the server reads it: the play screen's view, with its time as a date. */
export interface StoryMessage extends Omit<StoryMessageView, "createdAt"> {
  createdAt: Date;
}

export interface NewStoryMessage {
  role: MessageRole;
  content: string;
}

const columns = {
  id: gameMessages.id,
  exchange: gameMessages.exchange,
  role: gameMessages.role,
  content: gameMessages.content,
  status: gameMessages.status,
  version: gameMessages.version,
  versions: gameMessages.versions,
  createdAt: gameMessages.createdAt,
};

function liveStory(storyId: string) {
  return and(eq(gameMessages.storyId, storyId), isNull(gameMessages.removedAt));
}

/** In story order: by exchange, and a player's message ('user') before its reply ('assistant'). */
const storyOrder = [asc(gameMessages.exchange), desc(gameMessages.role)];

/** The messages of exchanges first…last (inclusive), in story order. */
export async function storyMessagesBetween(storyId: string, first: number, last: number): Promise<StoryMessage[]> {
  if (last < first) return [];
  return db()
    .select(columns)
    .from(gameMessages)
    .where(and(liveStory(storyId), between(gameMessages.exchange, first, last)))
    .orderBy(...storyOrder);
}

/** The newest `count` exchanges of a story. */
export function latestStoryMessages(story: Pick<Story, "id" | "exchanges">, count: number): Promise<StoryMessage[]> {
  return storyMessagesBetween(story.id, Math.max(1, story.exchanges - count + 1), story.exchanges);
}

/** The whole live story (docs/spec.md §7's GET): for the API and exports, not for the play page. */
export async function listStoryMessages(storyId: string): Promise<StoryMessage[]> {
  return db()
    .select(columns)
    .from(gameMessages)
    .where(liveStory(storyId))
    .orderBy(...storyOrder);
}

/** Rows as one JSON array of [exchange, role, content]: parsed natively, not mapped row by row. */
type MessageTuples = [exchange: number, role: MessageRole, content: string][];

function messageTuples(rows: { exchange: SQL.Aliased | AnyColumn; role: SQL.Aliased | AnyColumn; content: SQL.Aliased | AnyColumn }) {
  return sql`coalesce(json_agg(json_build_array(${rows.exchange}, ${rows.role}, ${rows.content}) order by ${rows.exchange}, ${rows.role} desc), '[]')::text`;
}

/**
 * What a model's context reads of a story, in one statement: the opening exchange, and the newest
 * exchanges before `before` — at most `maxExchanges`, and only those the context could still hold
 * after the newer ones (fewer than `maxCharacters` in the newer messages), so a story of long
 * replies does not send rows that the budget then drops.
 */
const storyForContextQuery = preparedQuery((database) => {
  const story = and(eq(gameMessages.storyId, sql.placeholder("storyId")), isNull(gameMessages.removedAt));
  const contextColumns = { exchange: gameMessages.exchange, role: gameMessages.role, content: gameMessages.content };
  const opening = database
    .select(contextColumns)
    .from(gameMessages)
    .where(and(story, eq(gameMessages.exchange, 1)))
    .as("opening");
  const page = database
    .select(contextColumns)
    .from(gameMessages)
    .where(and(story, gte(gameMessages.exchange, sql.placeholder("firstExchange")), lt(gameMessages.exchange, sql.placeholder("before"))))
    .as("page");
  const measured = database
    .select({
      exchange: page.exchange,
      role: page.role,
      content: page.content,
      newerCharacters:
        sql<number>`coalesce(sum(length(${page.content})) over (order by ${page.exchange} desc, ${page.role} rows between unbounded preceding and 1 preceding), 0)`.as(
          "newer_characters",
        ),
    })
    .from(page)
    .as("measured");
  return database
    .select({
      opening: sql<string>`(select ${messageTuples(opening)} from ${opening})`,
      recent: sql<string>`${messageTuples(measured)}`,
    })
    .from(measured)
    .where(lt(measured.newerCharacters, sql.placeholder("maxCharacters")))
    .prepare("story_for_context");
});

/**
 * What the model's context may draw on for a call about exchange `before` (the exchanges before
 * it): the opening exchange and as many of the newest as `maxExchanges` and `maxCharacters` allow.
 */
export async function loadStoryContext(
  storyId: string,
  before: number,
  { maxExchanges, maxCharacters }: { maxExchanges: number; maxCharacters: number },
): Promise<StoredConversation> {
  if (before <= 1) return { messages: [], hasGap: false };
  const firstExchange = Math.max(1, before - maxExchanges);
  const [row] = await storyForContextQuery().execute({ storyId, firstExchange, before, maxCharacters });
  const opening = JSON.parse(row?.opening ?? "[]") as MessageTuples;
  const recent = JSON.parse(row?.recent ?? "[]") as MessageTuples;
  // The character budget may have cut an exchange in two: a reply whose player's message was left
  // out would read as the answer to another.
  const firstAction = recent.findIndex(([, role]) => role === "user");
  const kept = firstAction < 0 ? [] : recent.slice(firstAction);
  const oldestKept = kept[0]?.[0] ?? before;
  const head = opening.filter(([exchange]) => exchange < oldestKept);
  return {
    messages: [...head, ...kept].map(([, role, content]) => ({ role, content })),
    hasGap: oldestKept > 2,
  };
}

/**
 * The newest states stored with a story's replies up to exchange `through`, newest first: the
 * state the story is in, then the one before it (for what changed). Replies written before their
 * game tracked stats have none.
 */
export async function latestStoryStates(storyId: string, through: number, count: 1 | 2): Promise<unknown[]> {
  if (through < 1) return [];
  const rows = await db()
    .select({ state: gameMessages.state })
    .from(gameMessages)
    .where(and(liveStory(storyId), eq(gameMessages.role, "assistant"), lte(gameMessages.exchange, through), isNotNull(gameMessages.state)))
    .orderBy(desc(gameMessages.exchange))
    .limit(count);
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
        .select({ role: gameMessages.role, content: gameMessages.content, total: sql<number>`count(*) over ()`.mapWith(Number) })
        .from(gameMessages)
        .where(liveStory(storyId))
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
      exchange: gameMessages.exchange,
      role: gameMessages.role,
      snippet: sql<string>`ts_headline('english', ${gameMessages.content}, ${query}, ${`StartSel=${MATCH_START}, StopSel=${MATCH_END}, MaxWords=24, MinWords=10, MaxFragments=1`})`,
    })
    .from(gameMessages)
    .where(and(liveStory(storyId), sql`${gameMessages.searchVector} @@ ${query}`))
    .orderBy(...storyOrder)
    .limit(limit);
}
