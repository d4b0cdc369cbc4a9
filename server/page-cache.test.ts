import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { VISITOR_CACHE_HEADER } from "#app/lib/visitor-cache.ts";
import { FreshRead, PageCache } from "./page-cache.ts";

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

/** A real Express server: a per-response nonce like helmet's, the cache, and routes that count their renders. */
async function serve(cache: PageCache): Promise<Harness> {
  const renders = new Map<string, number>();
  let gate: Promise<void> | undefined;
  let nonces = 0;
  const app = express();
  app.use((_request, response, next) => {
    nonces += 1;
    response.locals.cspNonce = `N${String(nonces).padStart(4, "0")}nonce`;
    response.setHeader("Content-Security-Policy", `script-src 'nonce-${String(response.locals.cspNonce)}'`);
    next();
  });
  app.use(cache.middleware());
  app.get("/{*path}", async (request, response) => {
    const count = (renders.get(request.path) ?? 0) + 1;
    renders.set(request.path, count);
    if (request.path === "/slow" && gate) await gate;
    if (request.path !== "/private") response.setHeader(VISITOR_CACHE_HEADER, "60");
    if (request.path === "/missing") response.status(404);
    if (request.path === "/cookie") response.setHeader("Set-Cookie", "a=b");
    response.setHeader("Content-Type", "text/html; charset=utf-8");
    const nonce = String(response.locals.cspNonce);
    response.write(`<script nonce="${nonce}">`);
    response.end(`render ${count} of ${request.path}</script><p>${"x".repeat(request.path === "/big" ? 3000 : 10)}</p>`);
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
  const policyNonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
  return { response, body, policyNonce, cache: response.headers.get("x-cache") };
}

describe("the visitor page cache", () => {
  it("renders a page once, then serves it with each response's own nonce", async () => {
    const harness = await serve(new PageCache());
    const first = await get(harness, "/games?difficulty=beginner");
    const second = await get(harness, "/games?difficulty=beginner");
    expect(first.cache).toBe("MISS");
    expect(second.cache).toBe("HIT");
    expect(harness.renders.get("/games")).toBe(1);
    expect(second.body).toContain("render 1 of /games");
    expect(second.body).toContain(`<script nonce="${second.policyNonce}">`);
    expect(second.policyNonce).not.toBe(first.policyNonce);
    expect(first.response.headers.get(VISITOR_CACHE_HEADER)).toBeNull();
    expect(second.response.headers.get(VISITOR_CACHE_HEADER)).toBeNull();
    expect(second.response.headers.get("content-type")).toBe("text/html; charset=utf-8");
  });

  it("keys pages by their full URL", async () => {
    const harness = await serve(new PageCache());
    await get(harness, "/games?difficulty=beginner");
    expect((await get(harness, "/games?difficulty=advanced")).cache).toBe("MISS");
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
    expect(meanwhile.body).toContain(`nonce="${meanwhile.policyNonce}"`);

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
    const cache = new PageCache({ maxBytes: 7000 });
    const harness = await serve(cache);
    await get(harness, "/big?1");
    await get(harness, "/big?2");
    await get(harness, "/big?1");
    await get(harness, "/big?3");
    expect(cache.size).toBe(2);
    expect((await get(harness, "/big?1")).cache).toBe("HIT");
    expect((await get(harness, "/big?2")).cache).toBe("MISS");
  });
});

describe("FreshRead", () => {
  it("shares one read between callers that arrive while it has not started yet", async () => {
    let reads = 0;
    const release: (() => void)[] = [];
    const fresh = new FreshRead(
      () =>
        new Promise<number>((resolve) => {
          reads += 1;
          const value = reads;
          release.push(() => resolve(value));
        }),
    );
    const first = fresh.read();
    // These arrive while read 1 runs: it may have started before their change, so they wait for read 2.
    const second = fresh.read();
    const third = fresh.read();
    expect(reads).toBe(1);
    release.shift()?.();
    expect(await first).toBe(1);
    await expect.poll(() => reads).toBe(2);
    release.shift()?.();
    expect(await Promise.all([second, third])).toEqual([2, 2]);
    // Idle again: the next caller starts its own read at once.
    const fourth = fresh.read();
    expect(reads).toBe(3);
    release.shift()?.();
    expect(await fourth).toBe(3);
  });

  it("passes a failed read to its callers and recovers on the next", async () => {
    let fail = true;
    const fresh = new FreshRead(async () => {
      if (fail) throw new Error("down");
      return 1;
    });
    await expect(fresh.read()).rejects.toThrow("down");
    fail = false;
    await expect(fresh.read()).resolves.toBe(1);
  });
});
