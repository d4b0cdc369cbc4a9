import { crc32 } from "node:zlib";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coverVariants, covers, games } from "#app/db/schema.ts";
import { COVER_MAX_BYTES, COVER_WIDTHS, coverHeight } from "#app/lib/covers.ts";
import { makeAdmin, signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { decodeEntities, meta } from "#tests/helpers/html.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";

/** Cover art (docs/decisions/033): generated art for every game, and uploads checked by content. */

let server: TestServer;
let admin: TestAccount;
let player: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signUp(server);
  await makeAdmin(server, admin);
  player = await signUp(server);
});

afterAll(async () => {
  await server.close();
});

const db = () => server.connection.db;

async function gameId(slug: string) {
  const [game] = await db().select({ id: games.id }).from(games).where(eq(games.slug, slug));
  return game!.id;
}

async function upload(slug: string, bytes: Uint8Array, { type = "image/png", cookie = admin.cookie } = {}) {
  const response = await server.fetch(`/api/admin/games/${await gameId(slug)}/cover`, {
    method: "PUT",
    headers: { Cookie: cookie, "Content-Type": type },
    body: new Uint8Array(bytes),
  });
  return { status: response.status, body: await response.json() };
}

/** A picture with something in it (a flat colour would compress to nothing and hide mistakes). */
function picture(width: number, height: number) {
  const channels = 3;
  const pixels = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * channels;
      pixels[at] = (x * 255) / width;
      pixels[at + 1] = (y * 255) / height;
      pixels[at + 2] = (x ^ y) & 0xff;
    }
  }
  return sharp(pixels, { raw: { width, height, channels } });
}

const png = (width = 1600, height = 900) => picture(width, height).png().toBuffer();

/** A PNG chunk (length, type, data, CRC). */
function chunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A JPEG marker segment: the marker, a 16-bit length that counts itself, the data. */
function jpegSegment(marker: number, data: Buffer) {
  const header = Buffer.from([0xff, marker, 0, 0]);
  header.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([header, data]);
}

const MPF_TAGS = 3;
/** Where the MP entries start in the MPF TIFF data: after the header, the IFD's count, tags and next-IFD offset. */
const MPF_ENTRIES_AT = 8 + 2 + MPF_TAGS * 12 + 4;

/**
 * An APP2 Multi-Picture Format segment (CIPA DC-007), as Android's Ultra HDR encoder and cameras
 * write it: `MPF\0`, a TIFF header in either byte order, one IFD (MPFVersion "0100",
 * NumberOfImages, MPEntry) and the 16-byte MP entries: attribute, size, offset from the TIFF
 * header (0 for the first picture), two dependent-picture entry numbers.
 */
function mpfSegment(images: { size: number; offset: number }[], byteOrder: "big-endian" | "little-endian") {
  const tiff = Buffer.alloc(MPF_ENTRIES_AT + 16 * images.length);
  const bigEndian = byteOrder === "big-endian";
  const u16 = (value: number, at: number) => (bigEndian ? tiff.writeUInt16BE(value, at) : tiff.writeUInt16LE(value, at));
  const u32 = (value: number, at: number) => (bigEndian ? tiff.writeUInt32BE(value, at) : tiff.writeUInt32LE(value, at));
  tiff.write(bigEndian ? "MM\0*" : "II*\0", 0, "latin1");
  u32(8, 4);
  u16(MPF_TAGS, 8);
  const tag = (index: number, id: number, type: number, count: number, value: number | string) => {
    const at = 10 + index * 12;
    u16(id, at);
    u16(type, at + 2);
    u32(count, at + 4);
    if (typeof value === "string") tiff.write(value, at + 8, "latin1");
    else u32(value, at + 8);
  };
  const [UNDEFINED, LONG] = [7, 4];
  tag(0, 0xb000, UNDEFINED, 4, "0100");
  tag(1, 0xb001, LONG, 1, images.length);
  tag(2, 0xb002, UNDEFINED, 16 * images.length, MPF_ENTRIES_AT);
  images.forEach(({ size, offset }, index) => {
    const at = MPF_ENTRIES_AT + 16 * index;
    // The first is the representative baseline primary picture; a gain map is a plain dependent one.
    u32(index === 0 ? 0x20030000 : 0, at);
    u32(size, at + 4);
    u32(offset, at + 8);
  });
  return jpegSegment(0xe2, Buffer.concat([Buffer.from("MPF\0", "latin1"), tiff]));
}

