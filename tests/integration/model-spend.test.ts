import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { creditLedger, modelCalls, stories, user } from "#app/db/schema.ts";
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

type Call = typeof modelCalls.$inferInsert;
const call = (overrides: Partial<Call>): Call => ({
  kind: "send",
  gameSlug: "empress-simulator",
  provider: "openai-compatible",
  model: "model-a",
  inputTokens: 1000,
  cachedInputTokens: 400,
  outputTokens: 100,
  estimated: false,
  totalMs: 900,
  outcome: "ok",
  cost: 0.002,
  currency: "USD",
  createdAt: daysAgo(1),
  ...overrides,
});

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
  test("equals the sums of the recorded calls per day, per game and per model, summaries on their own line", async ({ server, admin }) => {
    const db = server.connection.db;
    await db.insert(user).values({ id: "spend-player", name: "spend", email: "spend@example.com" });
    const [story] = await db.insert(stories).values({ userId: "spend-player", gameSlug: "empress-simulator" }).returning({ id: stories.id });
    await db.insert(modelCalls).values([
      call({ storyId: story!.id, userId: "spend-player" }),
      call({ kind: "retry", inputTokens: 1200, cachedInputTokens: 1000, cost: 0.0011 }),
      call({ kind: "summary", inputTokens: 3000, cachedInputTokens: 0, outputTokens: 300, cost: 0.009 }),
      call({ gameSlug: "mary-sue-campus", model: "model-b", provider: "anthropic", cost: 0.05, createdAt: daysAgo(3) }),
      call({ gameSlug: "mary-sue-campus", model: "model-unpriced", cost: null, currency: null, outcome: "failed", estimated: true }),
      call({ model: "model-euro", cost: 0.5, currency: "EUR", createdAt: daysAgo(2) }),
      // Outside a 7-day period, inside 30 days.
      call({ cost: 1, createdAt: daysAgo(20) }),
    ]);
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

    const perGame = await sums(server, inPeriod, "game_slug, kind = 'summary'");
    expect(
      dashboard.spendGames
        .map((row) => [row.slug, row.summaries, row.calls, row.inputTokens, row.cachedInputTokens, row.outputTokens, Number(row.spend.toFixed(6))])
        .sort(),
    ).toEqual(perGame.map((row) => [row.game_slug, row["?column?"], row.calls, row.input, row.cached, row.output, Number(row.spend)]).sort());
    expect(dashboard.spendGames.find((row) => row.slug === "empress-simulator" && row.summaries)).toMatchObject({ calls: 1, inputTokens: 3000 });
    expect(dashboard.spendGames.find((row) => row.slug === "mary-sue-campus")).toMatchObject({ unpricedCalls: 1 });

    const perModel = await sums(server, inPeriod, "provider, model, kind = 'summary'");
    expect(dashboard.spendModels.map((row) => [row.provider, row.model, row.summaries, row.calls, Number(row.spend.toFixed(6))]).sort()).toEqual(
      perModel.map((row) => [row.provider, row.model, row["?column?"], row.calls, Number(row.spend)]).sort(),
    );

    const thirty = (await (await server.fetch("/api/admin/dashboard?days=30", { headers: { Cookie: admin.cookie } })).json()) as {
      dashboard: Dashboard;
    };
    const [all] = await sums(server, `created_at >= '${new Date(today.getTime() - 29 * DAY).toISOString()}'`, "");
    expect(thirty.dashboard.spend.reduce((total, row) => total + row.spend, 0)).toBeCloseTo(Number(all?.spend), 6);

    const csv = await (await server.fetch("/api/admin/dashboard/export?dataset=spend&days=7", { headers: { Cookie: admin.cookie } })).text();
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toBe("date,calls,input_tokens,cached_input_tokens,output_tokens,spend");
    expect(lines).toContain(`${daysAgo(1).toISOString().slice(0, 10)},4,6200,1800,600,0.0121`);
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
