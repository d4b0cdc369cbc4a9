import { randomBytes } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { db } from "../db/database.server.ts";
import { games, hiddenWorlds, user, worldVersions } from "../db/schema.ts";
import { isUniqueViolation } from "../db/unique-violation.server.ts";
import { env } from "../env.server.ts";
import { slugify } from "../lib/slugify.ts";
import type { PublishedStatus } from "../lib/worlds.ts";
import { ForbiddenError, InvalidInputError } from "./errors.server.ts";
import { listBlockedTerms } from "./content-rules.server.ts";
import { sectionsColumn } from "./game-master/game-source.server.ts";
import { HIDDEN_WORLD_REFUSAL, publishingHold } from "./moderation.server.ts";
import { enforceRateLimit, type RateLimitRule } from "./rate-limit.server.ts";
import { queueAdvisoryRating } from "./world-advisory.server.ts";
import { findOwnWorld, type OwnWorld } from "./worlds.server.ts";

/**
 * Publishing a player's world (issue 36, docs/decisions/059): the first checks, a kept version per
 * publish, and back to draft. A published world is active, so anyone with its link plays it;
 * only a Public one is listed (app/domain/community.server.ts).
 */

const HOUR_MS = 60 * 60 * 1000;

/** The fields a world cannot be published without, as the create form names them. */
const REQUIRED_TO_PUBLISH = [
  ["title", "Title"],
  ["description", "Description"],
  ["prompt", "Game Master instructions"],
] as const;

/** Where a blocked term is looked for, as the create form names each place. */
function publishedTexts(world: OwnWorld): [string, string][] {
  return [
    ["Title", world.title],
    ["Tagline", world.tagline ?? ""],
    ["Description", world.description],
    ["Game Master instructions", world.prompt],
    ["Opening message", world.opening],
    ["Alternative openings", world.alternativeOpenings.join("\n")],
    ["Tags", world.tags.join(", ")],
  ];
}

function listed(names: readonly string[]): string {
  const last = names.at(-1) ?? "";
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${last}` : last;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The first checks a world passes before anyone else can play it: what is missing, then the
 * admin's blocked terms (whole words, any case). A sentence the creator can act on, or none.
 */
export function publishRefusal(world: OwnWorld, blockedTerms: readonly string[]): string | undefined {
  const missing = REQUIRED_TO_PUBLISH.filter(([field]) => !world[field].trim()).map(([, label]) => label);
  if (missing.length > 0) return `Before you publish, fill in ${listed(missing)}.`;
  for (const term of blockedTerms) {
    const word = new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(term)}($|[^\\p{L}\\p{N}])`, "iu");
    const places = publishedTexts(world)
      .filter(([, text]) => word.test(text))
      .map(([label]) => label);
    if (places.length > 0) return `“${term}” is not allowed on this site; it appears in ${listed(places)}. Change it, then publish again.`;
  }
  return undefined;
}

/** A handle from a player's name: lower-case words joined by hyphens, or "creator" when nothing is left. */
function handleFrom(name: string): string {
  return slugify(name).slice(0, 40) || "creator";
}

/** The player's handle, given from their name the first time they need one (a short suffix when it is taken). */
export async function ensureHandle(userId: string): Promise<string> {
  const [player] = await db().select({ name: user.name, handle: user.handle }).from(user).where(eq(user.id, userId));
  if (!player) throw new Error("The player does not exist.");
  if (player.handle) return player.handle;
  const base = handleFrom(player.name);
  for (const candidate of [base, `${base}-${randomBytes(2).toString("hex")}`, `${base}-${randomBytes(4).toString("hex")}`]) {
    try {
      const [given] = await db()
        .update(user)
        .set({ handle: candidate })
        .where(and(eq(user.id, userId), isNull(user.handle)))
        .returning({ handle: user.handle });
      if (given?.handle) return given.handle;
      // Given meanwhile by another request of theirs.
      return await ensureHandle(userId);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error("No free handle was found.");
}

/**
 * Publishes the creator's world as Unlisted or Public: checked, kept as the next version in
 * world_versions, made active, then rated (advisory) off the request. 400 with a sentence when a
 * check fails; 403 while a moderator holds it (the creator suspended, the world hidden); 429 past
 * the hourly limit.
 */
export async function publishWorld(userId: string, id: string, status: PublishedStatus): Promise<number> {
  const world = await findOwnWorld(userId, id);
  const hold = await publishingHold(userId, id);
  if (hold) throw new ForbiddenError(hold);
  const { WORLD_PUBLISHES_PER_HOUR } = env();
  const refusal = publishRefusal(world, await listBlockedTerms());
  if (refusal) throw new InvalidInputError(refusal);
  const hourly: RateLimitRule = { name: "world-publish", limit: WORLD_PUBLISHES_PER_HOUR, windowMs: HOUR_MS };
  await enforceRateLimit(hourly, userId, (wait) => `You can publish ${WORLD_PUBLISHES_PER_HOUR} times an hour. Try again in ${wait}.`);
  // Outside the transaction: a handle someone else holds fails its statement, which would abort a transaction.
  await ensureHandle(userId);
  const published = await db().transaction(async (tx) => {
    // The row is locked so that two publishes at once number their versions one after the other.
    const [current] = await tx
      .select()
      .from(games)
      .where(and(eq(games.id, id), eq(games.creatorId, userId)))
      .for("update");
    if (!current) throw new Error("The world disappeared while it was published.");
    // A moderator who hid it meanwhile (hiding locks this row too) wins over the publish.
    const [hidden] = await tx.select({ gameId: hiddenWorlds.gameId }).from(hiddenWorlds).where(eq(hiddenWorlds.gameId, id));
    if (hidden) throw new ForbiddenError(HIDDEN_WORLD_REFUSAL);
    const version = (current.publishedVersion ?? 0) + 1;
    const { id: _id, slug: _slug, creatorId: _creator, createdAt: _created, updatedAt: _updated, ...fields } = current;
    // Its lorebook and world content are kept too: a story of this version reads them as they are now.
    const [kept] = await tx
      .select({ lore: sql<string>`game_lore(${games.slug})::text`, sections: sectionsColumn() })
      .from(games)
      .where(eq(games.id, id));
    if (!kept) throw new Error("The world disappeared while it was published.");
    await tx.insert(worldVersions).values({
      gameId: id,
      version,
      fields: { ...fields, status },
      lore: JSON.parse(kept.lore) as Record<string, unknown>[],
      sections: JSON.parse(kept.sections) as [string, string, string][],
    });
    const now = new Date();
    await tx
      .update(games)
      .set({ status, isActive: true, publishedVersion: version, firstPublishedAt: current.firstPublishedAt ?? now, updatedAt: now })
      .where(eq(games.id, id));
    return version;
  });
  queueAdvisoryRating(id, published);
  return published;
}

/** Back to a draft: inactive again, played by its creator alone; its published versions are kept. */
export async function unpublishWorld(userId: string, id: string): Promise<void> {
  await findOwnWorld(userId, id);
  await db()
    .update(games)
    .set({ status: "draft", isActive: false, updatedAt: new Date() })
    .where(and(eq(games.id, id), eq(games.creatorId, userId)));
}
