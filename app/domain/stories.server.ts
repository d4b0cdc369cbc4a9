import { and, desc, eq, gt, sql, type SQL } from "drizzle-orm";
import { db } from "../db/database.server.ts";
import { games, stories } from "../db/schema.ts";
import type { TurnKind } from "../lib/constants.ts";
import { STORY_REFUSALS } from "../lib/play-texts.ts";
import { STORY_OPENING_EXCHANGES, type StoryMessageView, type StoryView } from "../lib/story-view.ts";
import { resolveState, type TrackedStat } from "../lib/tracked-stats.ts";
import { latestStoryMessages, latestStoryStates, type StoryMessage } from "./game-messages.server.ts";
import { trackedStatsOf } from "./games.server.ts";
import { DomainError, NotFoundError } from "./errors.server.ts";
import { recordModelCallStatement, type ModelCall } from "./game-master/model-calls.server.ts";

/**
 * A player's stories and every change made to one (the functions of app/db/functions/: each is one
 * atomic call, serialised per story, announced to the player's other tabs). A story has at most
 * one Game Master call in flight; its lease is renewed while the reply is written, and a call
 * whose lease ran out — its instance died — is settled by whoever finds it (refunded when it
 * had written nothing).
 */

export interface Story {
  id: string;
  userId: string;
  gameSlug: string;
  exchanges: number;
  revision: number;
  activeTurnId: string | null;
  activeTurnKind: TurnKind | null;
  activeReplyId: number | null;
  activeTurnLeaseUntil: Date | null;
  pinnedFacts: string;
  authorNote: string;
  summary: string;
  summaryThrough: number;
  /** A branch's story it was branched from, and the exchange it shares up to (docs/decisions/063). */
  parentStoryId: string | null;
  forkExchange: number;
  /** The published version of another player's world the story plays; null: the game as it is (docs/decisions/065). */
  worldVersion: number | null;
}

const storyColumns = {
  id: stories.id,
  userId: stories.userId,
  gameSlug: stories.gameSlug,
  exchanges: stories.exchanges,
  revision: stories.revision,
  activeTurnId: stories.activeTurnId,
  activeTurnKind: stories.activeTurnKind,
  activeReplyId: stories.activeReplyId,
  activeTurnLeaseUntil: stories.activeTurnLeaseUntil,
  pinnedFacts: stories.pinnedFacts,
  authorNote: stories.authorNote,
  summary: stories.summary,
  summaryThrough: stories.summaryThrough,
  parentStoryId: stories.parentStoryId,
  forkExchange: stories.forkExchange,
  worldVersion: stories.worldVersion,
};

/**
 * How long a call in flight stays its instance's without a heartbeat (game-master/turn-leases.server.ts
 * renews it every few seconds): with the sweep, a dead instance's turns are settled within 30 seconds.
 */
export const TURN_LEASE_SECONDS = 20;

/** The player's current story in a game: the one played most recently. */
export async function findLatestStory(userId: string, gameSlug: string): Promise<Story | undefined> {
  const [story] = await db()
    .select(storyColumns)
    .from(stories)
    .where(and(eq(stories.userId, userId), eq(stories.gameSlug, gameSlug)))
    .orderBy(desc(stories.updatedAt), desc(stories.createdAt))
    .limit(1);
  return story;
}

/** One of the player's stories; another player's is as unknown as one that does not exist. */
export async function findStory(userId: string, storyId: string): Promise<Story> {
  const [story] = await db()
    .select(storyColumns)
    .from(stories)
    .where(and(eq(stories.id, storyId), eq(stories.userId, userId)))
    .limit(1);
  if (!story) throw new NotFoundError(STORY_REFUSALS.missing);
  return story;
}

/** One of the player's stories in a game, by its id; undefined when there is no such story (or the id is malformed). */
export async function findStoryOfGame(userId: string, gameSlug: string, storyId: string): Promise<Story | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(storyId)) return undefined;
  const [story] = await db()
    .select(storyColumns)
    .from(stories)
    .where(and(eq(stories.id, storyId), eq(stories.userId, userId), eq(stories.gameSlug, gameSlug)))
    .limit(1);
  return story;
}

/** A story's call in flight whose instance stopped renewing its lease is finished (and refunded) now. */
export async function settleAbandonedTurn(story: Story): Promise<Story> {
  if (!story.activeTurnId || !story.activeTurnLeaseUntil || story.activeTurnLeaseUntil.getTime() > Date.now()) return story;
  await db()
    .select({ outcome: sql<string>`outcome` })
    .from(sql`finish_turn(${story.id}::uuid, ${story.activeTurnId}::uuid, '', null, null)`);
  const [settled] = await db().select(storyColumns).from(stories).where(eq(stories.id, story.id));
  return settled ?? story;
}

type ChangeOutcome = "missing" | "busy" | "stale" | "lost" | "no_version" | "branched" | "undone" | "chosen" | "cleared";

/** The refusals every story change shares, as typed errors. */
export function refuseStoryChange(outcome: string): never {
  switch (outcome) {
    case "missing":
      throw new NotFoundError(STORY_REFUSALS.missing);
    case "busy":
      throw new DomainError("story_busy", STORY_REFUSALS.busy);
    case "stale":
      throw new DomainError("story_changed", STORY_REFUSALS.stale);
    case "lost":
      // A page that offered Retry or Continue did not know the reply was lost: it reloads the story.
      throw new DomainError("story_changed", STORY_REFUSALS.lost);
    case "no_version":
      throw new DomainError("invalid_input", STORY_REFUSALS.noVersion);
    case "branched":
      throw new DomainError("conflict", STORY_REFUSALS.branched);
    default:
      throw new Error(`A story change ended with an unexpected outcome: ${outcome}.`);
  }
}

