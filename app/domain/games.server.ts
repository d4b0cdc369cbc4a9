import { and, asc, eq, ilike, isNull, ne, or, type SQL } from "drizzle-orm";
import { db } from "../db/database.server.ts";
import { games, type Game } from "../db/schema.ts";
import { FEATURED_GAME_COUNT, type Difficulty } from "../lib/constants.ts";
import type { TrackedStat } from "../lib/tracked-stats.ts";

/**
 * The catalogue as visitors see it: active games only, in sort_order. Read-only; writes live in
 * the admin's modules.
 */

/** What a game card, the catalogue and a game's pages need (never the Game Master prompt). */
export type GameSummary = Pick<
  Game,
  | "id"
  | "slug"
  | "title"
  | "tagline"
  | "description"
  | "icon"
  | "difficulty"
  | "players"
  | "category"
  | "sortOrder"
  | "coverHash"
  | "creatorId"
  | "status"
  | "contentRating"
>;

export const summaryColumns = {
  id: games.id,
  slug: games.slug,
  title: games.title,
  tagline: games.tagline,
  description: games.description,
  icon: games.icon,
  difficulty: games.difficulty,
  players: games.players,
  category: games.category,
  sortOrder: games.sortOrder,
  coverHash: games.coverHash,
  creatorId: games.creatorId,
  status: games.status,
  contentRating: games.contentRating,
};

export const MAX_SEARCH_LENGTH = 100;

export interface GameFilter {
  difficulty?: Difficulty;
  /** Matched case-insensitively against title, tagline and description. */
  search?: string;
  limit?: number;
}

/** A search term as the catalogue uses it: single-spaced, trimmed, bounded; empty means none. */
export function normalizeSearch(value: string | null | undefined): string | undefined {
  const term = (value ?? "").replace(/\s+/g, " ").trim().slice(0, MAX_SEARCH_LENGTH).trim();
  return term || undefined;
}

/** `%term%` for ILIKE, with the term's own wildcards taken literally. */
export function containsPattern(term: string) {
  return `%${term.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** The site's own games (players' worlds are listed under Community: community.server.ts). */
export async function listActiveGames(filter: GameFilter = {}): Promise<GameSummary[]> {
  const conditions: SQL[] = [eq(games.isActive, true), isNull(games.creatorId)];
  if (filter.difficulty) conditions.push(eq(games.difficulty, filter.difficulty));
  const search = normalizeSearch(filter.search);
  if (search) {
    const pattern = containsPattern(search);
    const matches = or(ilike(games.title, pattern), ilike(games.tagline, pattern), ilike(games.description, pattern));
    if (matches) conditions.push(matches);
  }
  const query = db()
    .select(summaryColumns)
    .from(games)
    .where(and(...conditions))
    .orderBy(asc(games.sortOrder), asc(games.title))
    .$dynamic();
  return filter.limit === undefined ? query : query.limit(filter.limit);
}

/** The home page's 'Choose Your Role': the first active games by sort_order. */
export function listFeaturedGames(): Promise<GameSummary[]> {
  return listActiveGames({ limit: FEATURED_GAME_COUNT });
}

/**
 * An active game by slug, for its public pages: a site game or a published world (Unlisted ones
 * too: anyone with the link may see them), a Mature one only with `showMature`. Without the
 * prompt: the Game Master's instructions are secret, and a column never read cannot end up in a
 * page's data.
 */
export async function getActiveGame(slug: string, { showMature = false }: { showMature?: boolean } = {}): Promise<GameSummary | undefined> {
  const [game] = await db()
    .select(summaryColumns)
    .from(games)
    .where(and(eq(games.slug, slug), eq(games.isActive, true), showMature ? undefined : ne(games.contentRating, "Mature")))
    .limit(1);
  return game;
}

/** The stats a game's stories track (none for an unknown game). */
export async function trackedStatsOf(slug: string): Promise<TrackedStat[]> {
  const [game] = await db().select({ trackedStats: games.trackedStats }).from(games).where(eq(games.slug, slug));
  return game?.trackedStats ?? [];
}
