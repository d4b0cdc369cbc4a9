import http from "node:http";
import { brotliCompressSync, brotliDecompressSync, constants as zlibConstants, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAdmin, signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";

/** Pages and answers about one person are never kept by a browser or a shared cache. */
let server: TestServer;
let player: TestAccount;
let admin: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  [player, admin] = [await signUp(server), await signUp(server)];
  await makeAdmin(server, admin);
});

afterAll(() => server.close());

async function cacheControl(path: string, account?: TestAccount) {
  const controller = new AbortController();
  const response = await server.fetch(path, { headers: account ? { Cookie: account.cookie } : {}, signal: controller.signal });
  controller.abort();
  return { path, status: response.status, cacheControl: response.headers.get("cache-control") };
}

describe("Cache-Control", () => {
  it("is private, no-store on every personal page, also as client-side navigation data", async () => {
    const checkout = await server.fetch("/api/create-payment", {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: player.cookie },
      body: JSON.stringify({ packageType: "100" }),
    });
    const checkoutPath = new URL(((await checkout.json()) as { url: string }).url).pathname;
    const pages = [
      ["/credits", player],
      ["/credits.data", player],
      ["/play/empress-simulator", player],
      ["/play/empress-simulator.data", player],
      ["/payment-success?session_id=test_cs_x", player],
      [checkoutPath, player],
      ["/admin", admin],
      ["/admin.data", admin],
      // Signed out, these pages say so, or send to sign in: still nothing to keep.
      ["/credits", undefined],
      ["/play/empress-simulator", undefined],
      ["/play/empress-simulator.data", undefined],
      // Any page rendered for someone signed in carries their balance in the header.
      ["/games", player],
    ] as const;
    for (const [path, account] of pages) {
      expect(await cacheControl(path, account)).toMatchObject({ path, cacheControl: "private, no-store" });
    }
  });

  it("is private, no-store on every API answer with personal data", async () => {
    for (const path of ["/api/game-messages?game_slug=empress-simulator", "/api/admin/games", "/api/admin/contact-messages"]) {
      expect(await cacheControl(path, path.includes("admin") ? admin : player)).toEqual({ path, status: 200, cacheControl: "private, no-store" });
    }
    expect((await cacheControl("/api/credits/events", player)).cacheControl).toContain("no-store");
  });

  it("leaves the public pages a visitor gets as they were", async () => {
    for (const path of ["/", "/games", "/guides", "/game/empress-simulator"]) {
      const { cacheControl: value } = await cacheControl(path);
      expect({ path, value }).toEqual({ path, value: null });
    }
  });
});

/** A page's bytes as they come over the wire: fetch() would decode them. */
function getRaw(path: string, headers: Record<string, string>) {
  return new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
    http
      .get(new URL(path, server.url), { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ encoding: response.headers["content-encoding"], body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

/** The sliding window a brotli stream declares in its first bits (RFC 7932, section 9.1), as a power of two. */
function brotliWindowBits(stream: Buffer) {
  const bits = stream.readUInt8(0) | (stream.readUInt8(1) << 8);
  if ((bits & 1) === 0) return 16;
  const large = (bits >> 1) & 7;
  if (large !== 0) return 17 + large;
  const small = (bits >> 4) & 7;
  return small === 0 ? 17 : 8 + small;
}

describe("a page rendered for a signed-in player", () => {
  it("is compressed whole, not chunk by chunk as it was rendered", async () => {
    const gzip = await getRaw("/games", { "Accept-Encoding": "gzip", Cookie: player.cookie });
    const br = await getRaw("/games", { "Accept-Encoding": "gzip, deflate, br", Cookie: player.cookie });
    expect([gzip.encoding, br.encoding]).toEqual(["gzip", "br"]);
    const page = gunzipSync(gzip.body);
    expect(page.toString()).toContain(player.email);
    expect(brotliDecompressSync(br.body).toString()).toContain(player.email);
    // Flushed after each of React's chunks, the page took 1.6 times the bytes of the same page compressed at once.
    expect(gzip.body.length).toBeLessThan(gzipSync(page).length * 1.1);
    expect(br.body.length).toBeLessThan(brotliCompressSync(page, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } }).length * 1.1);
  });

  it("is compressed by brotli in a window of 256 KiB, not its default of 4 MiB", async () => {
    const br = await getRaw("/games", { "Accept-Encoding": "br", Cookie: player.cookie });
    expect(br.encoding).toBe("br");
    expect(brotliWindowBits(br.body)).toBe(18);
    expect(brotliWindowBits(brotliCompressSync("a page"))).toBe(22);
  });
});