/** Calls one of the story's change functions (app/db/functions/); anything but `done` is refused. */
async function changeStory(call: SQL, done: ChangeOutcome): Promise<{ revision: number; deleted: number }> {
  const [row] = await db()
    .select({ outcome: sql<ChangeOutcome>`outcome`, revision: sql<number>`revision`, deleted: sql<number>`(to_jsonb(change) ->> 'deleted')::int` })
    .from(sql`${call} as change`);
  if (!row) throw new Error("A story change returned nothing.");
  if (row.outcome !== done) refuseStoryChange(row.outcome);
  return { revision: row.revision, deleted: row.deleted };
}

/** Undo: the latest exchange (`exchange`, as the player saw it) leaves the story. Free, and nothing is refunded. */
export async function undoLatestExchange(userId: string, storyId: string, exchange: number): Promise<{ revision: number }> {
  const { revision } = await changeStory(sql`undo_story_exchange(${storyId}::uuid, ${userId}, ${exchange}::int)`, "undone");
  return { revision };
}

/** Previous / Next version of the latest reply: the story continues from the one chosen. */
export async function chooseReplyVersion(userId: string, storyId: string, exchange: number, version: number): Promise<{ revision: number }> {
  const { revision } = await changeStory(sql`choose_reply_version(${storyId}::uuid, ${userId}, ${exchange}::int, ${version}::int)`, "chosen");
  return { revision };
}

/** Start Over: the story's messages are deleted (docs/spec.md §8); returns how many were in it. */
export function clearStory(userId: string, storyId: string): Promise<{ deleted: number; revision: number }> {
  return changeStory(sql`clear_story(${storyId}::uuid, ${userId})`, "cleared");
}

/**
 * A story as the play screen shows it: its newest exchanges, its state, and whether a call is in
 * flight. A caller that has read the game's tracked stats already passes them, so they are not read again.
 */
/**
 * Update to version N (docs/decisions/065): the player's story of another player's world plays
 * the world's latest published version from its next turn on. False when there is none newer.
 */
export async function updateStoryWorldVersion(userId: string, storyId: string): Promise<boolean> {
  const updated = await db()
    .update(stories)
    .set({ worldVersion: games.publishedVersion, updatedAt: new Date() })
    .from(games)
    .where(
      and(
        eq(stories.id, storyId),
        eq(stories.userId, userId),
        eq(games.slug, stories.gameSlug),
        eq(games.isActive, true),
        gt(games.publishedVersion, stories.worldVersion),
      ),
    )
    .returning({ id: stories.id });
  return updated.length > 0;
}

export async function storyView(story: Story, trackedStats?: TrackedStat[]): Promise<StoryView> {
  const [messages, stats, [values, previous]] = await Promise.all([
    latestStoryMessages(story, STORY_OPENING_EXCHANGES),
    trackedStats ?? trackedStatsOf(story.gameSlug),
    trackedStats?.length === 0 ? [] : latestStoryStates(story.id, story.exchanges, 2),
  ]);
  return {
    id: story.id,
    revision: story.revision,
    exchanges: story.exchanges,
    busy: story.activeTurnId !== null,
    messages: messages.map(messageView),
    memory: { pinnedFacts: story.pinnedFacts, authorNote: story.authorNote, summary: story.summary },
    state: stats.length > 0 ? { stats, values: resolveState(stats, values), previous: resolveState(stats, previous) } : null,
  };
}

export function messageView(message: StoryMessage): StoryMessageView {
  return { ...message, createdAt: message.createdAt.toISOString() };
}

export interface MemoryChange {
  pinnedFacts: string;
  authorNote: string;
  summary: string;
}

/** Save memory: the player's pinned facts, author's note and (corrected) story so far. Free. */
export async function saveStoryMemory(userId: string, storyId: string, memory: MemoryChange): Promise<MemoryChange> {
  const saved = await db()
    .update(stories)
    .set(memory)
    .where(and(eq(stories.id, storyId), eq(stories.userId, userId)))
    .returning({ pinnedFacts: stories.pinnedFacts, authorNote: stories.authorNote, summary: stories.summary });
  const [row] = saved;
  if (!row) throw new NotFoundError(STORY_REFUSALS.missing);
  return row;
}

/**
 * The story so far, moved on: stored only if no one else moved it meanwhile (the summary it
 * extends still ends at `from`), so two refreshes never overwrite each other.
 */
/** Where a story's summary stands now (for the background summary, which acts on no player's behalf). */
export async function storySummary(storyId: string): Promise<Pick<Story, "summary" | "summaryThrough"> | undefined> {
  const [story] = await db()
    .select({ summary: stories.summary, summaryThrough: stories.summaryThrough })
    .from(stories)
    .where(eq(stories.id, storyId));
  return story;
}

/**
 * The story so far moved on from exchange `from` to `through`, unless another refresh did first;
 * the model call that wrote it is recorded in the same commit either way (it was paid for).
 */
export async function advanceStorySummary(
  storyId: string,
  { from, through, summary }: { from: number; through: number; summary: string },
  call?: ModelCall,
) {
  return db().transaction(async (tx) => {
    const advanced = await tx
      .update(stories)
      .set({ summary, summaryThrough: through })
      .where(and(eq(stories.id, storyId), eq(stories.summaryThrough, from)))
      .returning({ id: stories.id });
    if (call) await tx.execute(recordModelCallStatement(storyId, call));
    return advanced.length > 0;
  });
}
