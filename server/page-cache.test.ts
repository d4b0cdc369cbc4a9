import { createHash } from "node:crypto";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { VISITOR_CACHE_HEADER } from "#app/lib/visitor-cache.ts";
import { PageCache } from "./page-cache.ts";
import { closeServers, get, getRaw, heldCompressor, serve, sha256 } from "#tests/helpers/page-cache-server.ts";

afterEach(closeServers);

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
