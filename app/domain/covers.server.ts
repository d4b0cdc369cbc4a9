import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { SharpConstructor } from "sharp";
import type { Queryable } from "../db/client.server.ts";
import { db } from "../db/database.server.ts";
import { coverVariants, covers, games } from "../db/schema.ts";
import type { CoverFormat } from "../lib/constants.ts";
import { COVER_MAX_BYTES, COVER_MIN_SIZE, COVER_WIDTHS, coverHeight, SOCIAL_CARD } from "../lib/covers.ts";
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
// What a file is, by its bytes.

/** Where a PNG's last chunk (IEND) ends, walking its chunks; undefined if they run past the file. */
function pngEnd(bytes: Buffer): number | undefined {
  let position = 8;
  while (position + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(position);
    const type = bytes.toString("latin1", position + 4, position + 8);
    position += 12 + length;
    if (type === "IEND") return position;
  }
  return undefined;
}

/** Where a WebP's RIFF container ends, as its header declares. */
function webpEnd(bytes: Buffer): number | undefined {
  if (bytes.length < 12 || bytes.toString("latin1", 0, 4) !== "RIFF") return undefined;
  return 8 + bytes.readUInt32LE(4);
}

/** A marker of a JPEG, where its segment's data starts and where the segment ends. */
interface JpegSegment {
  marker: number;
  dataStart: number;
  end: number;
}

/**
 * A JPEG's markers in order, skipping the entropy-coded data after each start-of-scan (where 0xFF
 * is followed by 0x00 or a restart marker); it stops where the bytes stop being a JPEG. Lazy: a
 * reader of the header stops at the scan without walking the picture's data.
 */
function* jpegSegments(bytes: Buffer): Generator<JpegSegment> {
  let position = 2;
  while (position + 1 < bytes.length) {
    if (bytes[position] !== 0xff) return;
    const marker = bytes[position + 1] ?? 0;
    if (marker === 0xff) {
      position += 1;
      continue;
    }
    if (marker === 0xd9 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      position += 2;
      yield { marker, dataStart: position, end: position };
      continue;
    }
    if (position + 3 >= bytes.length) return;
    const dataStart = position + 4;
    position += 2 + bytes.readUInt16BE(position + 2);
    if (position > bytes.length) return;
    yield { marker, dataStart, end: position };
    if (marker !== 0xda) continue;
    while (position + 1 < bytes.length) {
      const next = bytes[position + 1] ?? 0;
      if (bytes[position] === 0xff && next !== 0x00 && !(next >= 0xd0 && next <= 0xd7) && next !== 0xff) break;
      position += 1;
    }
  }
}

/** Where a JPEG's end-of-image marker ends. */
function jpegEnd(bytes: Buffer): number | undefined {
  for (const segment of jpegSegments(bytes)) if (segment.marker === 0xd9) return segment.end;
  return undefined;
}

/**
 * The data of the first segment before a JPEG's scan with this marker whose data begins with
 * `signature`, from just past the signature (an APP1 may be EXIF or XMP, an APP2 ICC or MPF).
 */
function jpegHeaderSegment(bytes: Buffer, marker: number, signature: string): { start: number; end: number } | undefined {
  for (const segment of jpegSegments(bytes)) {
    if (segment.marker === 0xda || segment.marker === 0xd9) return undefined;
    const start = segment.dataStart;
    if (segment.marker === marker && bytes.toString("latin1", start, start + signature.length) === signature) {
      return { start: start + signature.length, end: segment.end };
    }
  }
  return undefined;
}

/**
 * The pictures after the first that a JPEG's Multi-Picture Format index (CIPA DC-007, an APP2
 * `MPF\0` segment holding a TIFF-style IFD) declares: where each starts in the file and its size.
 * Ultra HDR gain maps and camera previews are declared this way.
 */
function mpfDeclaredImages(bytes: Buffer): { start: number; size: number }[] {
  const segment = jpegHeaderSegment(bytes, 0xe2, "MPF\0");
  if (!segment) return [];
  const tiff = bytes.subarray(segment.start, segment.end);
  const byteOrder = tiff.toString("latin1", 0, 4);
  if (byteOrder !== "MM\0*" && byteOrder !== "II*\0") return [];
  const bigEndian = byteOrder === "MM\0*";
  const u16 = (at: number) => (bigEndian ? tiff.readUInt16BE(at) : tiff.readUInt16LE(at));
  const u32 = (at: number) => (bigEndian ? tiff.readUInt32BE(at) : tiff.readUInt32LE(at));
  try {
    const ifd = u32(4);
    for (let tag = ifd + 2; tag < ifd + 2 + 12 * u16(ifd); tag += 12) {
      if (u16(tag) !== 0xb002) continue; // MP Entry: 16 bytes a picture (attribute, size, offset, two dependants).
      const entries = u32(tag + 8);
      const images: { start: number; size: number }[] = [];
      for (let entry = entries; entry + 16 <= entries + u32(tag + 4); entry += 16) {
        // The first picture is the one sharp read (offset 0); the others' offsets count from the TIFF header.
        const offset = u32(entry + 8);
        if (offset !== 0) images.push({ start: segment.start + offset, size: u32(entry + 4) });
      }
      return images;
    }
  } catch (error) {
    // An index that points outside its own segment declares nothing (Buffer's reads throw there).
    if (error instanceof RangeError) return [];
    throw error;
  }
  return [];
}

/**
 * A motion photo's XMP (Google's Motion Photo format, and the older MicroVideo) saying a video is
 * appended. Matched by local name: XMP prefixes are free (the spec writes `Camera:`, Pixels write
 * `GCamera:`), and the value may be an attribute or an element.
 */
