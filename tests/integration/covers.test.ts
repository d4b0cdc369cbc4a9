import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coverVariants, covers, games } from "#app/db/schema.ts";
import { COVER_MAX_BYTES, COVER_WIDTHS, coverHeight } from "#app/lib/covers.ts";
import { makeAdmin, signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { decodeEntities, meta } from "#tests/helpers/html.ts";
import { gainMap, motionPhotoXmp, mp4, multiPicture, picture, png, pngChunk } from "#tests/helpers/image-files.ts";
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
      pngChunk("IHDR", Buffer.from([0, 0, 0xea, 0x60, 0, 0, 0xea, 0x60, 8, 2, 0, 0, 0])), // 60000 × 60000
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
          pngChunk("tEXt", Buffer.from("Comment\0<script>alert(document.cookie)</script>")),
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
