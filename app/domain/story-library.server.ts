import { and, asc, desc, eq, gt, isNull, lte, notExists, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Transaction } from "../db/client.server.ts";
import { db } from "../db/database.server.ts";
import { env } from "../env.server.ts";
import { gameMessages, games, replyVersions, stories } from "../db/schema.ts";
import type { MessageStatus } from "../lib/constants.ts";
import { PLAY_TEXTS, STORY_REFUSALS } from "../lib/play-texts.ts";
import { rollLine, type StatCheck } from "../lib/stat-checks.ts";
import type { StoryExportFormat } from "../lib/story-view.ts";
import { DomainError, NotFoundError } from "./errors.server.ts";
import { consumeRateLimit, rateLimitRefusal, releaseRateLimit, type RateLimitRule } from "./rate-limit.server.ts";
import { findStory, type Story } from "./stories.server.ts";

/**
 * A player's library of stories (My Stories): several per game, each with a title (from its
 * opening until the player renames it), kept until deleted, and exported whole as Markdown or JSON.
 */

/** How much of a story's lines a library card shows. */
const LINE_CHARACTERS = 240;

export interface StorySummary {
  id: string;
  gameSlug: string;
  gameTitle: string;
  /** What the game's cover is drawn from (app/lib/covers.ts). */
  gameIcon: string;
  gameCoverHash: string | null;
  title: string;
  exchanges: number;
  createdAt: Date;
  updatedAt: Date;
  /** The end of the latest reply, for the card. */
  latestLines: string;
  /** A branch's story it was branched from, and the exchange it shares up to (docs/decisions/063). */
  parentStoryId: string | null;
  forkExchange: number;
}

/** A story's own title, or the first sentence of its opening scene, or the game's name. */
function titleOf(story: { title: string | null; opening: string | null; gameTitle: string }) {
  if (story.title) return story.title;
  const sentence = story.opening?.replace(/\s+/g, " ").match(/^[^.!?]{8,}[.!?]/)?.[0] ?? story.opening?.slice(0, 80);
  const plain = sentence?.replace(/[*_`#>]/g, "").trim();
  if (!plain) return `A new story in ${story.gameTitle}`;
  return plain.length > 80 ? `${plain.slice(0, 79).trimEnd()}…` : plain;
}

/** The reply of one exchange of the listed story, its own or shared with the story it was branched from. */
function replyAt(exchange: SQL) {
  return sql<string | null>`(select reply.content from story_messages(${stories.id}, ${exchange}, ${exchange}) as reply
    where reply.role = 'assistant')`;
}

type SQL = ReturnType<typeof sql>;

/** Every story of a player (or just one), the most recently played first (each line read by the index). */
export async function listStories(userId: string, only?: string): Promise<StorySummary[]> {
  const rows = await db()
    .select({
      id: stories.id,
      gameSlug: stories.gameSlug,
      gameTitle: games.title,
      gameIcon: games.icon,
      gameCoverHash: games.coverHash,
      title: stories.title,
      exchanges: stories.exchanges,
      createdAt: stories.createdAt,
      updatedAt: stories.updatedAt,
      parentStoryId: stories.parentStoryId,
      forkExchange: stories.forkExchange,
      opening: sql<string | null>`left(${replyAt(sql`1`)}, 400)`,
      latest: sql<string | null>`right(${replyAt(sql`${stories.exchanges}`)}, ${LINE_CHARACTERS * 5})`,
    })
    .from(stories)
    .innerJoin(games, eq(games.slug, stories.gameSlug))
    .where(and(eq(stories.userId, userId), only ? eq(stories.id, only) : undefined))
    .orderBy(desc(stories.updatedAt))
    .limit(500);
  return rows.map(({ opening, latest, ...story }) => ({
    ...story,
    // A branch shares its opening, so the title drawn from it says where the branch goes its own way.
    title:
      story.title ??
      `${titleOf({ title: null, opening, gameTitle: story.gameTitle })}${story.parentStoryId ? ` (branch from turn ${story.forkExchange})` : ""}`,
    latestLines: latestLines(latest ?? ""),
  }));
}

/**
 * The last lines of the story for its card: the reply's last paragraph of prose — not its list of
 * choices, the question that leads into them, or a line of stats — cut at a word.
 */
function latestLines(reply: string) {
  const paragraphs = reply
    .split(/\n\s*\n/)
    .map((paragraph) =>
      paragraph
        .replace(/[*_`#>]/g, "")
        .replace(/\s+/g, " ")
        .trim(),
    )
    .filter((paragraph) => paragraph && !/^\d{1,2}[.)]\s/.test(paragraph) && !paragraph.endsWith(":") && !/\d+ · .*\d/.test(paragraph));
  const prose = paragraphs.at(-1) ?? "";
  if (prose.length <= LINE_CHARACTERS) return prose;
  const tail = prose.slice(-LINE_CHARACTERS);
  return `…${tail.slice(tail.indexOf(" ") + 1)}`;
}

