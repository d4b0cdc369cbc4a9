import { sql, type SQL } from "drizzle-orm";
import { db } from "../db/database.server.ts";
import type {
  CreditsDay,
  Dashboard,
  DashboardPeriod,
  OpenPayment,
  PackageRevenue,
  PlayedGame,
  PlayersDay,
  RevenueDay,
  TurnsDay,
} from "../lib/admin-dashboard.ts";

/**
 * The admin overview (docs/decisions/034): each figure is one SQL aggregate over a period of whole
 * UTC days ending today, read through an index on its time column (migration 0012), so a year of
 * data costs what the period holds, not what the table holds (`npm run bench -- admin-dashboard`).
 * Time series come from generate_series, so a day when nothing happened is a zero, not a gap.
 */

export interface DashboardRange {
  /** The first day (YYYY-MM-DD, UTC) and the instant it starts (ISO 8601). */
  from: string;
  startsAt: string;
  /** The last day: today (UTC). */
  to: string;
}

const day = (date: Date) => date.toISOString().slice(0, 10);

export function dashboardRange(days: DashboardPeriod, now = new Date()): DashboardRange {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
  return { from: day(start), startsAt: start.toISOString(), to: day(now) };
}

async function rows<Row>(query: SQL): Promise<Row[]> {
  // Both drivers answer { rows }; Drizzle types the answer per driver.
  const result = (await db().execute(query)) as { rows: Row[] };
  return result.rows;
}

/** Every day of the range, left-joined to `perDay` (a query with a `day` date column and the named values). */
function daily(range: DashboardRange, perDay: SQL, values: string[]): SQL {
  const columns = sql.raw(values.map((name) => `coalesce(counted."${name}", 0)::float8 as "${name}"`).join(", "));
  return sql`
    select to_char(days.day, 'YYYY-MM-DD') as "day", ${columns}
    from generate_series(${range.from}::date, ${range.to}::date, interval '1 day') as days(day)
    left join (${perDay}) as counted on counted.day = days.day::date
    order by days.day`;
}

/** A timestamp column's UTC day. */
const utcDay = (column: string) => sql.raw(`(${column} at time zone 'UTC')::date`);

/** How many games the overview ranks, and how many failed or pending payments it lists. */
export const MOST_PLAYED_SHOWN = 10;
export const OPEN_PAYMENTS_SHOWN = 50;

/** Each figure's query on its own, so the bench can time them one by one. */
export const dashboardQueries = {
  totalPlayers: async () => {
    const [row] = await rows<{ total: number }>(sql`select count(*)::int as total from "user"`);
    return row?.total ?? 0;
  },

  players: (range: DashboardRange) =>
    rows<PlayersDay>(
      daily(
        range,
        sql`select ${utcDay("created_at")} as day, count(*) as "newPlayers"
            from "user" where created_at >= ${range.startsAt}::timestamptz group by 1`,
        ["newPlayers"],
      ),
    ),

  turns: (range: DashboardRange) =>
    rows<TurnsDay>(
      daily(
        range,
        sql`select ${utcDay("created_at")} as day, count(*) as turns
            from game_messages where role = 'user' and created_at >= ${range.startsAt}::timestamptz group by 1`,
        ["turns"],
      ),
    ),

  credits: (range: DashboardRange) =>
    rows<CreditsDay>(
      daily(
        range,
        sql`select ${utcDay("created_at")} as day,
              sum(delta) filter (where reason = 'purchase') as bought,
              -sum(delta) filter (where reason in ('chat_message', 'refund')) as spent,
              sum(delta) filter (where reason = 'admin_grant') as granted
            from credit_ledger where created_at >= ${range.startsAt}::timestamptz group by 1`,
        ["bought", "spent", "granted"],
      ),
    ),

  revenue: (range: DashboardRange) =>
    rows<RevenueDay>(
      daily(
        range,
        sql`select ${utcDay("completed_at")} as day, count(*) as payments, sum(amount_cents) as "revenueCents"
            from payments where status = 'completed' and completed_at >= ${range.startsAt}::timestamptz group by 1`,
        ["payments", "revenueCents"],
      ),
    ),

  packages: (range: DashboardRange) =>
    rows<PackageRevenue>(sql`
      select package_id as "packageId", count(*)::int as payments, sum(credits)::float8 as credits,
        sum(amount_cents)::float8 as "revenueCents"
      from payments where status = 'completed' and completed_at >= ${range.startsAt}::timestamptz
      group by package_id order by "revenueCents" desc, package_id`),

  games: (range: DashboardRange) =>
    rows<PlayedGame>(sql`
      select played.game_slug as slug, games.title, played.turns, played.players
      from (
        select game_slug, count(*)::int as turns, count(distinct user_id)::int as players
        from game_messages where role = 'user' and created_at >= ${range.startsAt}::timestamptz
        group by game_slug order by turns desc, game_slug limit ${MOST_PLAYED_SHOWN}
      ) as played
      join games on games.slug = played.game_slug
      order by played.turns desc, games.title`),

  openPayments: (range: DashboardRange) =>
    rows<OpenPayment>(sql`
      select payments.id, "user".email, payments.package_id as "packageId", payments.amount_cents as "amountCents",
        payments.status, to_char(payments.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "createdAt"
      from payments join "user" on "user".id = payments.user_id
      where payments.status in ('pending', 'failed') and payments.created_at >= ${range.startsAt}::timestamptz
      order by payments.created_at desc limit ${OPEN_PAYMENTS_SHOWN}`),
} as const;

export async function loadDashboard(days: DashboardPeriod, now = new Date()): Promise<Dashboard> {
  const range = dashboardRange(days, now);
  const [totalPlayers, players, turns, credits, revenue, packages, games, openPayments] = await Promise.all([
    dashboardQueries.totalPlayers(),
    dashboardQueries.players(range),
    dashboardQueries.turns(range),
    dashboardQueries.credits(range),
    dashboardQueries.revenue(range),
    dashboardQueries.packages(range),
    dashboardQueries.games(range),
    dashboardQueries.openPayments(range),
  ]);
  return { days, from: range.from, to: range.to, totalPlayers, players, turns, credits, revenue, packages, games, openPayments };
}
