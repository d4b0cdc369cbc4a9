import { and, arrayContains, desc, eq, ilike, isNotNull, ne, or, sql, type SQL } from "drizzle-orm";
import { db } from "../db/database.server.ts";
import { games, stories, user, worldLikes } from "../db/schema.ts";
import type { CommunitySort, ContentRating, RemixCredit } from "../lib/worlds.ts";
import { getSessionUser } from "./auth.server.ts";
import { NotFoundError } from "./errors.server.ts";
import { copyGameLore } from "./lorebook.server.ts";
import { containsPattern, normalizeSearch, summaryColumns } from "./games.server.ts";
import { ensureHandle } from "./world-publishing.server.ts";
import { countNewWorld, worldSlug } from "./worlds.server.ts";

/**
 * Community (issue 36, docs/decisions/059): players' Public worlds as the catalogue lists them,
 * creators' pages, likes and remixes. Mature worlds are shown only to players who confirmed their
 * age; a visitor's page never holds one, so the pages kept for visitors cannot either.
 */

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
const COMMUNITY_PAGE_SIZE = 48;

/** Whether the request's player confirmed their age in their settings; never for a visitor. */
export async function viewerSeesMature(request: Request): Promise<boolean> {
  const viewer = await getSessionUser(request);
  if (!viewer) return false;
  const [row] = await db().select({ confirmedAt: user.matureConfirmedAt }).from(user).where(eq(user.id, viewer.id));
  return Boolean(row?.confirmedAt);
}

/** The settings' age confirmation: set (now) or withdrawn. */
export async function setMatureConfirmed(userId: string, confirmed: boolean): Promise<void> {
  await db()
    .update(user)
    .set({ matureConfirmedAt: confirmed ? new Date() : null })
    .where(eq(user.id, userId));
}

/** Hides Mature worlds unless the viewer confirmed their age. */
export function ratingsShown(showMature: boolean): SQL | undefined {
  return showMature ? undefined : ne(games.contentRating, "Mature");
}

/** A world's likes and plays (its stories), as its card and its creator's dashboard count them. */
export const likeCount = sql<number>`(select count(*)::int from ${worldLikes} where ${worldLikes.gameId} = ${games.id})`;
export const playCount = sql<number>`(select count(*)::int from ${stories} where ${stories.gameSlug} = ${games.slug})`;

/** A world card's figures and its creator, besides the game card's summary. */
const communityColumns = {
  ...summaryColumns,
  contentRating: games.contentRating,
  tags: games.tags,
  creatorName: user.name,
  creatorHandle: user.handle,
  likes: likeCount,
  plays: playCount,
};

export interface CommunityFilter {
  sort: CommunitySort;
  tag?: string;
  rating?: ContentRating;
  search?: string;
  showMature: boolean;
}

function communityOrder(sort: CommunitySort): SQL[] {
  if (sort === "new") return [desc(games.firstPublishedAt)];
  if (sort === "top") return [desc(likeCount), desc(playCount), desc(games.firstPublishedAt)];
  const since = new Date(Date.now() - WEEK_MS).toISOString();
  // Trending: likes and stories begun in the last week.
  const recent = sql`(
    (select count(*) from ${worldLikes} where ${worldLikes.gameId} = ${games.id} and ${worldLikes.createdAt} > ${since})
    + (select count(*) from ${stories} where ${stories.gameSlug} = ${games.slug} and ${stories.createdAt} > ${since})
  )`;
  return [desc(recent), desc(games.firstPublishedAt)];
}

/** Public worlds of players, for the catalogue's Community section and search. */
export function listCommunityWorlds(filter: CommunityFilter) {
  const conditions: (SQL | undefined)[] = [eq(games.isActive, true), eq(games.status, "public"), isNotNull(games.creatorId)];
  conditions.push(ratingsShown(filter.showMature));
  if (filter.rating) conditions.push(eq(games.contentRating, filter.rating));
  if (filter.tag) conditions.push(arrayContains(games.tags, [filter.tag]));
  const search = normalizeSearch(filter.search);
  if (search) {
    const pattern = containsPattern(search);
    conditions.push(or(ilike(games.title, pattern), ilike(games.tagline, pattern), ilike(games.description, pattern)));
  }
  return db()
    .select(communityColumns)
    .from(games)
    .innerJoin(user, eq(user.id, games.creatorId))
    .where(and(...conditions))
    .orderBy(...communityOrder(filter.sort))
    .limit(COMMUNITY_PAGE_SIZE);
}
export type CommunityWorld = Awaited<ReturnType<typeof listCommunityWorlds>>[number];

