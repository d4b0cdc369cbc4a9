import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { SharpConstructor } from "sharp";
import type { Queryable } from "../db/client.server.ts";
import { db } from "../db/database.server.ts";
import { coverVariants, covers, games } from "../db/schema.ts";
import type { CoverFormat } from "../lib/constants.ts";
import { COVER_MAX_BYTES, COVER_MIN_SIZE, COVER_WIDTHS, coverHeight, SOCIAL_CARD } from "../lib/covers.ts";
import { polyglotProblem } from "./cover-bytes.server.ts";
import { DomainError, InvalidInputError, NotFoundError } from "./errors.server.ts";

/**
 * Uploaded covers (docs/decisions/033): checked by their content, re-encoded into AVIF and WebP at
 * the widths the pages use and a JPEG link-preview card, and kept in the database — the same on
 * every instance, PGlite or PostgreSQL. What was uploaded is never kept or served: only what
 * sharp wrote, without the original's metadata.
 */

/** A picture larger than this (about 8K × 6K) is refused before it is decoded. */
const COVER_MAX_PIXELS = 50_000_000;
/** Part of every cover's hash: a change to how covers are encoded gives new addresses. */
const ENCODING_REVISION = "1";
const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp"]);

let sharpModule: Promise<SharpConstructor> | undefined;

/** Loaded on first use: libvips costs memory that a server with no upload or preview never needs. */
function loadSharp(): Promise<SharpConstructor> {
  const loading =
    sharpModule ??
    import("sharp").then(({ default: sharp }) => {
      // The server keeps its own small cache of encoded bytes; libvips's cache of decoded
      // pictures would hold tens of megabytes for pictures seen once.
      sharp.cache(false);
      return sharp;
    });
  sharpModule = loading;
  return loading;
}

export class CoverTooLargeError extends DomainError {
  override name = "CoverTooLargeError";
  constructor() {
    super("payload_too_large", `The picture is larger than ${COVER_MAX_BYTES / (1024 * 1024)} MB. Export a smaller one and upload it again.`);
  }
}

function refuse(message: string): InvalidInputError {
  return new InvalidInputError(message, "cover");
}

function tooManyPixels() {
  return refuse(`The picture has more than ${COVER_MAX_PIXELS / 1_000_000} megapixels. Export it smaller and upload it again.`);
}

// ---------------------------------------------------------------------------------------------
// Re-encoding.

interface Variant {
  format: CoverFormat;
  width: number;
  height: number;
  bytes: Buffer;
}

export interface PreparedCover {
  hash: string;
  variants: Variant[];
}

let encoding: Promise<unknown> = Promise.resolve();

/** One cover at a time per instance: AVIF encoding uses every core for a second or two. */
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const result = encoding.then(work, work);
  encoding = result.catch(() => undefined);
  return result;
}

/** Checks an upload by its content and writes every variant the site serves. */
export async function prepareCover(bytes: Buffer): Promise<PreparedCover> {
  if (bytes.length > COVER_MAX_BYTES) throw new CoverTooLargeError();
  if (bytes.length === 0) throw refuse("Choose a picture to upload: the file is empty.");
  const sharp = await loadSharp();
  const input = { limitInputPixels: COVER_MAX_PIXELS, failOn: "error" as const, autoOrient: true };
  const metadata = await sharp(bytes, input)
    .metadata()
    .catch((error: unknown) => {
      if (error instanceof Error && /pixel limit/i.test(error.message)) throw tooManyPixels();
      return undefined;
    });
  if (!metadata || !ACCEPTED_FORMATS.has(metadata.format)) throw refuse("The file is not a JPEG, PNG or WebP picture. Upload one of those.");
  if ((metadata.pages ?? 1) > 1) throw refuse("Animated pictures can't be covers. Upload a still JPEG, PNG or WebP.");
  const { width, height } = metadata.autoOrient;
  if (width * height > COVER_MAX_PIXELS) throw tooManyPixels();
  if (width < COVER_MIN_SIZE.width || height < COVER_MIN_SIZE.height) {
    throw refuse(
      `The picture is ${width} × ${height} pixels; covers need at least ${COVER_MIN_SIZE.width} × ${COVER_MIN_SIZE.height} so they stay sharp on the game page.`,
    );
  }
  const polyglot = polyglotProblem(bytes, metadata.format);
  if (polyglot) throw refuse(polyglot);

  return oneAtATime(async () => {
    const largest = COVER_WIDTHS[COVER_WIDTHS.length - 1] ?? SOCIAL_CARD.width;
    // Decoded once, cropped to 16:9 around what draws the eye; every variant is made from this.
    const master = await sharp(bytes, input)
      .resize(largest, coverHeight(largest), { fit: "cover", position: "attention" })
      .toColourspace("srgb")
      .raw()
      .toBuffer({ resolveWithObject: true })
      .catch(() => {
        throw refuse("The picture is damaged and could not be read. Export it again and upload it.");
      });
    const raw = { raw: { width: master.info.width, height: master.info.height, channels: master.info.channels } };
    const variants: Variant[] = [];
    for (const width of COVER_WIDTHS) {
      const height = coverHeight(width);
      const sized = () => sharp(master.data, raw).resize(width, height);
      variants.push({ format: "avif", width, height, bytes: await sized().avif({ quality: 55, effort: 3 }).toBuffer() });
      variants.push({ format: "webp", width, height, bytes: await sized().webp({ quality: 80 }).toBuffer() });
    }
    const card = await sharp(master.data, raw)
      .resize(SOCIAL_CARD.width, SOCIAL_CARD.height, { fit: "cover", position: "attention" })
      .jpeg({ quality: 84, mozjpeg: true })
      .toBuffer();
    variants.push({ format: "jpeg", ...SOCIAL_CARD, bytes: card });
    const hash = createHash("sha256").update(ENCODING_REVISION).update(bytes).digest("hex").slice(0, 32);
    return { hash, variants };
  });
}

