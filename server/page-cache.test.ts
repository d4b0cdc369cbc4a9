import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { VISITOR_CACHE_HEADER, VISITOR_CACHE_QUERY_HEADER } from "#app/lib/visitor-cache.ts";
import { createHash } from "node:crypto";
import { request as httpRequest } from "node:http";
import { promisify } from "node:util";
import { brotliCompress, brotliDecompressSync, constants as zlib, gunzipSync, gzip } from "node:zlib";
import {
  inlineScriptHashes,
  PAGE_BROTLI_WINDOW_BITS,
  PageCache,
  preferredEncoding,
  type CompressionLevel,
  type Compressor,
} from "./page-cache.ts";

interface Harness {
  url: string;
  renders: Map<string, number>;
  /** Makes the next renders of /slow wait until the returned function is called. */
  hold(): () => void;
  close(): Promise<void>;
}

const servers: Harness[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/**
 * A real Express server: the cache's two halves around a per-response nonce like helmet's, and
 * routes that count their renders. /games reads `difficulty` and `search` and says so, as the
 * site's /games does.
 */
async function serve(cache: PageCache): Promise<Harness> {
  const renders = new Map<string, number>();
  let gate: Promise<void> | undefined;
  let nonces = 0;
  const app = express();
  app.use(cache.serve());
  app.use((_request, response, next) => {
    nonces += 1;
    response.locals.cspNonce = `N${String(nonces).padStart(4, "0")}nonce`;
    response.setHeader("Content-Security-Policy", `script-src 'nonce-${String(response.locals.cspNonce)}'`);
    next();
  });
  app.use(cache.capture());
  app.get("/{*path}", async (request, response) => {
    const count = (renders.get(request.path) ?? 0) + 1;
    renders.set(request.path, count);
    if (request.path === "/slow" && gate) await gate;
    if (request.path !== "/private") response.setHeader(VISITOR_CACHE_HEADER, "60");
    if (request.path.startsWith("/games")) response.setHeader(VISITOR_CACHE_QUERY_HEADER, "difficulty,search");
    if (request.path === "/missing") response.status(404);
    if (request.path === "/cookie") response.setHeader("Set-Cookie", "a=b");
    response.setHeader("Content-Type", "text/html; charset=utf-8");
    const nonce = String(response.locals.cspNonce);
    response.write(`<script nonce="${nonce}">`);
    const search = typeof request.query.search === "string" ? ` search=${request.query.search}` : "";
    response.end(`render ${count} of ${request.path}${search}</script><p>${filler(request.path)}</p>`);
  });
  const server = await new Promise<Server>((resolve) => {
    const started = app.listen(0, "127.0.0.1", () => resolve(started));
  });
  const harness: Harness = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    renders,
    hold() {
      let release: () => void = () => {};
      gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      return () => {
        gate = undefined;
        release();
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  servers.push(harness);
  return harness;
}

async function get(harness: Harness, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(harness.url + path, { headers });
  const body = await response.text();
  const policy = response.headers.get("content-security-policy") ?? "";
  const policyNonce = /'nonce-([^']+)'/.exec(policy)?.[1];
  return { response, body, policy, policyNonce, cache: response.headers.get("x-cache") };
}

/** The bytes as sent, with the encoding the server chose (fetch would decode them). */
function getRaw(harness: Harness, path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    httpRequest(harness.url + path, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    })
      .on("error", reject)
      .end();
  });
}

/** /big pages are about 3 KB (and about 100 bytes compressed); /text is 30 KB of words that compress differently at each level. */
function filler(path: string) {
  if (path.startsWith("/big")) return "x".repeat(3000);
  if (path === "/text") {
    let seed = 1;
    return Array.from({ length: 5000 }, () => {
      seed = (seed * 48271) % 2147483647;
      return WORDS[seed % WORDS.length];
    }).join(" ");
  }
  return "x".repeat(10);
}
const WORDS = ["the", "empress", "court", "jade", "throne", "whisper", "edict", "concubine", "eunuch", "banquet", "poison", "favour", "silk"];

const compressBrotli = promisify(brotliCompress);
const compressGzip = promisify(gzip);

/** Compresses as a server would, at a quality that tells the levels apart, each call held until the test releases it. */
function heldCompressor() {
  const calls: { level: CompressionLevel; release: () => void }[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const compress: Compressor = async (body, level) => {
    running += 1;
    mostAtOnce = Math.max(mostAtOnce, running);
    await new Promise<void>((release) => calls.push({ level, release }));
    const quality = level === "best" ? zlib.BROTLI_MAX_QUALITY : 5;
    const br = await compressBrotli(body, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: quality, [zlib.BROTLI_PARAM_LGWIN]: PAGE_BROTLI_WINDOW_BITS },
    });
    const gz = await compressGzip(body);
    running -= 1;
    return { br, gzip: gz };
  };
  return {
    compress,
    calls,
    mostAtOnce: () => mostAtOnce,
    releaseAll: () => calls.forEach((call) => call.release()),
  };
}

