import { randomBytes } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { db } from "../db/database.server.ts";
import { coverVariants, games } from "../db/schema.ts";
import { slugify } from "../lib/slugify.ts";
import type { WorldForm } from "../lib/worlds.ts";
import { characterCardPng, characterCardV3, readCharacterCard, type CardWorld } from "./character-cards.server.ts";
import { env } from "../env.server.ts";
import { NotFoundError } from "./errors.server.ts";
import { cardLore, insertCardLore, type Lorebook } from "./lorebook.server.ts";
import { enforceRateLimit } from "./rate-limit.server.ts";

/**
 * Worlds a player makes (issue 36, docs/decisions/053): games with a creator. A draft is an
 * inactive game, so no public read shows it; here its creator lists, saves, imports and exports
 * their own, and anyone else's is "not found".
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The picture a card is written into when its world has no cover: a plain card in the site's ink. */
const PLAIN_CARD = { width: 400, height: 600, background: "#120d1c" } as const;

function noSuchWorld(): NotFoundError {
  return new NotFoundError("There is no such world among yours.");
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Counts a world begun (saved, imported or remixed); 429 past WORLDS_PER_DAY. */
export async function countNewWorld(userId: string): Promise<void> {
  const { WORLDS_PER_DAY } = env();
  await enforceRateLimit({ name: "world-create", limit: WORLDS_PER_DAY, windowMs: DAY_MS }, userId, (wait) => {
    return `You can begin ${WORLDS_PER_DAY} worlds a day. Try again in ${wait}.`;
  });
}

/** A new world's slug: its title's, with a random suffix so that drafts never collide or reveal each other. */
export function worldSlug(title: string): string {
  return `${slugify(title).slice(0, 80) || "world"}-${randomBytes(3).toString("hex")}`;
}

/** What a list of worlds shows of each (the creator's own list, the moderation queue). */
export const WORLD_LISTING = {
  id: games.id,
  slug: games.slug,
  title: games.title,
  status: games.status,
  contentRating: games.contentRating,
};

export function listOwnWorlds(userId: string) {
  return db()
    .select({
      ...WORLD_LISTING,
      publishedVersion: games.publishedVersion,
      updatedAt: games.updatedAt,
    })
    .from(games)
    .where(eq(games.creatorId, userId))
    .orderBy(desc(games.updatedAt));
}

export type OwnWorld = typeof games.$inferSelect;

/** The creator's world; NotFoundError for anyone else's, as for one that does not exist. */
export async function findOwnWorld(userId: string, id: string): Promise<OwnWorld> {
  if (!UUID.test(id)) throw noSuchWorld();
  const [world] = await db()
    .select()
    .from(games)
    .where(and(eq(games.id, id), eq(games.creatorId, userId)));
  if (!world) throw noSuchWorld();
  return world;
}

/** Saves the form as a new draft (no id) or onto the creator's world; answers its id. */
export async function saveWorld(userId: string, form: WorldForm, id?: string): Promise<string> {
  if (id !== undefined) {
    await findOwnWorld(userId, id);
    await db()
      .update(games)
      .set({ ...form, updatedAt: new Date() })
      .where(and(eq(games.id, id), eq(games.creatorId, userId)));
    return id;
  }
  await countNewWorld(userId);
  const [created] = await db()
    .insert(games)
    .values({ ...form, slug: worldSlug(form.title), creatorId: userId, status: "draft", isActive: false })
    .returning({ id: games.id });
  if (!created) throw new Error("The world was not stored.");
  return created.id;
}

/**
 * A character card file as a new draft of the player's. Its rating starts at Mature: a card says
 * nothing of its audience, and the creator lowers it once they have read it.
 */
export async function importCharacterCard(userId: string, bytes: Buffer): Promise<string> {
  const card = readCharacterCard(bytes);
  await countNewWorld(userId);
  return db().transaction(async (tx) => {
    const slug = worldSlug(card.title);
    const [created] = await tx
      .insert(games)
      .values({
        slug,
        title: card.title,
        description: card.description,
        prompt: card.instructions,
        opening: card.opening,
        alternativeOpenings: card.alternativeOpenings,
        tags: card.tags,
        creatorNotes: card.creatorNotes,
        loreScanDepth: card.scanDepth,
        extra: card.extra,
        icon: "Sparkles",
        contentRating: "Mature",
        creatorId: userId,
        status: "draft",
        isActive: false,
      })
      .returning({ id: games.id });
    if (!created) throw new Error("The world was not stored.");
    await insertCardLore(tx, slug, card.lorebook);
    return created.id;
  });
}

/** The creator's world's lorebook (its game's), for the creator alone: anyone else's is "not found". */
export async function worldLorebook(userId: string, id: string): Promise<Lorebook & { kind: "game"; scanDepth: number }> {
  const world = await findOwnWorld(userId, id);
  return { kind: "game", gameSlug: world.slug, scanDepth: world.loreScanDepth };
}

async function asCard(world: OwnWorld): Promise<CardWorld> {
  return {
    title: world.title,
    instructions: world.prompt,
    description: world.description,
    opening: world.opening,
    alternativeOpenings: world.alternativeOpenings,
    tags: world.tags,
    creatorNotes: world.creatorNotes,
    lorebook: await cardLore(world.slug),
    scanDepth: world.loreScanDepth,
    extra: world.extra,
  };
}

/** The picture a card PNG is written into: the world's cover at its largest, else a plain card. */
async function cardPicture(world: OwnWorld): Promise<Buffer> {
  // Loaded on first use, as covers.server.ts does: most servers never write a card.
  const { default: sharp } = await import("sharp");
  if (world.coverHash) {
    const [variant] = await db()
      .select({ bytes: coverVariants.bytes })
      .from(coverVariants)
      .where(and(eq(coverVariants.hash, world.coverHash), eq(coverVariants.format, "webp")))
      .orderBy(desc(coverVariants.width))
      .limit(1);
    if (variant) return sharp(variant.bytes).png().toBuffer();
  }
  return sharp({ create: { ...PLAIN_CARD, channels: 3 } })
    .png()
    .toBuffer();
}

export type CardFormat = "json" | "png";

/** The creator's world as a character card V3 file. */
export async function exportCharacterCard(
  userId: string,
  id: string,
  format: CardFormat,
): Promise<{ body: Buffer; fileName: string; type: string }> {
  const world = await findOwnWorld(userId, id);
  const card = await asCard(world);
  const fileName = `${world.slug}.card.${format}`;
  if (format === "json") return { body: Buffer.from(JSON.stringify(characterCardV3(card), null, 2), "utf8"), fileName, type: "application/json" };
  return { body: characterCardPng(card, await cardPicture(world)), fileName, type: "image/png" };
}
