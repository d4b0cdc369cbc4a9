/**
 * The admin overview on a year of data (issue 20). A scratch database is filled with a generated
 * year — players joining, stories, turns (a player's message and the reply), their ledger rows,
 * payments that completed, failed, wait or expired, grants and refunds; activity grows over the
 * year, and each turn's model call — written by generate_series in a few statements, not row by row. Then each of the
 * overview's queries (app/domain/admin-dashboard.server.ts) and the players search run several
 * times for 7, 30 and 90 days, and their median time is printed, on PostgreSQL and on PGlite, with
 * the one-off pass that writes the totals of the days that are over.
 *
 *   npm run bench -- admin-dashboard
 *   BENCH_DASHBOARD_PLAYERS=20000 BENCH_DASHBOARD_TURNS=1000000 npm run bench -- admin-dashboard
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { connectDatabase, type DatabaseConnection } from "#app/db/client.server.ts";
import { setDatabaseConnection } from "#app/db/database.server.ts";
import { dashboardQueries, dashboardRange, sumUpSettledDays } from "#app/domain/admin-dashboard.server.ts";
import { searchPlayers } from "#app/domain/players-admin.server.ts";
import { DASHBOARD_PERIODS } from "#app/lib/admin-dashboard.ts";
import { SUM_UP_GENERATED_MODEL_CALLS } from "#tests/helpers/model-spend.ts";
import { markdownTable, writeReportSection } from "./report.ts";
import { createScratchDatabase } from "./scratch-database.ts";

const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const PLAYERS = Number(process.env.BENCH_DASHBOARD_PLAYERS ?? 20_000);
const TURNS = Number(process.env.BENCH_DASHBOARD_TURNS ?? 1_000_000);
const PAYMENTS = Number(process.env.BENCH_DASHBOARD_PAYMENTS ?? 15_000);
const RUNS = Number(process.env.BENCH_DASHBOARD_RUNS ?? 7);
const GAMES = 12;

/** A moment in the past year, more of them recent (activity grows): `now - 365 days × u^1.6`, u uniform. */
const WHEN = "now() - interval '365 days' * power(random(), 1.6)";

