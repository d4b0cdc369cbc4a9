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
  RatedGame,
  RatedModel,
  RatingsDay,
  RevenueDay,
  GameSpend,
  ModelSpend,
  SpendDay,
  TurnsDay,
} from "../lib/admin-dashboard.ts";

/**
 * The admin overview (docs/decisions/034): each figure is one SQL aggregate over a period of whole
 * UTC days ending today, read through an index on its time column (migration 0014), so a year of
 * data costs what the period holds, not what the table holds (`npm run bench -- admin-dashboard`).
 * Time series come from generate_series, so a day when nothing happened is a zero, not a gap.
 */

export interface DashboardRange {
  /** The first day (YYYY-MM-DD, UTC) and the instant it starts (ISO 8601). */
  from: string;
  startsAt: string;
  /** The last day: today (UTC). */
  to: string;
  /**
   * The first day read from the live tables (and the instant it starts): the days before it are
   * over and read from their totals (daily_turns, daily_credits). A day counts as over an hour
   * after midnight, so a turn begun just before midnight has committed by then.
   */
  live: string;
  liveAt: string;
}

const day = (date: Date) => date.toISOString().slice(0, 10);
const startOf = (isoDay: string) => `${isoDay}T00:00:00.000Z`;
const SETTLING_MS = 60 * 60 * 1000;