const MOTION_PHOTO_DECLARATION = /:(?:MotionPhoto|MicroVideo)(?:\s*=\s*["']1["']|>\s*1\s*<)|:Mime(?:\s*=\s*["']video\/mp4["']|>\s*video\/mp4\s*<)/;

function declaresMotionPhoto(bytes: Buffer): boolean {
  const xmp = jpegHeaderSegment(bytes, 0xe1, "http://ns.adobe.com/xap/1.0/\0");
  return xmp !== undefined && MOTION_PHOTO_DECLARATION.test(bytes.toString("utf8", xmp.start, xmp.end));
}

/** A top-level ISO BMFF box's type is four printable ASCII letters; other bytes there are no box. */
const ISO_BOX_TYPE = /^[\x20-\x7e]{4}$/;

/**
 * Where the ISO BMFF top-level boxes (an MP4) that begin at `start` with `ftyp` end: each box is a
 * 32-bit size and a four-letter type, size 1 meaning a 64-bit size follows and 0 "to the end".
 */
function isoBoxesEnd(bytes: Buffer, start: number): number | undefined {
  if (bytes.toString("latin1", start + 4, start + 8) !== "ftyp") return undefined;
  let position = start;
  while (position + 8 <= bytes.length) {
    if (!ISO_BOX_TYPE.test(bytes.toString("latin1", position + 4, position + 8))) return undefined;
    const size = bytes.readUInt32BE(position);
    if (size === 0) return bytes.length;
    const boxSize = size === 1 && position + 16 <= bytes.length ? Number(bytes.readBigUInt64BE(position + 8)) : size;
    if (boxSize < (size === 1 ? 16 : 8)) return undefined;
    position += boxSize;
  }
  return position;
}

/**
 * Where a JPEG file ends by its own account: its picture, then what it declares comes after, as
 * phones write it: whole JPEGs where its MPF index puts them (a gain map, a preview, a depth map),
 * then, if its XMP declares a motion photo, an MP4 to the end of the file. A trailing JPEG must sit
 * where the index says and reach its EOI at the size the index says, not merely be a whole JPEG:
 * cameras and Android's Ultra HDR encoder write that index, a JPEG pasted after another has none,
 * so asking for it costs no MPF photo and keeps the rule "declared" rather than "anything that
 * parses". What is inside is not inspected (a JPEG or an MP4 can carry anything, as the primary
 * can): the file must be the shape its own metadata says, and nothing of it is kept.
 */
function jpegDeclaredEnd(bytes: Buffer): number | undefined {
  const pictureEnd = jpegEnd(bytes);
  if (pictureEnd === undefined || pictureEnd >= bytes.length) return pictureEnd;
  const declaredImages = mpfDeclaredImages(bytes);
  let position = pictureEnd;
  for (;;) {
    const image = declaredImages.find((candidate) => candidate.start === position);
    if (!image) break;
    const end = position + image.size;
    if (end > bytes.length || bytes[position] !== 0xff || bytes[position + 1] !== 0xd8) return position;
    if (jpegEnd(bytes.subarray(position, end)) !== image.size) return position;
    position = end;
  }
  if (position < bytes.length && declaresMotionPhoto(bytes) && isoBoxesEnd(bytes, position) === bytes.length) return bytes.length;
  return position;
}

const CONTAINER_END: Record<string, (bytes: Buffer) => number | undefined> = { png: pngEnd, webp: webpEnd, jpeg: jpegDeclaredEnd };

/**
 * Markup and script that make a picture file something else too (an HTML page or a PHP script in
 * a comment or a text chunk). Long enough that compressed picture data never holds one by chance.
 */
const FOREIGN_CONTENT = /<script|<html|<\?php|<!doctype|<iframe|<body|<object|<embed/i;

/**
 * A polyglot is a file that is a valid picture and also something else: a ZIP, a page or a script
 * after the picture's end, or markup hidden inside it. We re-encode, so such bytes are never
 * served; we refuse the file anyway so nothing of it is stored, and so the admin learns it. A
 * phone's JPEG ends after what it declares comes after its picture (jpegDeclaredEnd): refusing
 * that would refuse ordinary Android and iPhone photos, and sharp reads only the first picture.
 */
function refusePolyglot(bytes: Buffer, format: string) {
  const end = CONTAINER_END[format]?.(bytes);
  if (end === undefined || end > bytes.length)
    throw refuse("The picture is damaged: its data ends before the file does. Export it again and upload it.");
  if (end < bytes.length) {
    throw refuse("The file has extra data after the picture, so it may be more than a picture. Export it again as a plain JPEG, PNG or WebP.");
  }
  if (FOREIGN_CONTENT.test(bytes.toString("latin1"))) {
    throw refuse("The file holds web page or script code inside the picture. Export it again as a plain JPEG, PNG or WebP.");
  }
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
  refusePolyglot(bytes, metadata.format);

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

async function lockActiveGame(tx: Queryable, gameId: string) {
  const [game] = await tx
    .select({ coverHash: games.coverHash })
    .from(games)
    .where(and(eq(games.id, gameId), eq(games.isActive, true)))
    .for("update");
  if (!game) throw new NotFoundError("This game no longer exists. It may have been deleted.");
  return game;
}

/** Makes an upload the game's cover: the variants, the game's reference and the old cover's removal in one transaction. */
export async function setGameCover(gameId: string, upload: Buffer): Promise<{ coverHash: string }> {
  const cover = await prepareCover(upload);
  await db().transaction(async (tx) => {
    const game = await lockActiveGame(tx, gameId);
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
export async function removeGameCover(gameId: string): Promise<{ coverHash: null }> {
  await db().transaction(async (tx) => {
    const game = await lockActiveGame(tx, gameId);
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