/** Fills the year: each statement is one INSERT … SELECT over generate_series. */
async function generateYear(connection: DatabaseConnection) {
  const run = (query: string) => connection.db.execute(sql.raw(query));
  await run(`insert into games (slug, title, description, prompt, sort_order)
    select 'bench-game-' || g, 'Bench Game ' || g, 'A generated game.', 'You are the Game Master.', g
    from generate_series(1, ${GAMES}) as g`);
  // The sign-up trigger gives each its profile and bonus, as a real sign-up does.
  await run(`insert into "user" (id, name, email, email_verified, created_at, updated_at)
    select 'bench-' || g, 'Player ' || g, 'player' || g || '@example.com', true, t, t
    from generate_series(1, ${PLAYERS}) as g, lateral (select ${WHEN} + g * interval '0 s' as t) as joined`);
  // Two stories a player, in two of the games.
  await run(`insert into stories (user_id, game_slug, created_at, updated_at)
    select 'bench-' || p, 'bench-game-' || (1 + (p * 7 + s * 5) % ${GAMES}), now(), now()
    from generate_series(1, ${PLAYERS}) as p, generate_series(0, 1) as s`);
  await run(`create temporary table bench_stories as
    select id, user_id, game_slug, (row_number() over (order by id)) - 1 as n from stories`);
  await run(`create index on bench_stories (n)`);
  const stories = PLAYERS * 2;
  // A turn is the player's message and the reply, with the same moment and exchange number.
  await run(`insert into game_messages (user_id, game_slug, story_id, exchange, role, content, created_at)
    select s.user_id, s.game_slug, s.id, t.g / ${stories} + 1, r.role, r.content, t.at
    from (select g, ${WHEN} as at from generate_series(0, ${TURNS - 1}) as g) as t
    join bench_stories as s on s.n = t.g % ${stories}
    cross join (values ('user', 'I look around.'), ('assistant', 'The hall is quiet.')) as r(role, content)`);
  await run(`update stories set exchanges = counted.n, updated_at = counted.last
    from (select story_id, max(exchange) as n, max(created_at) as last from game_messages group by story_id) as counted
    where counted.story_id = stories.id`);
  await run(`insert into credit_ledger (user_id, delta, balance_after, reason, reference, created_at)
    select user_id, -1, 10, 'chat_message', 'turn:' || id, created_at from game_messages where role = 'user'`);
  await run(`insert into credit_ledger (user_id, delta, balance_after, reason, reference, created_at)
    select user_id, 1, 10, 'refund', 'turn:' || id, created_at from game_messages where role = 'user' and id % 97 = 0`);
  // Each turn's model call (issue 34), from two models, and a summary every dozen exchanges.
  await run(`insert into model_calls (kind, story_id, game_slug, user_id, provider, model, input_tokens, cached_input_tokens,
      output_tokens, estimated, first_token_ms, total_ms, outcome, cost, currency, created_at)
    select case when exchange % 12 = 0 then 'summary' else 'send' end, story_id, game_slug, user_id, 'openai-compatible',
      case when id % 3 = 0 then 'bench-large' else 'bench-mini' end, 6000, 4000 + id % 1500, 400, false, 600, 4000,
      case when id % 97 = 0 then 'failed' else 'ok' end, 0.0012 + (id % 5) * 0.0001, 'USD', created_at
    from game_messages where role = 'user'`);
  await run(SUM_UP_GENERATED_MODEL_CALLS);
  await run(`insert into payments (user_id, provider, session_id, package_id, credits, amount_cents, status, created_at, completed_at)
    select 'bench-' || (1 + g * 7919 % ${PLAYERS}), 'test', 'bench-session-' || g, package.id, package.credits, package.cents,
      status.value, t, case when status.value = 'completed' then t + interval '2 minutes' end
    from generate_series(1, ${PAYMENTS}) as g,
      lateral (select ${WHEN} + g * interval '0 s' as t) as started,
      lateral (select (array['starter', 'popular', 'premium'])[1 + g % 3] as id,
        (array[100, 300, 700])[1 + g % 3] as credits, (array[499, 1299, 2499])[1 + g % 3] as cents) as package,
      lateral (select case when g % 20 = 0 then 'failed' when g % 20 = 1 then 'pending' when g % 20 = 2 then 'expired'
        else 'completed' end as value) as status`);
  await run(`insert into credit_ledger (user_id, delta, balance_after, reason, reference, created_at)
    select user_id, credits, 100, 'purchase', session_id, completed_at from payments where status = 'completed'`);
  await run(`insert into credit_ledger (user_id, delta, balance_after, reason, reference, created_at)
    select 'bench-' || (1 + g * 31 % ${PLAYERS}), 10, 30, 'admin_grant', 'bench-grant-' || g, ${WHEN}
    from generate_series(1, 200) as g`);
  // What a database that has been running a year has: statistics and a visibility map.
  await run("vacuum analyze");
}

function median(values: number[]) {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  await work(); // warm: plans and pages in cache, as on a server that answers the panel
  const times: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return median(times);
}

type Timings = Map<string, Record<number, number>>;

interface Measured {
  timings: Timings;
  sizes: Record<string, number>;
  generateSeconds: number;
  /** The one pass that writes the totals of the 89 days before today, the first time the overview covers them. */
  sumUpSeconds: number;
}

