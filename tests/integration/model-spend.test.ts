import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import type { Database } from "#app/db/client.server.ts";
import { creditLedger, modelPrices, stories, user } from "#app/db/schema.ts";
import type { ModelCall } from "#app/domain/game-master/model-calls.server.ts";
import type { Dashboard } from "#app/lib/admin-dashboard.ts";
import { adminApiTest as test } from "#tests/helpers/admin-api.ts";
import { queryRows } from "#tests/helpers/database.ts";

/**
 * The overview's model spend (issue 34) against recorded calls of several days, games, models and
 * kinds: each figure equals the sum of the calls it covers. And the price table's API.
 */

const DAY = 24 * 60 * 60 * 1000;
const today = new Date(new Date().toISOString().slice(0, 10) + "T00:00:00Z");
const daysAgo = (days: number) => new Date(today.getTime() - days * DAY + 12 * 60 * 60 * 1000);

/** A call as record_model_call.sql takes it (ModelCall), with where it belongs and the day it was made. */
interface Call extends Omit<ModelCall, "kind"> {
  kind: ModelCall["kind"];
  gameSlug: string;
  storyId?: string;
  userId?: string;
  daysAgo: number;
}
const call = (overrides: Partial<Call>): Call => ({
  kind: "send",
  gameSlug: "empress-simulator",
  provider: "openai-compatible",
  model: "model-a",
  inputTokens: 1000,
  cachedInputTokens: 400,
  cacheWriteTokens: 0,
  outputTokens: 100,
  reasoningTokens: null,
  estimated: false,
  firstTokenMs: 300,
  totalMs: 900,
  outcome: "ok",
  daysAgo: 1,
  ...overrides,
});

/**
 * Records the calls as the site does (record_model_call.sql, which keeps the daily totals), a day
 * at a time, oldest first: each day's calls are recorded today, then they and their totals are
 * moved to their day (no day's totals are there yet when they move).
 */
async function recordCalls(db: Database, calls: Call[]) {
  const days = [...new Set(calls.map((each) => each.daysAgo))].sort((a, b) => b - a);
  for (const dayAgo of days) {
    const [{ last } = { last: 0 }] = await queryRows<{ last: number }>(db, sql`select coalesce(max(id), 0)::int as last from model_calls`);
    for (const { gameSlug, storyId, userId, daysAgo: _day, ...recorded } of calls.filter((each) => each.daysAgo === dayAgo)) {
      await db.execute(
        sql`select record_model_call(${storyId ?? null}::uuid, ${gameSlug}, ${userId ?? null}, ${JSON.stringify(recorded)}::jsonb)`,
      );
    }
    if (dayAgo === 0) continue;
    await db.execute(sql`update model_calls set created_at = ${daysAgo(dayAgo).toISOString()}::timestamptz where id > ${last}`);
    await db.execute(sql`update model_spend_days set day = day - ${dayAgo}::int where day = (now() at time zone 'UTC')::date`);
  }
}

/** What each call was for, as the overview parts its lines (a column named "case"). */
const PART = "case kind when 'summary' then 'summaries' when 'advisory' then 'advisories' else 'turns' end";

/** The sums the overview must show, computed from the calls themselves. */
async function sums(server: { connection: { db: Parameters<typeof queryRows>[0] } }, where: string, groupBy: string) {
  return queryRows<Record<string, string | number | boolean | null>>(
    server.connection.db,
    sql.raw(`select ${groupBy ? `${groupBy}, ` : ""}count(*)::int as calls, sum(input_tokens)::float8 as input,
      sum(cached_input_tokens)::float8 as cached, sum(output_tokens)::float8 as output,
      coalesce(sum(cost) filter (where currency = 'USD'), 0)::float8 as spend
      from model_calls where ${where} ${groupBy ? `group by ${groupBy} order by ${groupBy}` : ""}`),
  );
}

