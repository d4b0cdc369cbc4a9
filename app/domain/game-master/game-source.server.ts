import { and, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { preparedQuery } from "../../db/prepared.server.ts";
import { gameContent, games, worldVersions } from "../../db/schema.ts";
import type { TrackedStat } from "../../lib/tracked-stats.ts";
import { publicContentVersionWatch } from "../public-content-version.server.ts";
import { WORLD_CONTENT_TYPES, type StoryBrief, type WorldContentType } from "./story-brief.server.ts";

/** The game of the statement's `slug`, if it is active: only active games can be played. */
const playable = () => and(eq(games.slug, sql.placeholder("slug")), eq(games.isActive, true));

const playableGameQuery = preparedQuery((database) =>
  database
    .select({
      slug: games.slug,
      title: games.title,
      tagline: games.tagline,
      trackedStats: games.trackedStats,
      publishedVersion: games.publishedVersion,
    })
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
 * A game's published world content as one JSON array of [type, title, content], in the admin's
 * order: read with a game's brief, and kept whole in world_versions.sections when a world is
 * published (docs/decisions/065).
 */
export const sectionsColumn = () => sql<string>`(
  select coalesce(json_agg(json_build_array(${gameContent.contentType}, ${gameContent.title}, ${gameContent.content})
    order by ${gameContent.sectionOrder}, ${gameContent.createdAt}), '[]')::text
  from ${gameContent}
  where ${and(eq(gameContent.gameSlug, games.slug), eq(gameContent.isPublished, true), inArray(gameContent.contentType, [...WORLD_CONTENT_TYPES]))}
)`;

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
        sections: sectionsColumn(),
      })
      .from(games)
      .where(where())
      .prepare(name),
  );

/**
 * A published version of a world as its Game Master knows it (docs/decisions/065): its title,
 * instructions, tracked stats and world content as world_versions keeps them whole, with the
 * game's model and context budget.
 */
const worldVersionBriefQuery = preparedQuery((database) => {
  const field = (name: string) => sql`${worldVersions.fields} -> ${name}`;
  return database
    .select({
      slug: games.slug,
      title: sql<string>`${field("title")} #>> '{}'`,
      prompt: sql<string>`${field("prompt")} #>> '{}'`,
      trackedStats: sql<TrackedStat[]>`coalesce(${field("trackedStats")}, '[]'::jsonb)`,
      // Which model and budget its turns use are the site's choice for the game, not the world's content.
      model: games.model,
      contextTokens: games.contextTokens,
      sections: sql<string>`${worldVersions.sections}::text`,
    })
    .from(games)
    .innerJoin(worldVersions, and(eq(worldVersions.gameId, games.id), eq(worldVersions.version, sql.placeholder("version"))))
    .where(eq(games.slug, sql.placeholder("slug")))
    .prepare("world_version_brief");
});

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
export function loadStoryBrief(slug: string): Promise<PlayableStory | undefined> {
  return keptBrief(slug, () => readStoryBrief(slug));
}

/**
 * The brief of a story that plays a published version of a world (BegunTurn's worldVersion):
 * kept in memory as the game's brief is, since the version itself never changes.
 */
export function loadWorldVersionBrief(slug: string, version: number): Promise<PlayableStory | undefined> {
  return keptBrief(`${slug}@${version}`, () => readStoryBrief(slug, worldVersionBriefQuery, { version }));
}

async function keptBrief(key: string, read: () => Promise<PlayableStory | undefined>): Promise<PlayableStory | undefined> {
  const version = publicContentVersionWatch.current();
  if (typeof version !== "number") return read();
  const kept = briefs.get(key);
  if (kept?.version === version) return kept.brief;
  // Read after the version: a change committed in between is kept under the older version, and
  // read again as soon as its notification moves the version on.
  const brief = await read();
  if (brief) {
    if (briefs.size >= MAX_KEPT_BRIEFS) briefs.clear();
    briefs.set(key, { version, brief });
  } else {
    briefs.delete(key);
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

async function readStoryBrief(
  slug: string,
  query: typeof storyBriefQuery | typeof worldVersionBriefQuery = storyBriefQuery,
  parameters: { version?: number } = {},
): Promise<PlayableStory | undefined> {
  const [row] = await query().execute({ slug, ...parameters });
  if (!row) return undefined;
  const priority = (type: WorldContentType) => WORLD_CONTENT_TYPES.indexOf(type);
  const sections = (JSON.parse(row.sections) as [WorldContentType, string, string][])
    .map(([contentType, title, content]) => ({ contentType, title, content }))
    .sort((a, b) => priority(a.contentType) - priority(b.contentType));
  const { title, prompt, trackedStats, model, contextTokens } = row;
  return { slug: row.slug, title, prompt, trackedStats, model, contextTokens, sections };
}