/**
 * A multi-picture JPEG: the primary with an MPF index right after its SOI, then `appended` laid end
 * to end, each declared in the index where it is and at its size (whatever it really holds).
 */
function multiPicture(primary: Buffer, appended: Buffer[], byteOrder: "big-endian" | "little-endian" = "big-endian") {
  const segmentLength = 4 + 4 + MPF_ENTRIES_AT + 16 * (1 + appended.length);
  const tiffHeaderAt = 2 + 4 + 4; // SOI, the segment's marker and length, "MPF\0".
  const images = [{ size: primary.length + segmentLength, offset: 0 }];
  let position = primary.length + segmentLength;
  for (const picture of appended) {
    images.push({ size: picture.length, offset: position - tiffHeaderAt });
    position += picture.length;
  }
  const segment = mpfSegment(images, byteOrder);
  expect(segment.length).toBe(segmentLength);
  return Buffer.concat([primary.subarray(0, 2), segment, primary.subarray(2), ...appended]);
}

/** An ISO BMFF box: a 32-bit size, a four-letter type, the data; or size 1 and a 64-bit size after the type. */
function isoBox(type: string, data: Buffer, { largeSize = false } = {}) {
  const header = Buffer.alloc(largeSize ? 16 : 8);
  header.write(type, 4, "latin1");
  if (largeSize) {
    header.writeUInt32BE(1);
    header.writeBigUInt64BE(BigInt(16 + data.length), 8);
  } else header.writeUInt32BE(8 + data.length);
  return Buffer.concat([header, data]);
}

/** The start of an MP4 as a phone appends it: `ftyp`, then the media data (here filler, not video). */
function mp4({ largeSize = false } = {}) {
  const media = Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 37) & 0xff));
  return Buffer.concat([isoBox("ftyp", Buffer.from("mp42\0\0\0\0isommp42", "latin1")), isoBox("mdat", media, { largeSize })]);
}

/**
 * XMP as Google's camera writes it: the MotionPhoto flag, and a Container directory listing the
 * primary and each appended item (mime, semantic, length), the video last.
 */
function motionPhotoXmp({ flag = true, directory = [] as [mime: string, semantic: string, length: number][] } = {}) {
  const items = [["image/jpeg", "Primary", 0] as const, ...directory].map(
    ([mime, semantic, length]) =>
      `<rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="${mime}" Item:Semantic="${semantic}" Item:Length="${length}"/></rdf:li>`,
  );
  return [
    `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">`,
    `<rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/"`,
    ` xmlns:Container="http://ns.google.com/photos/1.0/container/" xmlns:Item="http://ns.google.com/photos/1.0/container/item/"`,
    flag ? ` GCamera:MotionPhoto="1" GCamera:MotionPhotoVersion="1" GCamera:MotionPhotoPresentationTimestampUs="0">` : ">",
    directory.length > 0 ? `<Container:Directory><rdf:Seq>${items.join("")}</rdf:Seq></Container:Directory>` : "",
    `</rdf:Description></rdf:RDF></x:xmpmeta>`,
  ].join("");
}

/** A gain map as Ultra HDR stores it: a small greyscale JPEG. */
const gainMap = () => picture(400, 225).greyscale().jpeg().toBuffer();

/** The SVG a page's card shows for a game, found in the page's HTML. */
function artPath(html: string, slug: string) {
  return new RegExp(`/covers/art/${slug}-[0-9a-f]{16}\\.svg`).exec(html)?.[0];
}

async function storedState(slug: string) {
  const [game] = await db().select({ coverHash: games.coverHash }).from(games).where(eq(games.slug, slug));
  const [count] = await db()
    .select({ covers: sql<number>`count(*)::int` })
    .from(covers);
  const [variants] = await db()
    .select({ variants: sql<number>`count(*)::int` })
    .from(coverVariants);
  return { coverHash: game!.coverHash, covers: count!.covers, variants: variants!.variants };
}