export function dashboardRange(days: DashboardPeriod, now = new Date()): DashboardRange {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
  const from = day(start);
  const settling = day(new Date(now.getTime() - SETTLING_MS));
  const live = settling > from ? settling : from;
  return { from, startsAt: start.toISOString(), to: day(now), live, liveAt: startOf(live) };
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

/** A day's credits from its ledger rows: bought, spent (turns less their refunds), granted by admins. */
const CREDIT_TOTALS = sql`
  coalesce(sum(delta) filter (where reason = 'purchase'), 0) as bought,
  coalesce(-sum(delta) filter (where reason in ('chat_message', 'refund')), 0) as spent,
  coalesce(sum(delta) filter (where reason = 'admin_grant'), 0) as granted`;

/**
 * Writes the totals of the period's days that are over and were never summed up: one pass over
 * their turns and ledger rows, once; every later overview reads a row a day. Two overviews doing
 * it at once write the same figures; the second's rows are skipped.
 */
export async function sumUpSettledDays(range: DashboardRange): Promise<void> {
  if (range.live <= range.from) return;
  const missing = await rows<{ day: string }>(sql`
    select to_char(days.day, 'YYYY-MM-DD') as day
    from generate_series(${range.from}::date, ${range.live}::date - 1, interval '1 day') as days(day)
    where not exists (select 1 from daily_credits where daily_credits.day = days.day::date)
    order by days.day`);
  const first = missing[0]?.day;
  const last = missing.at(-1)?.day;
  if (!first || !last) return;
  const missingDays = sql`select d::date from generate_series(${first}::date, ${last}::date, interval '1 day') as d
    where not exists (select 1 from daily_credits where daily_credits.day = d::date)`;
  const between = sql`created_at >= ${startOf(first)}::timestamptz and created_at < ${startOf(last)}::timestamptz + interval '1 day'`;
  await db().transaction(async (tx) => {
    await tx.execute(sql`
      insert into daily_turns (day, game_slug, turns)
      select ${utcDay("created_at")}, game_slug, count(*) from game_messages
      where role = 'user' and copied_from is null and ${between} and ${utcDay("created_at")} in (${missingDays})
      group by 1, 2
      on conflict do nothing`);
    await tx.execute(sql`
      insert into daily_credits (day, bought, spent, granted)
      select missing.day, coalesce(counted.bought, 0), coalesce(counted.spent, 0), coalesce(counted.granted, 0)
      from (${missingDays}) as missing(day)
      left join (
        select ${utcDay("created_at")} as day, ${CREDIT_TOTALS} from credit_ledger where ${between} group by 1
      ) as counted on counted.day = missing.day
      on conflict do nothing`);
  });
}

/**
 * The ratings set in the period (by when the player last set them) of replies still in their
 * story: a rating of a reply undone or edited away is kept, and not counted.
 */
const COUNTED_RATINGS = (range: DashboardRange) => sql`(
  select ratings.rating, ratings.rated_at, ratings.model_provider, ratings.model, replies.game_slug
  from reply_ratings as ratings join game_messages as replies on replies.id = ratings.message_id
  where ratings.rated_at >= ${range.startsAt}::timestamptz and replies.removed_at is null
) as ratings`;

const RATING_TOTALS = sql`
  count(*) filter (where ratings.rating = 'good')::int as good,
  count(*) filter (where ratings.rating = 'bad')::int as bad`;

/**
 * What the period's model calls used and cost (issue 34), from their daily totals (model_spend_days,
 * kept by record_model_call.sql as each call is recorded: docs/decisions/060); spend in US dollars
 * only (the revenue's currency).
 */
const SPEND_TOTALS = sql`
  sum(calls.calls)::int as calls, sum(calls.input_tokens)::float8 as "inputTokens",
  sum(calls.cached_input_tokens)::float8 as "cachedInputTokens", sum(calls.output_tokens)::float8 as "outputTokens",
  sum(calls.spend)::float8 as spend`;
const SPEND_LINE = sql`${SPEND_TOTALS}, calls.part, sum(calls.unpriced_calls)::int as "unpricedCalls"`;
const CALLED_IN = (range: DashboardRange) => sql`calls.day >= ${range.from}::date`;

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
        sql`select day, sum(turns) as turns from daily_turns where day >= ${range.from}::date and day < ${range.live}::date group by day
            union all
            select ${utcDay("created_at")}, count(*) from game_messages
            where role = 'user' and copied_from is null and created_at >= ${range.liveAt}::timestamptz group by 1`,
        ["turns"],
      ),
    ),

  credits: (range: DashboardRange) =>
    rows<CreditsDay>(
      daily(
        range,
        sql`select day, bought, spent, granted from daily_credits where day >= ${range.from}::date and day < ${range.live}::date
            union all
            select ${utcDay("created_at")}, ${CREDIT_TOTALS}
            from credit_ledger where created_at >= ${range.liveAt}::timestamptz group by 1`,
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

  // Players: those with a story of the game that moved in the period (stories are few next to turns).
  games: (range: DashboardRange) =>
    rows<PlayedGame>(sql`
      select played.game_slug as slug, games.title, played.turns, players.count as players
      from (
        select game_slug, sum(turns)::int as turns
        from (
          select game_slug, turns from daily_turns where day >= ${range.from}::date and day < ${range.live}::date
          union all
          select game_slug, count(*) from game_messages
          where role = 'user' and copied_from is null and created_at >= ${range.liveAt}::timestamptz group by game_slug
        ) as both_sides
        group by game_slug order by turns desc, game_slug limit ${MOST_PLAYED_SHOWN}
      ) as played
      join games on games.slug = played.game_slug
      cross join lateral (
        select count(distinct user_id)::int as count from stories
        where stories.game_slug = played.game_slug and stories.updated_at >= ${range.startsAt}::timestamptz
      ) as players
      order by played.turns desc, games.title`),

  // Ratings (issue 33) are few next to turns: read live, by their time, each reply by its key.
  ratings: (range: DashboardRange) =>
    rows<RatingsDay>(
      daily(range, sql`select ${utcDay("ratings.rated_at")} as day, ${RATING_TOTALS} from ${COUNTED_RATINGS(range)} group by 1`, ["good", "bad"]),
    ),

  ratedGames: (range: DashboardRange) =>
    rows<RatedGame>(sql`
      select ratings.game_slug as slug, games.title, ${RATING_TOTALS}
      from ${COUNTED_RATINGS(range)} join games on games.slug = ratings.game_slug
      group by ratings.game_slug, games.title order by count(*) desc, games.title`),

  ratedModels: (range: DashboardRange) =>
    rows<RatedModel>(sql`
      select ratings.model_provider as provider, ratings.model, ${RATING_TOTALS}
      from ${COUNTED_RATINGS(range)}
      group by ratings.model_provider, ratings.model order by count(*) desc, provider, model`),

  spend: (range: DashboardRange) =>
    rows<SpendDay>(
      daily(range, sql`select calls.day, ${SPEND_TOTALS} from model_spend_days as calls where ${CALLED_IN(range)} group by 1`, [
        "calls",
        "inputTokens",
        "cachedInputTokens",
        "outputTokens",
        "spend",
      ]),
    ),

  spendGames: (range: DashboardRange) =>
    rows<GameSpend>(sql`
      select calls.game_slug as slug, games.title, ${SPEND_LINE}
      from model_spend_days as calls left join games on games.slug = calls.game_slug
      where ${CALLED_IN(range)}
      group by calls.game_slug, games.title, calls.part order by spend desc, games.title, calls.part`),

  spendModels: (range: DashboardRange) =>
    rows<ModelSpend>(sql`
      select calls.provider, calls.model, ${SPEND_LINE}
      from model_spend_days as calls where ${CALLED_IN(range)}
      group by calls.provider, calls.model, calls.part order by spend desc, calls.provider, calls.model, calls.part`),

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
  await sumUpSettledDays(range);
  const figures = await eachResolved({
    totalPlayers: dashboardQueries.totalPlayers(),
    players: dashboardQueries.players(range),
    turns: dashboardQueries.turns(range),
    credits: dashboardQueries.credits(range),
    revenue: dashboardQueries.revenue(range),
    packages: dashboardQueries.packages(range),
    games: dashboardQueries.games(range),
    openPayments: dashboardQueries.openPayments(range),
    ratings: dashboardQueries.ratings(range),
    ratedGames: dashboardQueries.ratedGames(range),
    ratedModels: dashboardQueries.ratedModels(range),
    spend: dashboardQueries.spend(range),
    spendGames: dashboardQueries.spendGames(range),
    spendModels: dashboardQueries.spendModels(range),
  });
  return { days, from: range.from, to: range.to, ...figures };
}

/** The values of named promises, awaited side by side (the overview's queries run at once). */
async function eachResolved<Promises extends Record<string, Promise<unknown>>>(
  promises: Promises,
): Promise<{ [Name in keyof Promises]: Awaited<Promises[Name]> }> {
  const entries = await Promise.all(Object.entries(promises).map(async ([name, promise]) => [name, await promise] as const));
  return Object.fromEntries(entries) as { [Name in keyof Promises]: Awaited<Promises[Name]> };
}