describe("model spend in the admin overview", () => {
  test("equals the sums of the recorded calls per day, per game and per model, summaries and advisory ratings on lines of their own", async ({
    server,
    admin,
  }) => {
    const db = server.connection.db;
    await db.insert(user).values({ id: "spend-player", name: "spend", email: "spend@example.com" });
    const [story] = await db.insert(stories).values({ userId: "spend-player", gameSlug: "empress-simulator" }).returning({ id: stories.id });
    await db.insert(modelPrices).values([
      { provider: "openai-compatible", model: "model-a", inputPerMillion: 2, cachedInputPerMillion: 0.5, outputPerMillion: 10 },
      { provider: "anthropic", model: "model-b", inputPerMillion: 3, cachedInputPerMillion: 0.3, outputPerMillion: 15 },
      { provider: "openai-compatible", model: "model-euro", inputPerMillion: 1, outputPerMillion: 4, currency: "EUR" },
    ]);
    await recordCalls(db, [
      call({ storyId: story!.id, userId: "spend-player" }),
      call({ kind: "retry", inputTokens: 1200, cachedInputTokens: 1000 }),
      call({ kind: "summary", inputTokens: 3000, cachedInputTokens: 0, outputTokens: 300 }),
      call({ gameSlug: "mary-sue-campus", model: "model-b", provider: "anthropic", daysAgo: 3 }),
      call({ gameSlug: "mary-sue-campus", model: "model-unpriced", outcome: "failed", estimated: true }),
      call({ model: "model-euro", daysAgo: 2 }),
      // A world's advisory rating: no story, its creator's call.
      call({ kind: "advisory", gameSlug: "mary-sue-campus", inputTokens: 700, cachedInputTokens: 0, outputTokens: 40, daysAgo: 4 }),
      call({ daysAgo: 0 }),
      // Outside a 7-day period, inside 30 days.
      call({ inputTokens: 50_000, daysAgo: 20 }),
    ]);
    // Calls are priced as they are recorded; the price table's tests below begin with it empty.
    await db.delete(modelPrices);
    // Two paid turns yesterday (a credit each), one refunded: one paid turn.
    await db.insert(creditLedger).values([
      { userId: "spend-player", delta: -1, balanceAfter: 1, reason: "chat_message", reference: "turn:spend-1", createdAt: daysAgo(1) },
      { userId: "spend-player", delta: -1, balanceAfter: 0, reason: "chat_message", reference: "turn:spend-2", createdAt: daysAgo(1) },
      { userId: "spend-player", delta: 1, balanceAfter: 1, reason: "refund", reference: "turn:spend-2", createdAt: daysAgo(1) },
    ]);

    const response = await server.fetch("/api/admin/dashboard?days=7", { headers: { Cookie: admin.cookie } });
    expect(response.status).toBe(200);
    const { dashboard } = (await response.json()) as { dashboard: Dashboard };
    const inPeriod = `created_at >= '${new Date(today.getTime() - 6 * DAY).toISOString()}'`;

    const perDay = await sums(server, inPeriod, `to_char((created_at at time zone 'UTC')::date, 'YYYY-MM-DD')`);
    const days = dashboard.spend.filter((row) => row.calls > 0);
    expect(
      days.map(({ day, calls, inputTokens, cachedInputTokens, outputTokens }) => [day, calls, inputTokens, cachedInputTokens, outputTokens]),
    ).toEqual(perDay.map((row) => [row.to_char, row.calls, row.input, row.cached, row.output]));
    days.forEach((row, index) => expect(row.spend).toBeCloseTo(Number(perDay[index]?.spend), 6));
    expect(dashboard.spend).toHaveLength(7);
    // The euro-priced call is counted as a call, not in the dollar spend.
    expect(dashboard.spend.find((row) => row.day === daysAgo(2).toISOString().slice(0, 10))).toMatchObject({ calls: 1, spend: 0 });

    const perGame = await sums(server, inPeriod, `game_slug, ${PART}`);
    expect(
      dashboard.spendGames
        .map((row) => [row.slug, row.part, row.calls, row.inputTokens, row.cachedInputTokens, row.outputTokens, Number(row.spend.toFixed(6))])
        .sort(),
    ).toEqual(perGame.map((row) => [row.game_slug, row.case, row.calls, row.input, row.cached, row.output, Number(row.spend)]).sort());
    expect(dashboard.spendGames.find((row) => row.slug === "empress-simulator" && row.part === "summaries")).toMatchObject({
      calls: 1,
      inputTokens: 3000,
    });
    expect(dashboard.spendGames.find((row) => row.slug === "mary-sue-campus" && row.part === "turns")).toMatchObject({ unpricedCalls: 1 });
    expect(dashboard.spendGames.find((row) => row.slug === "mary-sue-campus" && row.part === "advisories")).toMatchObject({
      calls: 1,
      inputTokens: 700,
    });

    const perModel = await sums(server, inPeriod, `provider, model, ${PART}`);
    expect(dashboard.spendModels.map((row) => [row.provider, row.model, row.part, row.calls, Number(row.spend.toFixed(6))]).sort()).toEqual(
      perModel.map((row) => [row.provider, row.model, row.case, row.calls, Number(row.spend)]).sort(),
    );

    const thirty = (await (await server.fetch("/api/admin/dashboard?days=30", { headers: { Cookie: admin.cookie } })).json()) as {
      dashboard: Dashboard;
    };
    const [all] = await sums(server, `created_at >= '${new Date(today.getTime() - 29 * DAY).toISOString()}'`, "");
    expect(thirty.dashboard.spend.reduce((total, row) => total + row.spend, 0)).toBeCloseTo(Number(all?.spend), 6);

    const csv = await (await server.fetch("/api/admin/dashboard/export?dataset=spend&days=7", { headers: { Cookie: admin.cookie } })).text();
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toBe("date,calls,input_tokens,cached_input_tokens,output_tokens,spend");
    // (600 × 2 + 400 × 0.5 + 100 × 10) + (200 × 2 + 1000 × 0.5 + 100 × 10) + (3000 × 2 + 300 × 10) millionths of a dollar.
    expect(lines).toContain(`${daysAgo(1).toISOString().slice(0, 10)},4,6200,1800,600,0.0133`);
  });
});