const HOUR_MS = 60 * 60 * 1000;

export function newStoriesPerHourMessage(limit: number, wait: string) {
  return `You can begin ${limit} new stories an hour. Try again in ${wait}.`;
}

export function storiesKeptMessage(limit: number) {
  return `You have ${limit} stories, the most one player can keep. Delete old stories on My Stories to begin a new one.`;
}

/**
 * New story: another story in the same game; the player's others are kept. At most
 * STORIES_PER_HOUR begun an hour and STORIES_PER_PLAYER kept in all (issue 31): past the first a
 * wait helps (429 with Retry-After), past the second only deleting a story does.
 */
export function beginNewStory(userId: string, gameSlug: string): Promise<Story> {
  return createStoryWithinLimits(userId, async (tx) => {
    const [row] = await tx
      .insert(stories)
      .values({ userId, gameSlug, worldVersion: sql`story_world_version(${userId}, ${gameSlug})` })
      .returning({ id: stories.id });
    return row;
  });
}

/**
 * A story begun by `create` (New story, Branch from here), within the player's limits: past
 * STORIES_PER_HOUR begun an hour a wait helps (429 with Retry-After), past STORIES_PER_PLAYER
 * kept in all only deleting a story does. `create` runs in the transaction that counted, and may
 * refuse by throwing (nothing is then counted against the hour).
 */
export async function createStoryWithinLimits(userId: string, create: (tx: Transaction) => Promise<{ id: string } | undefined>): Promise<Story> {
  const { STORIES_PER_HOUR, STORIES_PER_PLAYER } = env();
  const hourly: RateLimitRule = { name: "new-story", limit: STORIES_PER_HOUR, windowMs: HOUR_MS };
  const counted = await consumeRateLimit(hourly, userId);
  const tooMany = rateLimitRefusal(counted, (wait) => newStoriesPerHourMessage(STORIES_PER_HOUR, wait));
  if (tooMany) throw tooMany;
  const created = await db()
    .transaction(async (tx) => {
      // One player's new stories take turns here, so the count each checks is the one it adds to.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`stories:${userId}`}, 0))`);
      if ((await tx.$count(stories, eq(stories.userId, userId))) >= STORIES_PER_PLAYER) return undefined;
      return create(tx);
    })
    .catch(async (error: unknown) => {
      await releaseRateLimit(hourly, userId, counted.windowStartedAt);
      throw error;
    });
  if (!created) {
    // Not begun, so not counted against the hour.
    await releaseRateLimit(hourly, userId, counted.windowStartedAt);
    throw new DomainError("rate_limited", storiesKeptMessage(STORIES_PER_PLAYER));
  }
  return findStory(userId, created.id);
}

export async function renameStory(userId: string, storyId: string, title: string): Promise<{ title: string }> {
  const renamed = await db()
    .update(stories)
    .set({ title })
    .where(and(eq(stories.id, storyId), eq(stories.userId, userId)))
    .returning({ title: stories.title });
  if (renamed.length === 0) throw new NotFoundError(STORY_REFUSALS.missing);
  return { title };
}

/**
 * Deletes a story with all its messages; not while the Game Master is writing in it, nor while
 * other stories were branched from it (they read its exchanges: docs/decisions/063).
 */
export async function deleteStory(userId: string, storyId: string): Promise<void> {
  const story = await findStory(userId, storyId);
  const branches = alias(stories, "branches");
  const deleted = await db()
    .delete(stories)
    .where(
      and(
        eq(stories.id, story.id),
        eq(stories.userId, userId),
        isNull(stories.activeTurnId),
        notExists(db().select({ id: branches.id }).from(branches).where(eq(branches.parentStoryId, story.id))),
      ),
    )
    .returning({ id: stories.id });
  if (deleted.length > 0) return;
  if (story.activeTurnId) throw new DomainError("story_busy", STORY_REFUSALS.busy);
  throw new DomainError("conflict", STORY_REFUSALS.branched);
}

/** Exchanges read per query while exporting: the story is streamed, never held whole. */
const EXPORT_PAGE_EXCHANGES = 500;

interface ExportedMessage {
  exchange: number;
  role: "user" | "assistant";
  content: string;
  /** "interrupted": a reply lost with the instance writing it (app/db/functions/finish_turn.sql). */
  status: MessageStatus;
  createdAt: Date;
  /** The story state a reply left, in a game that tracks stats. */
  state: unknown;
  /** A player's message sent as a Check: the server's roll (docs/decisions/061). */
  roll: StatCheck | null;
  versions: { version: number; content: string; state: unknown }[];
  chosenVersion: number;
  removal: string | null;
}

