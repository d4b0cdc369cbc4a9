/** The rate_limit table's counting on a real database: concurrent first attempts, taking an attempt back, and reset. */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rateLimit } from "#app/db/schema.ts";
import { consumeRateLimit, releaseRateLimit, resetRateLimit } from "#app/domain/rate-limit.server.ts";
import { testDatabaseForFile } from "#tests/helpers/database.ts";

const testDatabase = testDatabaseForFile();

describe("rate limits", () => {
  it("count every one of many first attempts of a key made at the same moment", async () => {
    const rule = { name: "burst", limit: 30, windowMs: 60_000 };
    const results = await Promise.all(Array.from({ length: 50 }, () => consumeRateLimit(rule, "fresh-subject")));
    expect(results.filter((result) => result.allowed)).toHaveLength(30);
    const [row] = await testDatabase
      .connection()
      .db.select({ count: rateLimit.count })
      .from(rateLimit)
      .where(eq(rateLimit.key, "burst:fresh-subject"));
    expect(row?.count).toBe(50);
  });

  it("take back an attempt only in the window it was counted in, never below none", async () => {
    const rule = { name: "release", limit: 1, windowMs: 60_000 };
    const count = async () =>
      (await testDatabase.connection().db.select({ count: rateLimit.count }).from(rateLimit).where(eq(rateLimit.key, "release:subject")))[0]
        ?.count;
    const start = Date.UTC(2026, 0, 1);
    const first = await consumeRateLimit(rule, "subject", start);
    const second = await consumeRateLimit(rule, "subject", start + 1000);
    expect(second).toMatchObject({ allowed: false, windowStartedAt: first.windowStartedAt });
    await releaseRateLimit(rule, "subject", second.windowStartedAt);
    expect(await count()).toBe(1);

    const next = await consumeRateLimit(rule, "subject", start + 60_000);
    expect(next).toMatchObject({ allowed: true, windowStartedAt: start + 60_000 });
    await releaseRateLimit(rule, "subject", first.windowStartedAt);
    expect(await count()).toBe(1);
    await releaseRateLimit(rule, "subject", next.windowStartedAt);
    await releaseRateLimit(rule, "subject", next.windowStartedAt);
    expect(await count()).toBe(0);
  });

  it("forget a subject's attempts on reset, and only that subject's", async () => {
    const rule = { name: "reset", limit: 1, windowMs: 60_000 };
    await consumeRateLimit(rule, "cleared");
    await consumeRateLimit(rule, "kept");
    expect((await consumeRateLimit(rule, "cleared")).allowed).toBe(false);
    await resetRateLimit(rule, "cleared");
    expect((await consumeRateLimit(rule, "cleared")).allowed).toBe(true);
    expect((await consumeRateLimit(rule, "kept")).allowed).toBe(false);
  });
});