describe("the price table's API", () => {
  const price = {
    provider: "anthropic",
    model: "claude-x",
    inputPerMillion: 3,
    cachedInputPerMillion: 0.3,
    cacheWritePerMillion: 3.75,
    outputPerMillion: 15,
    currency: "usd",
  };

  test("sets, lists, changes and removes a model's price", async ({ api }) => {
    expect(await api("PUT", "/api/admin/model-prices", price)).toEqual({ status: 200, body: { price: { ...price, currency: "USD" } } });
    expect(await api("PUT", "/api/admin/model-prices", { ...price, outputPerMillion: 12 })).toMatchObject({
      status: 200,
      body: { price: { outputPerMillion: 12 } },
    });
    expect((await api("GET", "/api/admin/model-prices")).body.prices).toEqual([{ ...price, currency: "USD", outputPerMillion: 12 }]);
    expect(await api("DELETE", "/api/admin/model-prices", { provider: "anthropic", model: "claude-x" })).toEqual({
      status: 200,
      body: { deleted: true },
    });
    expect((await api("GET", "/api/admin/model-prices")).body.prices).toEqual([]);
    expect((await api("DELETE", "/api/admin/model-prices", { provider: "anthropic", model: "claude-x" })).status).toBe(404);
  });

  test("refuses a bad price with a sentence", async ({ api }) => {
    const refusals = [
      [{ ...price, inputPerMillion: -1 }, "The input price cannot be negative."],
      [{ ...price, outputPerMillion: "cheap" }, "Enter the output price per million tokens as a number."],
      [{ ...price, cachedInputPerMillion: 5000 }, "The cached input price can be at most 1000 per million tokens."],
      [{ ...price, provider: "acme" }, "Choose a provider: offline, openai-compatible, openai, anthropic."],
      [{ ...price, model: " " }, "Enter the model's id, as the provider names it."],
      [{ ...price, currency: "dollars" }, "Enter the currency as a three-letter code, such as USD."],
    ] as const;
    for (const [body, error] of refusals) {
      const answer = await api("PUT", "/api/admin/model-prices", body);
      expect(answer.status, error).toBe(400);
      expect(answer.body.error).toContain(error);
    }
  });

  test("is for admins only", async ({ server }) => {
    expect((await server.fetch("/api/admin/model-prices")).status).toBe(401);
  });
});
