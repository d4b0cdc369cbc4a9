import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "#tests/helpers/database.ts";
import { testClientAddress } from "#tests/helpers/accounts.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";

/**
 * The game page's preview (issue 33): a visitor's first action is answered by the game's real
 * opening scene, told offline, without an account, at no cost and stored nowhere.
 */

let server: TestServer;

beforeAll(async () => {
  // A site whose Game Master is a real model: the preview is still the offline storyteller's.
  server = await startTestServer({ AI_PROVIDER: "openai-compatible", AI_BASE_URL: "http://127.0.0.1:9/v1", AI_MODEL: "unreachable" });
});

afterAll(() => server.close());

function preview(body: unknown, visitor = testClientAddress()) {
  return server.fetch("/api/game-preview", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": visitor },
    body: JSON.stringify(body),
  });
}

async function storedRows() {
  const [row] = await queryRows<Record<string, number>>(
    server.connection.db,
    sql`select (select count(*) from stories)::int as stories, (select count(*) from game_messages)::int as messages,
      (select count(*) from credit_ledger)::int as ledger, (select count(*) from "user")::int as users`,
  );
  return row;
}

describe("the game page's preview", () => {
  it("answers a visitor's first action with the game's opening scene, its stats and its choices, storing nothing", async () => {
    const before = await storedRows();
    const response = await preview({ game_slug: "empress-simulator", message: "I summon Grand Chancellor Duan." });
    expect(response.status).toBe(200);
    const scene = (await response.json()) as { reply: string; state: Record<string, unknown> };
    // The seeded game's own opening: its regent, its hall, its people.
    expect(scene.reply).toContain("Hall of Luminous Governance");
    expect(scene.reply).toMatch(/\n1\. .+\n2\. .+/);
    expect(scene.reply).not.toContain("<state>");
    expect(scene.state).toMatchObject({ Grace: 75, "Imperial Stability": 68, "Trust of Young Emperor": 85 });
    expect(await storedRows()).toEqual(before);
  });

  it("tells each game's own opening", async () => {
    const response = await preview({ game_slug: "cultivation-simulator", message: "I meditate." });
    expect(response.status).toBe(200);
    const { reply } = (await response.json()) as { reply: string };
    expect(reply).not.toContain("Hall of Luminous Governance");
    expect(reply.length).toBeGreaterThan(200);
  });

  it("refuses an unknown game, an empty action and a long one with a sentence", async () => {
    const unknown = await preview({ game_slug: "no-such-game", message: "Hello." });
    expect(unknown.status).toBe(404);
    const empty = await preview({ game_slug: "empress-simulator", message: "   " });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: string }).error).toBe("Write what you do first: an empty action is not sent.");
    const long = await preview({ game_slug: "empress-simulator", message: "x".repeat(501) });
    expect(long.status).toBe(400);
  });

  it("limits one address to 20 previews a minute, with Retry-After", async () => {
    const visitor = testClientAddress();
    const answers = [];
    for (let attempt = 0; attempt < 21; attempt += 1) answers.push(await preview({ game_slug: "empress-simulator", message: "I wait." }, visitor));
    expect(answers.slice(0, 20).map((answer) => answer.status)).toEqual(Array<number>(20).fill(200));
    const refused = answers[20];
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused?.json()) as { code: string }).code).toBe("rate_limited");
    // Another visitor is not held back.
    expect((await preview({ game_slug: "empress-simulator", message: "I wait." })).status).toBe(200);
  });
});
