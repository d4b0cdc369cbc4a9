import { and, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { preparedQuery } from "../../db/prepared.server.ts";
import { gameContent, games } from "../../db/schema.ts";
import type { TrackedStat } from "../../lib/tracked-stats.ts";
import { publicContentVersionWatch } from "../public-content-version.server.ts";
import { WORLD_CONTENT_TYPES, type StoryBrief, type WorldContentType } from "./story-brief.server.ts";

/** The game of the statement's `slug`, if it is active: only active games can be played. */
const playable = () => and(eq(games.slug, sql.placeholder("slug")), eq(games.isActive, true));

const playableGameQuery = preparedQuery((database) =>
  database
    .select({ slug: games.slug, title: games.title, tagline: games.tagline, trackedStats: games.trackedStats })
    .from(games)
    // An active game, or a draft world of the player's own (docs/decisions/053).
    .where(and(eq(games.slug, sql.placeholder("slug")), or(eq(games.isActive, true), eq(games.creatorId, sql.placeholder("playerId")))))
    .prepare("playable_game"),
);

/** The game of a slug the player may play, as the play screen names it: an active game or their own draft. */
export async function findPlayableGame(slug: string, playerId: string | undefined) {
  // No account has the empty id: without a player, only active games answer.
  const [game] = await playableGameQuery().execute({ slug, playerId: playerId ?? "" });
  return game;
}

/**
 * A playable game as its Game Master knows it, in one statement: its prompt, its tracked stats and
 * its published world content (as one JSON array, most important sections first).
 */
const briefQuery = (name: string, where: () => SQL | undefined) =>
  preparedQuery((database) =>
    database
      .select({
        slug: games.slug,
        title: games.title,
        prompt: games.prompt,
        trackedStats: games.trackedStats,
        model: games.model,
        contextTokens: games.contextTokens,
        sections: sql<string>`(
        select coalesce(json_agg(json_build_array(${gameContent.contentType}, ${gameContent.title}, ${gameContent.content})
          order by ${gameContent.sectionOrder}, ${gameContent.createdAt}), '[]')::text
        from ${gameContent}
        where ${and(eq(gameContent.gameSlug, games.slug), eq(gameContent.isPublished, true), inArray(gameContent.contentType, [...WORLD_CONTENT_TYPES]))}
      )`,
      })
      .from(games)
      .where(where())
      .prepare(name),
  );

const storyBriefQuery = briefQuery("story_brief", playable);
/** Any game of the slug: asked once begin_turn.sql has let the player in (an active game, or their own draft). */
const begunStoryBriefQuery = briefQuery("begun_story_brief", () => eq(games.slug, sql.placeholder("slug")));

/** A game's brief, with the model and context budget its turns use (null: the site's, AI_MODEL and AI_CONTEXT_TOKENS). */
export type PlayableStory = StoryBrief & { slug: string; trackedStats: TrackedStat[]; model: string | null; contextTokens: number | null };

/**
 * Briefs by slug, each with the public content version it was read at: any change to games or
 * their content moves the version, so a brief is reused only while nothing it holds can have
 * changed. Every game fits; the bound only guards memory.
 */
const briefs = new Map<string, { version: number; brief: PlayableStory }>();
const MAX_KEPT_BRIEFS = 500;

/**
 * An active game's prompt and published world content; undefined for an unknown or inactive game.
 * Read from memory while this process knows the public content version and it has not moved.
 */
export async function loadStoryBrief(slug: string): Promise<PlayableStory | undefined> {
  const version = publicContentVersionWatch.current();
  if (typeof version !== "number") return readStoryBrief(slug);
  const kept = briefs.get(slug);
  if (kept?.version === version) return kept.brief;
  // Read after the version: a change committed in between is kept under the older version, and
  // read again as soon as its notification moves the version on.
  const brief = await readStoryBrief(slug);
  if (brief) {
    if (briefs.size >= MAX_KEPT_BRIEFS) briefs.clear();
    briefs.set(slug, { version, brief });
  } else {
    briefs.delete(slug);
  }
  return brief;
}

/**
 * The brief of the game a begun turn plays, read from the database each time: a draft world
 * changes without moving the public content version, so it is never kept in memory.
 */
export function loadBegunStoryBrief(slug: string): Promise<PlayableStory | undefined> {
  return readStoryBrief(slug, begunStoryBriefQuery);
}

async function readStoryBrief(slug: string, query = storyBriefQuery): Promise<PlayableStory | undefined> {
  const [row] = await query().execute({ slug });
  if (!row) return undefined;
  const priority = (type: WorldContentType) => WORLD_CONTENT_TYPES.indexOf(type);
  const sections = (JSON.parse(row.sections) as [WorldContentType, string, string][])
    .map(([contentType, title, content]) => ({ contentType, title, content }))
    .sort((a, b) => priority(a.contentType) - priority(b.contentType));
  const { title, prompt, trackedStats, model, contextTokens } = row;
  return { slug: row.slug, title, prompt, trackedStats, model, contextTokens, sections };
}
