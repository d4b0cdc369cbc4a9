import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { creditLedger, dailyCredits, dailyTurns, gameMessages, payments, stories, user } from "#app/db/schema.ts";
import { dashboardRange } from "#app/domain/admin-dashboard.server.ts";
import type { Dashboard } from "#app/lib/admin-dashboard.ts";
import { makeAdmin, signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";

/**
 * The admin overview against a dataset with known totals, written in the past (2, 20, 60 and 200
 * days ago) so each period sees its own share. Sign-ups made by the test itself happen today; the
 * figures below are of the days before.
 */

let server: TestServer;
let admin: TestAccount;

const DAY = 24 * 60 * 60 * 1000;
const today = new Date(new Date().toISOString().slice(0, 10) + "T00:00:00Z");
/** Noon (UTC) `days` days ago. */
const daysAgo = (days: number) => new Date(today.getTime() - days * DAY + 12 * 60 * 60 * 1000);
const dayOf = (days: number) => daysAgo(days).toISOString().slice(0, 10);

beforeAll(async () => {
  server = await startTestServer();
  admin = await signUp(server);
  await makeAdmin(server, admin);
  const db = server.connection.db;
  const player = (id: string, days: number, email = `${id}@example.com`) => ({ id, name: id, email, createdAt: daysAgo(days) });
  await db
    .insert(user)
    .values([
      player("dash-a", 2),
      player("dash-b", 2),
      player("dash-c", 2, "=1+1@example.com"),
      player("dash-d", 20),
      player("dash-e", 60),
      player("dash-f", 60),
      player("dash-g", 200),
    ]);
  const story = async (userId: string, gameSlug: string, days: number) => {
    const [row] = await db
      .insert(stories)
      .values({ userId, gameSlug, updatedAt: daysAgo(days) })
      .returning({ id: stories.id });
    return row;
  };
  const storyA = await story("dash-a", "empress-simulator", 2);
  const storyD = await story("dash-d", "mary-sue-campus", 20);
  const storyE = await story("dash-e", "empress-simulator", 60);
  const turns = (storyId: string, userId: string, gameSlug: string, count: number, days: number) =>
    Array.from({ length: count }, (_, index) => [
      { storyId, userId, gameSlug, exchange: index + 1, role: "user" as const, content: "I act.", createdAt: daysAgo(days) },
      { storyId, userId, gameSlug, exchange: index + 1, role: "assistant" as const, content: "It happens.", createdAt: daysAgo(days) },
    ]).flat();
  await db
    .insert(gameMessages)
    .values([
      ...turns(storyA!.id, "dash-a", "empress-simulator", 5, 2),
      ...turns(storyD!.id, "dash-d", "mary-sue-campus", 4, 20),
      ...turns(storyE!.id, "dash-e", "empress-simulator", 7, 60),
    ]);
  const ledger = (
    userId: string,
    delta: number,
    reason: "purchase" | "chat_message" | "refund" | "admin_grant",
    reference: string,
    days: number,
  ) => ({
    userId,
    delta,
    balanceAfter: 1000,
    reason,
    reference,
    createdAt: daysAgo(days),
  });
  await db
    .insert(creditLedger)
    .values([
      ledger("dash-a", 100, "purchase", "dash-pay-1", 2),
      ledger("dash-a", -5, "chat_message", "dash-turn-1", 2),
      ledger("dash-a", 1, "refund", "dash-turn-1", 2),
      ledger("dash-d", 10, "admin_grant", "dash-grant-1", 20),
      ledger("dash-e", 300, "purchase", "dash-pay-3", 60),
    ]);
  const payment = (
    sessionId: string,
    userId: string,
    packageId: string,
    amountCents: number,
    status: "completed" | "failed" | "pending" | "expired",
    days: number,
  ) => ({
    userId,
    provider: "test" as const,
    sessionId,
    packageId,
    credits: amountCents / 5,
    amountCents,
    status,
    createdAt: daysAgo(days),
    completedAt: status === "completed" ? daysAgo(days) : null,
  });
  await db
    .insert(payments)
    .values([
      payment("dash-pay-1", "dash-a", "starter", 500, "completed", 2),
      payment("dash-pay-2", "dash-d", "popular", 1500, "completed", 20),
      payment("dash-pay-3", "dash-e", "popular", 1500, "completed", 60),
      payment("dash-pay-4", "dash-c", "starter", 500, "failed", 2),
      payment("dash-pay-5", "dash-d", "premium", 3000, "pending", 20),
      payment("dash-pay-6", "dash-b", "starter", 500, "expired", 2),
    ]);
});

afterAll(async () => {
  await server.close();
});

async function dashboard(days: number): Promise<Dashboard> {
  const response = await server.fetch(`/api/admin/dashboard?days=${days}`, { headers: { Cookie: admin.cookie } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { dashboard: Dashboard }).dashboard;
}

/** The days before today: today's figures include the accounts the test signed up. */
const past = <Row extends { day: string }>(rows: Row[]) => rows.filter((row) => row.day !== today.toISOString().slice(0, 10));
const total = <Row>(rows: Row[], value: (row: Row) => number) => rows.reduce((sum, row) => sum + value(row), 0);

describe("the admin overview", () => {
  it("has every day of the period, today last, zero where nothing happened", async () => {
    for (const days of [7, 30, 90]) {
      const figures = await dashboard(days);
      expect(figures.days).toBe(days);
      for (const series of [figures.players, figures.turns, figures.credits, figures.revenue]) {
        expect(series).toHaveLength(days);
        expect(series.at(-1)?.day).toBe(figures.to);
        expect(series[0]?.day).toBe(figures.from);
      }
      expect(figures.turns.find((row) => row.day === dayOf(3))?.turns).toBe(0);
    }
  });

  it("counts players, turns, credits and revenue per day over 7 days", async () => {
    const figures = await dashboard(7);
    expect(figures.totalPlayers).toBeGreaterThanOrEqual(8);
    expect(figures.players.find((row) => row.day === dayOf(2))?.newPlayers).toBe(3);
    expect(total(past(figures.players), (row) => row.newPlayers)).toBe(3);
    expect(total(past(figures.turns), (row) => row.turns)).toBe(5);
    expect(figures.credits.find((row) => row.day === dayOf(2))).toEqual({ day: dayOf(2), bought: 100, spent: 4, granted: 0 });
    expect(figures.revenue.find((row) => row.day === dayOf(2))).toEqual({ day: dayOf(2), payments: 1, revenueCents: 500 });
    expect(figures.packages).toEqual([{ packageId: "starter", payments: 1, credits: 100, revenueCents: 500 }]);
    expect(figures.games).toEqual([{ slug: "empress-simulator", title: expect.any(String) as string, turns: 5, players: 1 }]);
    expect(figures.openPayments.map((row) => [row.status, row.email, row.amountCents])).toEqual([["failed", "=1+1@example.com", 500]]);
  });

  it("widens to 30 and 90 days", async () => {
    const month = await dashboard(30);
    expect(total(past(month.players), (row) => row.newPlayers)).toBe(4);
    expect(total(past(month.turns), (row) => row.turns)).toBe(9);
    expect(total(month.credits, (row) => row.granted)).toBe(10);
    expect(total(month.revenue, (row) => row.revenueCents)).toBe(2000);
    expect(month.packages).toEqual([
      { packageId: "popular", payments: 1, credits: 300, revenueCents: 1500 },
      { packageId: "starter", payments: 1, credits: 100, revenueCents: 500 },
    ]);
    expect(month.games.map((row) => [row.slug, row.turns])).toEqual([
      ["empress-simulator", 5],
      ["mary-sue-campus", 4],
    ]);
    expect(month.openPayments.map((row) => row.status)).toEqual(["failed", "pending"]);

    const quarter = await dashboard(90);
    expect(total(past(quarter.players), (row) => row.newPlayers)).toBe(6);
    expect(total(past(quarter.turns), (row) => row.turns)).toBe(16);
    expect(total(quarter.credits, (row) => row.bought)).toBe(400);
    expect(total(quarter.revenue, (row) => row.revenueCents)).toBe(3500);
    expect(quarter.games.map((row) => [row.slug, row.turns, row.players])).toEqual([
      ["empress-simulator", 12, 2],
      ["mary-sue-campus", 4, 1],
    ]);
  });

  it("sums up the days that are over once, and reads them from their totals after", async () => {
    const first = await dashboard(90);
    const summed = await server.connection.db.select({ day: dailyCredits.day }).from(dailyCredits);
    // The days before today, or before yesterday in the hour after midnight (UTC), while its last turns settle.
    const { from, live } = dashboardRange(90);
    expect(summed.length).toBeGreaterThanOrEqual((Date.parse(live) - Date.parse(from)) / DAY);
    expect(
      await server.connection.db
        .select()
        .from(dailyTurns)
        .where(eq(dailyTurns.day, dayOf(60))),
    ).toEqual([{ day: dayOf(60), gameSlug: "empress-simulator", turns: 7 }]);
    expect(await dashboard(90)).toEqual(first);
  });

  it("takes 30 days for a period it does not offer", async () => {
    expect((await dashboard(365)).days).toBe(30);
  });

  it("is rendered with the /admin page, the overview first", async () => {
    const response = await server.fetch("/admin?days=7", { headers: { Cookie: admin.cookie } });
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).toContain("Overview");
    expect(html).toContain("New players per day");
    expect(html).toContain("Failed and pending payments");
    expect(html).toContain("=1+1@example.com");
  });
});

describe("the overview's CSV downloads", () => {
  async function csv(query: string) {
    return server.fetch(`/api/admin/dashboard/export?${query}`, { headers: { Cookie: admin.cookie } });
  }

  it("answer each dataset as an attachment, one row per day", async () => {
    const response = await csv("dataset=revenue&days=7");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="revenue-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await response.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe("day,payments,revenue_usd");
    expect(lines).toHaveLength(8);
    expect(lines).toContain(`${dayOf(2)},1,5.00`);
  });

  it("defuse a cell a spreadsheet would run as a formula", async () => {
    const text = await (await csv("dataset=payments&days=7")).text();
    expect(text).toContain(",'=1+1@example.com,starter,5.00");
  });

  it("refuse an unknown dataset with a sentence", async () => {
    const response = await csv("dataset=secrets&days=7");
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toContain("Choose a dataset");
  });
});