// ---------------------------------------------------------------------------------------------
// Storing.

/** The cover's rows, once no game shows it any more (its variants go with it). */
async function deleteIfUnused(tx: Queryable, hash: string) {
  await tx.delete(covers).where(and(eq(covers.hash, hash), sql`not exists (select 1 from ${games} where ${games.coverHash} = ${hash})`));
}

/**
 * Whose game's cover changes: an admin's change is to an active game; a creator's, to a world of
 * theirs, a draft included (issue 36).
 */
export type CoverOwner = { admin: true } | { creatorId: string };

async function lockActiveGame(tx: Queryable, gameId: string, owner: CoverOwner) {
  const [game] = await tx
    .select({ coverHash: games.coverHash })
    .from(games)
    .where(and(eq(games.id, gameId), "creatorId" in owner ? eq(games.creatorId, owner.creatorId) : eq(games.isActive, true)))
    .for("update");
  if (!game) throw new NotFoundError("This game no longer exists. It may have been deleted.");
  return game;
}

/** Makes an upload the game's cover: the variants, the game's reference and the old cover's removal in one transaction. */
export async function setGameCover(gameId: string, upload: Buffer, owner: CoverOwner = { admin: true }): Promise<{ coverHash: string }> {
  const cover = await prepareCover(upload);
  await db().transaction(async (tx) => {
    const game = await lockActiveGame(tx, gameId, owner);
    await tx.insert(covers).values({ hash: cover.hash }).onConflictDoNothing();
    await tx
      .insert(coverVariants)
      .values(cover.variants.map((variant) => ({ hash: cover.hash, ...variant })))
      .onConflictDoNothing();
    await tx.update(games).set({ coverHash: cover.hash }).where(eq(games.id, gameId));
    if (game.coverHash && game.coverHash !== cover.hash) await deleteIfUnused(tx, game.coverHash);
  });
  return { coverHash: cover.hash };
}

/** Back to the generated art. */
export async function removeGameCover(gameId: string, owner: CoverOwner = { admin: true }): Promise<{ coverHash: null }> {
  await db().transaction(async (tx) => {
    const game = await lockActiveGame(tx, gameId, owner);
    if (!game.coverHash) return;
    await tx.update(games).set({ coverHash: null }).where(eq(games.id, gameId));
    await deleteIfUnused(tx, game.coverHash);
  });
  return { coverHash: null };
}

// ---------------------------------------------------------------------------------------------
// Serving.

/**
 * Recently served pictures, by total size: a catalogue page asks for the same few covers over and
 * over, and each is a few tens of kilobytes. Small on purpose (the server's heap is bounded).
 */
class ByteCache {
  private readonly entries = new Map<string, Buffer>();
  private size = 0;
  private readonly maxBytes: number;
  private readonly maxEntryBytes: number;
  constructor(maxBytes: number, maxEntryBytes: number) {
    this.maxBytes = maxBytes;
    this.maxEntryBytes = maxEntryBytes;
  }

  get(key: string): Buffer | undefined {
    const bytes = this.entries.get(key);
    if (bytes) {
      this.entries.delete(key);
      this.entries.set(key, bytes);
    }
    return bytes;
  }

  set(key: string, bytes: Buffer) {
    if (bytes.length > this.maxEntryBytes || this.entries.has(key)) return;
    this.entries.set(key, bytes);
    this.size += bytes.length;
    for (const [oldest, old] of this.entries) {
      if (this.size <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.size -= old.length;
    }
  }
}

const served = new ByteCache(6 * 1024 * 1024, 512 * 1024);

/** One stored variant of an uploaded cover. */
export async function readCoverVariant(hash: string, format: CoverFormat, width: number): Promise<Buffer | undefined> {
  const key = `${hash}-${width}.${format}`;
  const cached = served.get(key);
  if (cached) return cached;
  const [row] = await db()
    .select({ bytes: coverVariants.bytes })
    .from(coverVariants)
    .where(and(eq(coverVariants.hash, hash), eq(coverVariants.format, format), eq(coverVariants.width, width)));
  if (row) served.set(key, row.bytes);
  return row?.bytes;
}

/**
 * A picture made on request (generated art, its link-preview card), kept under its address: the
 * address names a version, so what is kept never goes stale.
 */
export async function madeOnce(path: string, make: () => Buffer | Promise<Buffer>): Promise<Buffer> {
  const cached = served.get(path);
  if (cached) return cached;
  const made = await make();
  served.set(path, made);
  return made;
}

/** Generated art (an SVG document) drawn as the 1200×630 JPEG link-preview card. */
export async function socialCardFromArt(svg: string): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(Buffer.from(svg)).resize(SOCIAL_CARD.width, SOCIAL_CARD.height, { fit: "cover" }).jpeg({ quality: 84, mozjpeg: true }).toBuffer();
}