/**
 * A message of the story's exchanges, undone ones included: its own, or one of the exchanges it
 * shares with the story it was branched from (app/db/functions/story_lineage.sql).
 */
function inStory(storyId: string) {
  return sql`${gameMessages.storyId} in (select story_id from story_lineage(${storyId}::uuid))
    and exists (select 1 from story_lineage(${storyId}::uuid) as lineage where lineage.story_id = ${gameMessages.storyId}
      and ${gameMessages.exchange} > lineage.after_exchange and ${gameMessages.exchange} <= lineage.through_exchange)`;
}

async function* exportPages(storyId: string, { withHistory }: { withHistory: boolean }): AsyncGenerator<ExportedMessage[]> {
  let after = 0;
  for (;;) {
    const rows = await db()
      .select({
        id: gameMessages.id,
        exchange: gameMessages.exchange,
        role: gameMessages.role,
        content: gameMessages.content,
        status: gameMessages.status,
        createdAt: gameMessages.createdAt,
        chosenVersion: gameMessages.version,
        removal: gameMessages.removal,
        state: gameMessages.state,
        roll: sql<StatCheck | null>`${gameMessages.roll}`,
        versions: sql<
          ExportedMessage["versions"]
        >`coalesce((select json_agg(json_build_object('version', ${replyVersions.version}, 'content', ${replyVersions.content}, 'state', ${replyVersions.state}) order by ${replyVersions.version})
          from ${replyVersions} where ${replyVersions.messageId} = ${gameMessages.id}), '[]'::json)`,
      })
      .from(gameMessages)
      .where(
        and(
          inStory(storyId),
          gt(gameMessages.exchange, after),
          lte(gameMessages.exchange, after + EXPORT_PAGE_EXCHANGES),
          withHistory ? undefined : isNull(gameMessages.removedAt),
        ),
      )
      .orderBy(asc(gameMessages.exchange), desc(gameMessages.role), asc(gameMessages.id));
    if (rows.length === 0) return;
    yield rows.map(({ id: _id, ...message }) => message);
    after += EXPORT_PAGE_EXCHANGES;
  }
}

export interface StoryExport {
  filename: string;
  contentType: string;
  body: ReadableStream<Uint8Array>;
}

function fileSlug(text: string) {
  return (
    text
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "story"
  );
}

/**
 * Export: the story as Markdown (title, game, date, each turn with its speaker) or as JSON (its
 * memory, and every message — undone and replaced ones too — with its versions and the state each
 * reply left), streamed page by page.
 */
export async function exportStory(userId: string, storyId: string, format: StoryExportFormat): Promise<StoryExport> {
  const story = await findStory(userId, storyId);
  const [summary] = await listStories(userId, story.id);
  const title = summary?.title ?? "Story";
  const gameTitle = summary?.gameTitle ?? story.gameSlug;
  const encoder = new TextEncoder();
  const exportedAt = new Date();

  async function* markdown() {
    yield `# ${title}\n\n*${gameTitle} · ${exportedAt.toISOString().slice(0, 10)} · ${story.exchanges} turns*\n`;
    for await (const page of exportPages(story.id, { withHistory: false })) {
      yield page
        .map((message) => {
          const text = message.status === "interrupted" ? `*${PLAY_TEXTS.interruptedReply}*` : message.content.trim();
          const roll = message.roll ? `\n*${rollLine(message.roll)}*\n` : "";
          return `\n**${message.role === "user" ? "You" : "Game Master"}:**\n\n${text}\n${roll}`;
        })
        .join("");
    }
  }

  async function* json() {
    const memory = { pinnedFacts: story.pinnedFacts, authorNote: story.authorNote, summary: story.summary };
    const head = { title, game: { slug: story.gameSlug, title: gameTitle }, exportedAt, exchanges: story.exchanges, memory };
    yield `{"story":${JSON.stringify(head)},"messages":[`;
    let first = true;
    for await (const page of exportPages(story.id, { withHistory: true })) {
      for (const message of page) {
        yield `${first ? "" : ","}\n${JSON.stringify(message)}`;
        first = false;
      }
    }
    yield "\n]}\n";
  }

  const parts = format === "markdown" ? markdown() : json();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await parts.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await parts.return(undefined);
    },
  });
  const base = `${fileSlug(gameTitle)}-${fileSlug(title)}`;
  return format === "markdown"
    ? { filename: `${base}.md`, contentType: "text/markdown; charset=utf-8", body }
    : { filename: `${base}.json`, contentType: "application/json; charset=utf-8", body };
}