function sha256(text: string) {
  return `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
}

describe("the visitor page cache", () => {
  it("renders a page once, then serves the same bytes, their inline scripts allowed by hash", async () => {
    const harness = await serve(new PageCache());
    const first = await get(harness, "/games?difficulty=beginner");
    const second = await get(harness, "/games?difficulty=beginner");
    expect(first.cache).toBe("MISS");
    expect(second.cache).toBe("HIT");
    expect(harness.renders.get("/games")).toBe(1);
    expect(second.body).toBe(first.body);
    expect(first.policy).toContain(`'nonce-${first.policyNonce}'`);
    // The nonce the page was rendered with allows nothing on a kept page: its scripts' hashes do.
    expect(second.policyNonce).toBeUndefined();
    expect(second.policy).toBe(`script-src ${sha256("render 1 of /games")}`);
    expect(first.response.headers.get(VISITOR_CACHE_HEADER)).toBeNull();
    expect(second.response.headers.get(VISITOR_CACHE_HEADER)).toBeNull();
    expect(second.response.headers.get("content-type")).toBe("text/html; charset=utf-8");
  });

  it("keys a page by its path and the query parameters its route reads, and serves it for any other query string", async () => {
    const harness = await serve(new PageCache());
    const kept = await get(harness, "/games?difficulty=beginner");
    for (const other of [
      "/games?difficulty=beginner&utm_source=x1",
      "/games?fbclid=y2&difficulty=beginner",
      "/games?difficulty=beginner&difficulty=advanced",
    ]) {
      const answer = await get(harness, other);
      expect({ other, cache: answer.cache }).toEqual({ other, cache: "HIT" });
      expect(answer.body).toBe(kept.body);
    }
    expect((await get(harness, "/games?difficulty=advanced")).cache).toBe("MISS");
    const searched = await get(harness, "/games?search=jade&difficulty=beginner");
    expect(searched.cache).toBe("MISS");
    expect(searched.body).toContain("search=jade");
    expect((await get(harness, "/games?difficulty=beginner&search=jade&ref=z")).body).toBe(searched.body);
    expect(harness.renders.get("/games")).toBe(3);

    // A page that reads no parameter is one page, whatever the query string.
    expect((await get(harness, "/about?utm_source=first")).cache).toBe("MISS");
    expect((await get(harness, "/about?utm_source=second")).cache).toBe("HIT");
    expect((await get(harness, "/about")).cache).toBe("HIT");
    expect(harness.renders.get("/about")).toBe(1);
  });

  it("keys a client-side navigation's data by the routes it asks for as well", async () => {
    const harness = await serve(new PageCache());
    await get(harness, "/games.data?_routes=routes%2Fgames&utm=1");
    expect((await get(harness, "/games.data?_routes=routes%2Fgames&utm=2")).cache).toBe("HIT");
    expect((await get(harness, "/games.data?_routes=root")).cache).toBe("MISS");
    expect((await get(harness, "/games.data")).cache).toBe("MISS");
  });

  it("leaves a query the edge refuses to the edge", async () => {
    const harness = await serve(new PageCache());
    await get(harness, "/about");
    // A NUL byte anywhere in a request is refused with 400 at the edge, not answered with the kept page.
    expect((await get(harness, "/about?x=%00")).cache).toBe("BYPASS");
    expect(harness.renders.get("/about")).toBe(2);
    expect((await get(harness, "/about")).cache).toBe("HIT");
  });

  it("never serves or keeps the pages of signed-in players", async () => {
    const harness = await serve(new PageCache());
    await get(harness, "/");
    const withCookie = await get(harness, "/", { Cookie: "theme=dark; better-auth.session_token=abc.def" });
    const withBearer = await get(harness, "/", { Authorization: "Bearer abc" });
    expect(withCookie.cache).toBe("BYPASS");
    expect(withBearer.cache).toBe("BYPASS");
    expect(harness.renders.get("/")).toBe(3);
    // Other cookies do not make a visitor personal.
    expect((await get(harness, "/", { Cookie: "theme=dark" })).cache).toBe("HIT");
  });

  it("keeps only successful pages that opted in and set no cookie", async () => {
    const harness = await serve(new PageCache());
    for (const path of ["/missing", "/private", "/cookie"]) {
      await get(harness, path);
      await get(harness, path);
      expect(harness.renders.get(path)).toBe(2);
    }
  });

  it("compresses a kept page into br and gzip and answers each client the variant it accepts", async () => {
    const harness = await serve(new PageCache());
    const rendered = await getRaw(harness, "/", { "Accept-Encoding": "identity" });
    const page = rendered.body;
    await expect.poll(async () => (await getRaw(harness, "/", { "Accept-Encoding": "br" })).headers["content-encoding"]).toBe("br");
    const br = await getRaw(harness, "/", { "Accept-Encoding": "gzip, deflate, br" });
    const gzip = await getRaw(harness, "/", { "Accept-Encoding": "gzip;q=1, br;q=0" });
    const plain = await getRaw(harness, "/", {});
    expect(br.headers).toMatchObject({ "content-encoding": "br", vary: "Accept-Encoding", "x-cache": "HIT" });
    expect(brotliDecompressSync(br.body)).toEqual(page);
    expect(Number(br.headers["content-length"])).toBe(br.body.length);
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.body)).toEqual(page);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toEqual(page);
    expect(harness.renders.get("/")).toBe(1);
  });

  it("answers at once while a kept page is compressed: fast first, at the best level once it has proved popular", async () => {
    const compressor = heldCompressor();
    const harness = await serve(new PageCache({ compress: compressor.compress, popularAfterHits: 2 }));
    const levels = () => compressor.calls.map((call) => call.level);
    const askBr = () => getRaw(harness, "/text", { "Accept-Encoding": "gzip, deflate, br" });

    // Neither the miss nor the hits after it wait for a compression (this one is held until released).
    expect((await askBr()).headers["x-cache"]).toBe("MISS");
    expect(levels()).toEqual(["fast"]);
    const page = (await getRaw(harness, "/text", {})).body;
    const meanwhile = await askBr();
    expect(meanwhile.headers).toMatchObject({ "x-cache": "HIT", etag: `"${createHash("sha256").update(page).digest("base64url").slice(0, 27)}"` });
    expect(meanwhile.headers["content-encoding"]).toBeUndefined();
    expect(meanwhile.body).toEqual(page);

    compressor.calls[0]!.release();
    await expect.poll(async () => (await askBr()).headers.etag).toMatch(/-br-fast"$/);
    // Its hits made it popular: the best compression starts, and the fast variant is served meanwhile.
    expect(levels()).toEqual(["fast", "best"]);
    const fast = await askBr();
    expect(fast.headers.etag).toMatch(/-br-fast"$/);
    expect(brotliDecompressSync(fast.body)).toEqual(page);

    compressor.calls[1]!.release();
    await expect.poll(async () => (await askBr()).headers.etag).toMatch(/-br-best"$/);
    const best = await askBr();
    expect(brotliDecompressSync(best.body)).toEqual(page);
    expect(best.body.length).toBeLessThan(fast.body.length);
    const gzipped = await getRaw(harness, "/text", { "Accept-Encoding": "gzip" });
    expect(gzipped.headers.etag).toMatch(/-gzip-best"$/);
    expect(gunzipSync(gzipped.body)).toEqual(page);
    expect(levels()).toEqual(["fast", "best"]);
    expect(harness.renders.get("/text")).toBe(1);
  });

  it("runs at most maxCompressions at once; a page that found none free goes out as it is until a later hit finds one", async () => {
    const compressor = heldCompressor();
    const harness = await serve(new PageCache({ compress: compressor.compress, maxCompressions: 2 }));
    for (const path of ["/big/1", "/big/2", "/big/3", "/big/4"]) expect((await get(harness, path)).cache).toBe("MISS");
    expect(compressor.calls).toHaveLength(2);

    const waiting = await getRaw(harness, "/big/3", { "Accept-Encoding": "br" });
    expect(waiting.headers["x-cache"]).toBe("HIT");
    expect(waiting.headers["content-encoding"]).toBeUndefined();
    expect(compressor.calls).toHaveLength(2);

    compressor.releaseAll();
    await expect
      .poll(async () => {
        await getRaw(harness, "/big/3", { "Accept-Encoding": "br" });
        return compressor.calls.length;
      })
      .toBe(3);
    compressor.releaseAll();
    await expect.poll(async () => (await getRaw(harness, "/big/3", { "Accept-Encoding": "br" })).headers["content-encoding"]).toBe("br");
    expect(compressor.mostAtOnce()).toBe(2);
  });

  it("answers a revalidation of an unchanged page with 304, per variant", async () => {
    const harness = await serve(new PageCache());
    await get(harness, "/");
    await expect.poll(async () => (await getRaw(harness, "/", { "Accept-Encoding": "br" })).headers.etag).toMatch(/-br-best"$/);
    const br = await getRaw(harness, "/", { "Accept-Encoding": "br" });
    const plain = await getRaw(harness, "/", {});
    expect(br.headers.etag).not.toBe(plain.headers.etag);
    const revalidated = await getRaw(harness, "/", { "Accept-Encoding": "br", "If-None-Match": String(br.headers.etag) });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(revalidated.headers.etag).toBe(br.headers.etag);
    // The tag of another encoding is another representation: the page is sent.
    expect((await getRaw(harness, "/", { "If-None-Match": String(br.headers.etag) })).status).toBe(200);
  });

  it("takes a version it already knows without waiting for a read", async () => {
    let version = 1;
    const harness = await serve(new PageCache({ version: () => version }));
    await get(harness, "/");
    expect((await get(harness, "/")).cache).toBe("HIT");
    version = 2;
    expect((await get(harness, "/")).cache).toBe("MISS");
  });

  it("serves a page only while the public content version it was rendered at is current", async () => {
    let version = 7;
    const cache = new PageCache({ version: async () => version });
    const harness = await serve(cache);
    await get(harness, "/");
    expect((await get(harness, "/")).cache).toBe("HIT");
    version = 8;
    const afterChange = await get(harness, "/");
    expect(afterChange.cache).toBe("MISS");
    expect(afterChange.body).toContain("render 2 of /");
    expect((await get(harness, "/")).cache).toBe("HIT");
  });

  it("renders without keeping anything while the version cannot be read", async () => {
    const cache = new PageCache({ version: () => Promise.reject(new Error("database down")) });
    const harness = await serve(cache);
    expect((await get(harness, "/")).cache).toBe("BYPASS");
    expect((await get(harness, "/")).cache).toBe("BYPASS");
    expect(cache.size).toBe(0);
  });

  it("drops everything on clear()", async () => {
    const cache = new PageCache();
    const harness = await serve(cache);
    await get(harness, "/");
    expect(cache.size).toBe(1);
    cache.clear();
    expect((await get(harness, "/")).cache).toBe("MISS");
    expect(harness.renders.get("/")).toBe(2);
  });

  it("lets one request refresh an expired page while the others get the previous copy", async () => {
    let now = 1_000_000;
    const harness = await serve(new PageCache({ now: () => now, staleSeconds: 30 }));
    expect((await get(harness, "/slow")).cache).toBe("MISS");

    now += 61_000;
    const release = harness.hold();
    const refresh = get(harness, "/slow");
    await expect.poll(() => harness.renders.get("/slow")).toBe(2);
    const meanwhile = await get(harness, "/slow");
    expect(meanwhile.cache).toBe("STALE");
    expect(meanwhile.body).toContain("render 1 of /slow");
    expect(meanwhile.policy).toBe(`script-src ${sha256("render 1 of /slow")}`);

    release();
    expect(await refresh).toMatchObject({ cache: "MISS" });
    const refreshed = await get(harness, "/slow");
    expect(refreshed.cache).toBe("HIT");
    expect(refreshed.body).toContain("render 2 of /slow");

    // Past the grace period a page is rendered again before anyone sees it.
    now += 61_000 + 31_000;
    expect((await get(harness, "/slow")).cache).toBe("MISS");
  });

  it("forgets the least recently used pages beyond its size bound", async () => {
    // Each /big page is about 3 KB, and about 100 bytes once compressed.
    const cache = new PageCache({ maxBytes: 7000 });
    const harness = await serve(cache);
    await get(harness, "/big/1");
    await get(harness, "/big/2");
    await get(harness, "/big/1");
    await get(harness, "/big/3");
    expect(cache.size).toBe(2);
    expect((await get(harness, "/big/1")).cache).toBe("HIT");
    expect((await get(harness, "/big/2")).cache).toBe("MISS");
  });
});

describe("inlineScriptHashes", () => {
  it("hashes each inline script once, and no script loaded by address", () => {
    const page = Buffer.from('<script nonce="n">a()</script><script src="/x.js"></script><script type="module">b()</script><script>a()</script>');
    expect(inlineScriptHashes(page)).toBe(`${sha256("a()")} ${sha256("b()")}`);
  });
});

describe("preferredEncoding", () => {
  it("prefers br, then gzip, and honours q=0", () => {
    expect(preferredEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(preferredEncoding("gzip, deflate")).toBe("gzip");
    expect(preferredEncoding("br;q=0, gzip;q=0.5")).toBe("gzip");
    expect(preferredEncoding("br;q=0.0, gzip;q=0")).toBe("identity");
    expect(preferredEncoding("*")).toBe("gzip");
    expect(preferredEncoding(undefined)).toBe("identity");
    expect(preferredEncoding("deflate")).toBe("identity");
  });
});