describe("generated art", () => {
  it("gives every seeded game its own art, served as an SVG that can run nothing and is cached for ever", async () => {
    const seeded = await db().select({ slug: games.slug, title: games.title }).from(games).where(eq(games.isActive, true));
    expect(seeded.length).toBeGreaterThanOrEqual(5);
    const html = await (await server.fetch("/games")).text();
    const documents: string[] = [];
    const glows = new Set<string>();
    for (const game of seeded) {
      const path = artPath(html, game.slug);
      expect(path, game.slug).toBeDefined();
      const response = await server.fetch(path!);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/svg+xml");
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
      const svg = await response.text();
      expect(svg).toContain(`<title>${game.title}</title>`);
      expect(svg).not.toContain("NaN");
      // A real picture at the size the pages use, drawn without a browser (as the link-preview card is).
      const drawn = await sharp(Buffer.from(svg)).metadata();
      expect({ width: drawn.width, height: drawn.height }).toEqual({ width: 1200, height: 675 });
      documents.push(svg);
      glows.add(/stop-color="(#[0-9a-f]{6})"/.exec(svg)![1]!);
      // The same game gets the same art every time.
      expect(await (await server.fetch(path!)).text()).toBe(svg);
    }
    expect(new Set(documents).size).toBe(seeded.length);
    expect(glows.size).toBe(seeded.length);
  });

  it("escapes the title and sends an old address to the current one", async () => {
    const created = await server.fetch("/api/admin/games", {
      method: "POST",
      headers: { Cookie: admin.cookie, "Content-Type": "application/json" },
      body: JSON.stringify({ title: `<script>alert("x")</script> & Co`, slug: "escape-test", description: "A test.", prompt: "Test." }),
    });
    expect(created.status).toBe(201);
    const path = artPath(await (await server.fetch("/games")).text(), "escape-test")!;
    const svg = await (await server.fetch(path)).text();
    expect(svg).not.toContain("<script");
    expect(svg).toContain("<title>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co</title>");

    const stale = await server.fetch("/covers/art/escape-test-0000000000000000.svg");
    expect(stale.status).toBe(302);
    expect(stale.headers.get("location")).toBe(path);
    expect((await server.fetch("/covers/art/no-such-game-0000000000000000.svg")).status).toBe(404);
  });

  it("makes a 1200×630 JPEG link-preview card per game from its art", async () => {
    const html = await (await server.fetch("/game/empress-simulator")).text();
    const image = meta(html, "og:image")!;
    expect(image).toMatch(/\/covers\/og\/empress-simulator-[0-9a-f]{16}\.jpg$/);
    const response = await server.fetch(new URL(decodeEntities(image)).pathname);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    const card = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect({ format: card.format, width: card.width, height: card.height }).toEqual({ format: "jpeg", width: 1200, height: 630 });
  });
});