async function measure(connection: DatabaseConnection): Promise<Measured> {
  setDatabaseConnection(connection);
  const started = performance.now();
  await generateYear(connection);
  const generateSeconds = (performance.now() - started) / 1000;
  const counts = (await connection.db.execute(
    sql.raw(`select (select count(*) from "user")::int as players, (select count(*) from game_messages where role = 'user')::int as turns,
      (select count(*) from credit_ledger)::int as ledger, (select count(*) from payments)::int as payments,
      (select count(*) from model_calls)::int as calls`),
  )) as { rows: Record<string, number>[] };
  const sumUpStarted = performance.now();
  await sumUpSettledDays(dashboardRange(90));
  const sumUpSeconds = (performance.now() - sumUpStarted) / 1000;
  const timings: Timings = new Map();
  for (const days of DASHBOARD_PERIODS) {
    const range = dashboardRange(days);
    const queries: [string, () => Promise<unknown>][] = [
      ["players (total)", () => dashboardQueries.totalPlayers()],
      ["new players per day", () => dashboardQueries.players(range)],
      ["turns per day", () => dashboardQueries.turns(range)],
      ["credits per day", () => dashboardQueries.credits(range)],
      ["revenue per day", () => dashboardQueries.revenue(range)],
      ["revenue per package", () => dashboardQueries.packages(range)],
      ["most played games", () => dashboardQueries.games(range)],
      ["failed and pending payments", () => dashboardQueries.openPayments(range)],
      ["model spend per day", () => dashboardQueries.spend(range)],
      ["model spend per game", () => dashboardQueries.spendGames(range)],
      ["model spend per model", () => dashboardQueries.spendModels(range)],
    ];
    for (const [name, query] of queries) {
      const row = timings.get(name) ?? {};
      row[days] = await timed(query);
      timings.set(name, row);
    }
  }
  timings.set("players search (email or name contains)", { 0: await timed(() => searchPlayers("player1234")) });
  return { timings, sizes: counts.rows[0] ?? {}, generateSeconds, sumUpSeconds };
}

function table(timings: Timings): string {
  const ms = (value: number | undefined) => (value === undefined ? "—" : `${value.toFixed(1)} ms`);
  const rows = [...timings].map(([name, byDays]) =>
    0 in byDays ? [name, ms(byDays[0]), "", ""] : [name, ...DASHBOARD_PERIODS.map((days) => ms(byDays[days]))],
  );
  return markdownTable(["query", "7 days", "30 days", "90 days"], rows);
}

/** One backend's section of the report, printed as soon as it is measured. */
function section(backend: string, { timings, sizes, generateSeconds, sumUpSeconds }: Measured) {
  const count = (name: string) => Number(sizes[name]).toLocaleString("en-US");
  const size = `${count("players")} players, ${count("turns")} turns (twice as many messages), ${count("ledger")} ledger rows, ${count("payments")} payments, ${count("calls")} model calls over 365 days, generated in ${generateSeconds.toFixed(0)} s`;
  const once = `Summing up the 89 days before today, once (the first overview of 90 days does it): ${sumUpSeconds.toFixed(1)} s.`;
  const text = `### ${backend}\n\n${size}. ${once} Then the median of ${RUNS} runs after one warm-up, one query at a time:\n\n${table(timings)}`;
  console.log(`\n${text}`);
  return text;
}

const sections: string[] = [];

const scratch = await createScratchDatabase(POSTGRES_URL, "bench_dashboard");
if (scratch) {
  const connection = await connectDatabase({ databaseUrl: scratch.url, dataDir: "", migrate: true, maxConnections: 4 });
  try {
    sections.push(section("PostgreSQL", await measure(connection)));
  } finally {
    await connection.close();
    await scratch.drop();
  }
}

const dataDir = mkdtempSync(path.join(tmpdir(), "pae-bench-dashboard-"));
const pglite = await connectDatabase({ dataDir, migrate: true });
try {
  sections.push(section("PGlite", await measure(pglite)));
} finally {
  await pglite.close();
  rmSync(dataDir, { recursive: true, force: true });
}

writeReportSection(
  "admin-dashboard",
  "Admin overview on a year of data",
  [
    "Each figure of the admin overview is one SQL aggregate over the period (migration 0014's indexes). Turns and credits of the days that are over are read from their daily totals, written once (`daily_turns`, `daily_credits`); today's are read live. The overview runs the queries together (`loadDashboard`); on PGlite they queue on its one connection, so the page costs about their sum.",
    ...sections,
  ].join("\n\n"),
);
