import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp, testClientAddress, type TestAccount } from "#tests/helpers/accounts.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";

/**
 * What a stranger can make an instance spend on pages (issue 31, docs/decisions/042): a query
 * string a page does not read is served the kept page, and pages rendered for one signed-out
 * address are limited, here to a few a minute so the limit is reached quickly. Each test asks
 * from addresses of its own (X-Forwarded-For: the test client is a trusted loopback proxy).
 */

const RENDERS_PER_MINUTE = 5;

let server: TestServer;
let player: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ PAGE_RENDERS_PER_MINUTE: String(RENDERS_PER_MINUTE) });
  player = await signUp(server);
});

afterAll(async () => {
  await server.close();
});

async function page(pathname: string, address: string, headers: Record<string, string> = {}) {
  const response = await server.fetch(pathname, { headers: { "X-Forwarded-For": address, ...headers } });
  return {
    status: response.status,
    cache: response.headers.get("x-cache"),
    retryAfter: response.headers.get("retry-after"),
    type: response.headers.get("content-type"),
    body: await response.text(),
  };
}

const canonicalLink = (body: string) => /<link rel="canonical" href="([^"]*)"/.exec(body)?.[1];

describe("the query strings of kept pages", () => {
  it("serves a game page asked for with a query string it does not read from the page kept for it, the same bytes", async () => {
    const kept = await page("/game/empress-simulator", testClientAddress());
    expect(kept.status).toBe(200);
    for (const query of ["?utm_source=newsletter-1", `?utm=${crypto.randomUUID()}`, "?fbclid=abc&ref=x"]) {
      const answer = await page(`/game/empress-simulator${query}`, testClientAddress());
      expect({ query, status: answer.status, cache: answer.cache }).toEqual({ query, status: 200, cache: "HIT" });
      expect(answer.body).toBe(kept.body);
    }
    expect(canonicalLink(kept.body)).toMatch(/\/game\/empress-simulator$/);
  });

  it("keeps /games?search= as a page of its own, with its own content, and ignores what /games does not read", async () => {
    const all = await page("/games", testClientAddress());
    const searched = await page("/games?search=cultivat", testClientAddress());
    expect(searched.cache).toBe("MISS");
    expect(searched.body).toContain("Search results for “cultivat”");
    expect(all.body).not.toContain("Search results for");
    const again = await page("/games?utm_campaign=spring&search=cultivat", testClientAddress());
    expect(again.cache).toBe("HIT");
    expect(again.body).toBe(searched.body);
    const filtered = await page("/games?difficulty=beginner&search=cultivat", testClientAddress());
    expect(filtered.cache).toBe("MISS");
  });
});

describe("the limit on pages rendered for one signed-out address", () => {
  const unknownPage = () => `/no-such-page-${crypto.randomUUID()}`;

  it("answers past it with 429, Retry-After and a sentence, and still serves kept pages and static files", async () => {
    const address = testClientAddress();
    for (let render = 0; render < RENDERS_PER_MINUTE; render += 1) expect((await page(unknownPage(), address)).status).toBe(404);
    const refused = await page(unknownPage(), address);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
    expect(refused.type).toBe("text/plain; charset=utf-8");
    expect(refused.body).toMatch(
      /^Too many pages were asked for from your address in the last minute\. Please try again in (\d+ seconds?|1 minute)\.\n$/,
    );
    // A kept page costs no render: it is served to the same address.
    await page("/about", testClientAddress());
    expect(await page("/about?from=refused", address)).toMatchObject({ status: 200, cache: "HIT" });
    expect((await page("/favicon.svg", address)).status).toBe(200);
    // Another address is not affected.
    expect((await page(unknownPage(), testClientAddress())).status).toBe(404);
  });

  it("counts neither static files, nor kept pages, nor a signed-in player; a made-up session cookie is counted", async () => {
    const address = testClientAddress();
    const [asset] = readdirSync(path.resolve(import.meta.dirname, "../../build/client/assets"));
    await page("/blog", testClientAddress());
    for (let request = 0; request < 3 * RENDERS_PER_MINUTE; request += 1) {
      expect((await page(`/assets/${asset}`, address)).status).toBe(200);
      expect((await page("/favicon.svg", address)).status).toBe(200);
      expect((await page("/blog", address)).cache).toBe("HIT");
      expect((await page(unknownPage(), address, { Cookie: player.cookie })).status).toBe(404);
    }
    for (let render = 0; render < RENDERS_PER_MINUTE; render += 1) expect((await page(unknownPage(), address)).status).toBe(404);
    expect((await page(unknownPage(), address)).status).toBe(429);

    const forger = testClientAddress();
    const forged = { Cookie: "better-auth.session_token=made-up.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=" };
    for (let render = 0; render < RENDERS_PER_MINUTE; render += 1) expect((await page(unknownPage(), forger, forged)).status).toBe(404);
    expect((await page(unknownPage(), forger, forged)).status).toBe(429);
  });
});