/** /creators/{handle}: the creator's name and their Public worlds, newest first; undefined for an unknown handle. */
export async function findCreator(handle: string, showMature: boolean) {
  const [creator] = await db().select({ id: user.id, name: user.name, handle: user.handle }).from(user).where(eq(user.handle, handle));
  if (!creator) return undefined;
  const worlds = await db()
    .select(communityColumns)
    .from(games)
    .innerJoin(user, eq(user.id, games.creatorId))
    .where(and(eq(games.creatorId, creator.id), eq(games.isActive, true), eq(games.status, "public"), ratingsShown(showMature)))
    .orderBy(desc(games.firstPublishedAt));
  return { name: creator.name, handle: handle, worlds };
}

/** What a published world's page shows besides the game's: its creator, figures, credits and the viewer's like. */
export async function worldDetails(gameId: string, viewerId: string | undefined) {
  const [row] = await db()
    .select({
      creatorName: user.name,
      creatorHandle: user.handle,
      creatorId: games.creatorId,
      likes: likeCount,
      plays: playCount,
      remixedFrom: games.remixedFrom,
      publishedVersion: games.publishedVersion,
      liked: viewerId
        ? sql<boolean>`exists (select 1 from ${worldLikes} where ${worldLikes.gameId} = ${games.id} and ${worldLikes.userId} = ${viewerId})`
        : sql<boolean>`false`,
    })
    .from(games)
    .innerJoin(user, eq(user.id, games.creatorId))
    .where(eq(games.id, gameId));
  if (!row) return undefined;
  const { creatorId, ...details } = row;
  return { ...details, ownWorld: creatorId === viewerId };
}

/**
 * A published world the viewer may see (Unlisted too, or only Public ones); NotFoundError for a
 * draft, an unknown id, a site game or a Mature world the viewer did not confirm their age for.
 */
export async function findPublishedWorld(gameId: string, { showMature, publicOnly }: { showMature: boolean; publicOnly: boolean }) {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  const missing = new NotFoundError("There is no such published world.");
  if (!uuid.test(gameId)) throw missing;
  const [world] = await db()
    .select({ game: games, creatorName: user.name, creatorHandle: user.handle })
    .from(games)
    .innerJoin(user, eq(user.id, games.creatorId))
    .where(and(eq(games.id, gameId), eq(games.isActive, true), publicOnly ? eq(games.status, "public") : undefined, ratingsShown(showMature)));
  if (!world) throw missing;
  return world;
}

/** Likes the world, or takes the like back: one per player. Answers whether it is now liked. */
export async function toggleLike(userId: string, gameId: string, showMature: boolean): Promise<boolean> {
  await findPublishedWorld(gameId, { showMature, publicOnly: false });
  const removed = await db()
    .delete(worldLikes)
    .where(and(eq(worldLikes.gameId, gameId), eq(worldLikes.userId, userId)))
    .returning({ gameId: worldLikes.gameId });
  if (removed.length > 0) return false;
  await db().insert(worldLikes).values({ gameId, userId }).onConflictDoNothing();
  return true;
}

/**
 * A copy of a Public world as the player's own draft, credited: the world it came from first,
 * then every world that one was remixed from. Its instructions and lorebook come along (Publish says so);
 * its creator notes do not. Counts as a world begun today.
 */
export async function remixWorld(userId: string, gameId: string, showMature: boolean): Promise<string> {
  const { game, creatorName, creatorHandle } = await findPublishedWorld(gameId, { showMature, publicOnly: true });
  await countNewWorld(userId);
  const handle = creatorHandle ?? (await ensureHandle(game.creatorId ?? ""));
  const credit: RemixCredit = { slug: game.slug, title: game.title, creatorName, creatorHandle: handle };
  return db().transaction(async (tx) => {
    const slug = worldSlug(game.title);
    const [created] = await tx
      .insert(games)
      .values({
        slug,
        title: game.title,
        tagline: game.tagline,
        description: game.description,
        icon: game.icon,
        difficulty: game.difficulty,
        category: game.category,
        prompt: game.prompt,
        trackedStats: game.trackedStats,
        coverHash: game.coverHash,
        contentRating: game.contentRating,
        tags: game.tags,
        opening: game.opening,
        alternativeOpenings: game.alternativeOpenings,
        loreScanDepth: game.loreScanDepth,
        extra: game.extra,
        remixedFrom: [credit, ...game.remixedFrom],
        creatorId: userId,
        status: "draft",
        isActive: false,
      })
      .returning({ id: games.id });
    if (!created) throw new Error("The remix was not stored.");
    // Its lorebook comes along with its instructions, in the same commit.
    await copyGameLore(tx, game.slug, slug);
    return created.id;
  });
}