describe("uploads", () => {
  it("re-encodes an upload into AVIF and WebP at every width and a JPEG card, without its metadata", async () => {
    const jpeg = await picture(2000, 1500)
      .jpeg()
      .withExif({ IFD0: { Copyright: "secret camera owner", Artist: "someone" } })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    // The declared type is not believed: the bytes are a JPEG.
    const { status, body } = await upload("celebrity-life", jpeg, { type: "image/png" });
    expect(status).toBe(200);
    expect(body.coverHash).toMatch(/^[0-9a-f]{32}$/);
    const hash = body.coverHash as string;

    for (const width of COVER_WIDTHS) {
      for (const [extension, format, type] of [
        ["avif", "heif", "image/avif"],
        ["webp", "webp", "image/webp"],
      ] as const) {
        const response = await server.fetch(`/covers/${hash}-${width}.${extension}`);
        expect(response.status).toBe(200);
        expect(response.headers.get("content-type")).toBe(type);
        expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
        const stored = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
        expect({ format: stored.format, width: stored.width, height: stored.height }).toEqual({ format, width, height: coverHeight(width) });
        expect(stored.exif).toBeUndefined();
      }
    }
    const card = await sharp(Buffer.from(await (await server.fetch(`/covers/${hash}-1200.jpg`)).arrayBuffer())).metadata();
    expect({ format: card.format, width: card.width, height: card.height, exif: card.exif }).toEqual({
      format: "jpeg",
      width: 1200,
      height: 630,
      exif: undefined,
    });

    // The card, the game page's hero and its link preview show the upload.
    const catalogue = await (await server.fetch("/games")).text();
    expect(catalogue).toContain(`srcSet="/covers/${hash}-400.avif 400w, /covers/${hash}-800.avif 800w, /covers/${hash}-1200.avif 1200w"`);
    expect(artPath(catalogue, "celebrity-life")).toBeUndefined();
    const page = await (await server.fetch("/game/celebrity-life")).text();
    expect(page).toMatch(
      new RegExp(
        `<img[^>]*src="/covers/${hash}-800.webp"[^>]*fetchPriority="high"|<img[^>]*fetchPriority="high"[^>]*src="/covers/${hash}-800.webp"`,
      ),
    );
    expect(meta(page, "og:image")).toMatch(new RegExp(`/covers/og/celebrity-life-${hash}\\.jpg$`));
    const og = await server.fetch(`/covers/og/celebrity-life-${hash}.jpg`);
    expect(og.status).toBe(200);
    expect(Buffer.from(await og.arrayBuffer()).equals(Buffer.from(await (await server.fetch(`/covers/${hash}-1200.jpg`)).arrayBuffer()))).toBe(
      true,
    );
  });

  it("replaces a cover (the old one's rows go) and removes it, back to the generated art", async () => {
    const first = await upload("mary-sue-campus", await png(1600, 900));
    const second = await upload("mary-sue-campus", await picture(1200, 800).webp().toBuffer(), { type: "image/webp" });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(await db().select().from(covers).where(eq(covers.hash, first.body.coverHash))).toEqual([]);
    expect((await server.fetch(`/covers/${first.body.coverHash}-400.avif`)).status).toBe(404);

    const removed = await server.fetch(`/api/admin/games/${await gameId("mary-sue-campus")}/cover`, {
      method: "DELETE",
      headers: { Cookie: admin.cookie },
    });
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ coverHash: null });
    expect((await storedState("mary-sue-campus")).coverHash).toBeNull();
    expect(await db().select().from(coverVariants).where(eq(coverVariants.hash, second.body.coverHash))).toEqual([]);
    expect(artPath(await (await server.fetch("/games")).text(), "mary-sue-campus")).toBeDefined();
  });

  /** Uploads a phone's photo as a game's cover: stored, pointed at by the game, and served. */
  async function expectAccepted(bytes: Buffer) {
    const { status, body } = await upload("matriarch-harem-simulator", bytes, { type: "image/jpeg" });
    expect({ status, error: body.error }).toEqual({ status: 200, error: undefined });
    const hash = body.coverHash as string;
    expect((await storedState("matriarch-harem-simulator")).coverHash).toBe(hash);
    const served = await server.fetch(`/covers/${hash}-800.webp`);
    expect(served.status).toBe(200);
    const stored = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect({ format: stored.format, width: stored.width, height: stored.height }).toEqual({
      format: "webp",
      width: 800,
      height: coverHeight(800),
    });
  }

  it("accepts an Android Ultra HDR photo: a gain map JPEG after the picture, where its MPF index puts it", async () => {
    await expectAccepted(multiPicture(await picture(1600, 1200).jpeg().toBuffer(), [await gainMap()], "little-endian"));
  });

  it("accepts a Google motion photo: an MP4 after the picture that its XMP declares", async () => {
    const still = await picture(1600, 1200).jpeg().withXmp(motionPhotoXmp()).toBuffer();
    await expectAccepted(Buffer.concat([still, mp4()]));
  });

  it("accepts an Ultra HDR motion photo: the gain map where the MPF index puts it, then the video its Container directory lists", async () => {
    const map = await gainMap();
    const video = mp4({ largeSize: true });
    const xmp = motionPhotoXmp({
      flag: false,
      directory: [
        ["image/jpeg", "GainMap", map.length],
        ["video/mp4", "MotionPhoto", video.length],
      ],
    });
    const still = await picture(1600, 1200).jpeg().withXmp(xmp).toBuffer();
    await expectAccepted(Buffer.concat([multiPicture(still, [map], "big-endian"), video]));
  });

  it("refuses what is not a plain JPEG, PNG or WebP of a sensible size with 4xx and a sentence, storing nothing", async () => {
    const valid = await png();
    const iend = valid.length - 12;
    const largePixels = Buffer.concat([
      valid.subarray(0, 8),
      chunk("IHDR", Buffer.from([0, 0, 0xea, 0x60, 0, 0, 0xea, 0x60, 8, 2, 0, 0, 0])), // 60000 × 60000
      valid.subarray(33),
    ]);
    const jpeg = await picture(900, 600).jpeg().toBuffer();
    const map = await gainMap();
    const zip = Buffer.from("PK\x03\x04\x14\x00\x00\x00payload.html");
    const motionStill = await picture(900, 600).jpeg().withXmp(motionPhotoXmp()).toBuffer();
    const cases: [string, Uint8Array, string, number, RegExp][] = [
      ["a GIF", await picture(900, 600).gif().toBuffer(), "image/gif", 400, /not a JPEG, PNG or WebP/],
      ["an SVG", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="900" height="600"/>'), "image/png", 400, /not a JPEG, PNG or WebP/],
      ["text named as a PNG", Buffer.from("hello, this is not a picture"), "image/png", 400, /not a JPEG, PNG or WebP/],
      [
        "a GIF that is also JavaScript",
        Buffer.from('GIF89a/*\x01\x00\x01\x00\x00\xff\x00,*/=alert("x");'),
        "image/gif",
        400,
        /not a JPEG, PNG or WebP/,
      ],
      [
        "a PNG with a ZIP after it",
        Buffer.concat([valid, Buffer.from("PK\x03\x04\x14\x00\x00\x00payload.html")]),
        "image/png",
        400,
        /extra data after the picture/,
      ],
      [
        "a JPEG with a page after it",
        Buffer.concat([await picture(900, 600).jpeg().toBuffer(), Buffer.from("<html><script>alert(1)</script>")]),
        "image/jpeg",
        400,
        /extra data/,
      ],
      ["a JPEG whose MPF index declares a picture where a ZIP is", multiPicture(jpeg, [zip]), "image/jpeg", 400, /extra data/],
      [
        "a JPEG whose MPF index declares a picture where a page is",
        multiPicture(jpeg, [Buffer.from("<html><script>alert(1)</script>")], "little-endian"),
        "image/jpeg",
        400,
        /extra data/,
      ],
      ["a JPEG with a second JPEG after it that no MPF index declares", Buffer.concat([jpeg, map]), "image/jpeg", 400, /extra data/],
      ["a JPEG with its declared gain map, then a ZIP", Buffer.concat([multiPicture(jpeg, [map]), zip]), "image/jpeg", 400, /extra data/],
      [
        "a JPEG whose declared gain map ends before the size its index gives",
        multiPicture(jpeg, [Buffer.concat([map, zip])]),
        "image/jpeg",
        400,
        /extra data/,
      ],
      ["a JPEG with an MP4 after it that its XMP does not declare", Buffer.concat([jpeg, mp4()]), "image/jpeg", 400, /extra data/],
      ["a motion photo with a ZIP where its MP4 should be", Buffer.concat([motionStill, zip]), "image/jpeg", 400, /extra data/],
      ["a motion photo whose MP4 boxes stop short of the file's end", Buffer.concat([motionStill, mp4(), zip]), "image/jpeg", 400, /extra data/],
      [
        "a motion photo whose MP4 boxes run past the file's end",
        Buffer.concat([motionStill, mp4().subarray(0, -100)]),
        "image/jpeg",
        400,
        /extra data/,
      ],
      [
        "a WebP with bytes after it",
        Buffer.concat([await picture(900, 600).webp().toBuffer(), Buffer.from("#!/bin/sh\nrm -rf /\n")]),
        "image/webp",
        400,
        /extra data/,
      ],
      [
        "a PNG with a script in a text chunk",
        Buffer.concat([
          valid.subarray(0, iend),
          chunk("tEXt", Buffer.from("Comment\0<script>alert(document.cookie)</script>")),
          valid.subarray(iend),
        ]),
        "image/png",
        400,
        /web page or script code/,
      ],
      ["a PNG cut short", valid.subarray(0, valid.length - 200), "image/png", 400, /damaged|not a JPEG/],
      ["a picture of absurd size", largePixels, "image/png", 400, /more than 50 megapixels/],
      ["a picture too small for the hero", await png(640, 360), "image/png", 400, /at least 800 × 450/],
      [
        "an animated WebP",
        await sharp([await png(900, 600), await picture(900, 600).flip().png().toBuffer()], { join: { animated: true } })
          .webp()
          .toBuffer(),
        "image/webp",
        400,
        /Animated/,
      ],
      ["nothing", Buffer.alloc(0), "image/png", 400, /empty|no file/],
      ["a file over 10 MB", Buffer.alloc(COVER_MAX_BYTES + 1, 1), "image/png", 413, /too large|larger than 10 MB/],
    ];
    const before = await storedState("cultivation-simulator");
    for (const [what, bytes, type, status, message] of cases) {
      const answer = await upload("cultivation-simulator", bytes, { type });
      expect({ what, status: answer.status, code: answer.body.code }).toEqual({
        what,
        status,
        code: status === 413 ? "payload_too_large" : "invalid_input",
      });
      expect(answer.body.error, what).toMatch(message);
    }
    expect(await storedState("cultivation-simulator")).toEqual(before);
  });

  it("is for admins only", async () => {
    const bytes = await png();
    const before = await storedState("empress-simulator");
    expect((await upload("empress-simulator", bytes, { cookie: player.cookie })).status).toBe(403);
    expect((await upload("empress-simulator", bytes, { cookie: "" })).status).toBe(401);
    expect(await storedState("empress-simulator")).toEqual(before);
  });
});
