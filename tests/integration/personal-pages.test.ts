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
