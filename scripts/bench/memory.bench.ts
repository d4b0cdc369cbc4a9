/**
 * The server's memory as `npm start` runs it, read from /proc/<pid>/status (VmRSS, and VmHWM for
 * the peak): right after a first start on an empty data directory (migrations and seed included),
 * after page requests (visitors' and a signed-in player's), after Game Master turns (the offline
 * storyteller, as `npm run demo` plays), at rest after a quiet spell, and after a restart on the
 * same data. The peak is the server's own: the short-lived process that creates a new PGlite data
 * directory is not counted (docs/decisions/028). On PGlite, and on PostgreSQL when BENCH_DATABASE_URL is set (a scratch database is
 * created there and dropped afterwards). Also prints the signed-in pages' latency and a turn's
 * duration, to show what a memory setting costs in speed. Goal (issue 18): PGlite at rest
 * ≤ 300 MiB.
 *
 *   npm run bench -- memory
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench -- memory
 *
 * BENCH_SERVER_NODE_FLAGS adds Node flags to those of `npm start`, to measure other settings.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { startServerProcess, type ServerProcess } from "#tests/helpers/process.ts";
import { markdownTable, writeReportSection } from "./report.ts";
import { createScratchDatabase } from "./scratch-database.ts";
import { createTurnClient } from "./turn-client.ts";

const GOAL_MIB = 300;
const VISITOR_PAGES = ["/", "/games", "/game/empress-simulator", "/game/cultivation-simulator", "/guides", "/blog", "/about"];
const PLAYER_PAGES = ["/", "/games", "/play/empress-simulator", "/stories", "/credits"];
const PLAYER_PAGE_REQUESTS = 1000;
const GAMES = ["empress-simulator", "cultivation-simulator", "celebrity-life", "mary-sue-campus"];
/** Each player takes its turns one after another, the players at the same time; 20 starter credits each. */
const TURNS_PER_PLAYER = 8;
const REST_SECONDS = 15;
const NODE_FLAGS = process.env.BENCH_SERVER_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? [];

interface Memory {
  rss: number;
  peak: number;
}

interface Row {
  database: string;
  /** Seconds from spawning the process to /readyz answering, on an empty data directory and again on the same data. */
  startSeconds: { first: number; again: number };
  started: Memory;
  afterPages: Memory;
  afterTurns: Memory;
  atRest: Memory;
  restarted: Memory;
  pageLatency: { requestsPerSecond: number; p50: number; p99: number; failures: number };
  turnMs: { p50: number; max: number; failures: number };
}

function memoryOf(server: ServerProcess): Memory {
  const status = readFileSync(`/proc/${server.child.pid}/status`, "utf8");
  const mib = (field: string) => Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
  return { rss: mib("VmRSS"), peak: mib("VmHWM") };
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
const percentile = (sorted: number[], share: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;

function start(dataDir: string, env: Record<string, string>) {
  return startServerProcess(
    {
      DATA_DIR: dataDir,
      // The words of a reply arrive at once: the turns measure the server's work, not the storyteller's pacing.
      AI_OFFLINE_WORD_DELAY_MS: "0",
      CHAT_TURNS_PER_MINUTE: "1000",
      ...env,
    },
    NODE_FLAGS,
    [],
    { discardLogs: true },
  );
}

async function visitPages(server: ServerProcess) {
  for (let round = 0; round < 5; round += 1) {
    for (const page of VISITOR_PAGES)
      await (await fetch(server.url + page, { headers: { "Accept-Encoding": "gzip, deflate, br" } })).arrayBuffer();
  }
}

async function playerPages(server: ServerProcess, player: TestAccount) {
  const result = await autocannon({
    url: server.url,
    connections: 10,
    amount: PLAYER_PAGE_REQUESTS,
    headers: { Cookie: player.cookie, "Accept-Encoding": "gzip, deflate, br" },
    requests: PLAYER_PAGES.map((page) => ({ method: "GET", path: page })),
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

async function takeTurns(server: ServerProcess, players: TestAccount[]) {
  const client = createTurnClient(server.url);
  const durations: number[] = [];
  let failures = 0;
  try {
    await Promise.all(
      players.map(async (player, index) => {
        for (let turn = 0; turn < TURNS_PER_PLAYER; turn += 1) {
          const startedAt = performance.now();
          const result = await client.takeTurn(player.token, GAMES[index % GAMES.length]!, false);
          if (result.ok) durations.push(performance.now() - startedAt);
          else failures += 1;
        }
      }),
    );
  } finally {
    client.close();
  }
  durations.sort((a, b) => a - b);
  return { p50: Math.round(percentile(durations, 0.5)), max: Math.round(durations.at(-1) ?? 0), failures };
}

async function timedStart(dataDir: string, env: Record<string, string>) {
  const startedAt = performance.now();
  const server = await start(dataDir, env);
  return { server, seconds: Math.round((performance.now() - startedAt) / 100) / 10 };
}

async function measureDatabase(database: string, env: Record<string, string>): Promise<Row> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "pae-bench-memory-"));
  try {
    const first = await timedStart(dataDir, env);
    let server = first.server;
    let row: Omit<Row, "restarted" | "startSeconds">;
    try {
      const started = memoryOf(server);
      const serverFetch = (pathname: string, init?: RequestInit) => fetch(new URL(pathname, server.url), { redirect: "manual", ...init });
      const players = await Promise.all(GAMES.map(() => signUp({ url: server.url, fetch: serverFetch })));
      await visitPages(server);
      const pageLatency = await playerPages(server, players[0]!);
      const afterPages = memoryOf(server);
      const turnMs = await takeTurns(server, players);
      const afterTurns = memoryOf(server);
      await sleep(REST_SECONDS * 1000);
      row = { database, started, afterPages, afterTurns, atRest: memoryOf(server), pageLatency, turnMs };
    } finally {
      await server.stop();
    }
    const again = await timedStart(dataDir, env);
    server = again.server;
    try {
      await visitPages(server);
      await sleep(REST_SECONDS * 1000);
      return { ...row, restarted: memoryOf(server), startSeconds: { first: first.seconds, again: again.seconds } };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const rows: Row[] = [await measureDatabase("PGlite", {})];
if (process.env.BENCH_DATABASE_URL) {
  const scratch = await createScratchDatabase(process.env.BENCH_DATABASE_URL, "bench_memory");
  if (scratch) {
    try {
      rows.push(await measureDatabase("PostgreSQL", { DATABASE_URL: scratch.url }));
    } finally {
      await scratch.drop();
    }
  }
}

const rss = (memory: Memory) => `${memory.rss}`;
const table = markdownTable(
  [
    "database",
    "start s, first / again",
    "started",
    "after pages",
    "after turns",
    `at rest (${REST_SECONDS} s idle)`,
    "peak (VmHWM)",
    "restarted, at rest / peak",
    "signed-in pages req/s, p50 / p99 ms",
    "turn p50 / max ms",
    `goal: at rest ≤ ${GOAL_MIB} MiB`,
  ],
  rows.map((row) => [
    row.database,
    `${row.startSeconds.first} / ${row.startSeconds.again}`,
    rss(row.started),
    rss(row.afterPages),
    rss(row.afterTurns),
    rss(row.atRest),
    row.atRest.peak,
    `${row.restarted.rss} / ${row.restarted.peak}`,
    `${row.pageLatency.requestsPerSecond}, ${row.pageLatency.p50} / ${row.pageLatency.p99}${row.pageLatency.failures ? ` (${row.pageLatency.failures} failed)` : ""}`,
    `${row.turnMs.p50} / ${row.turnMs.max}${row.turnMs.failures ? ` (${row.turnMs.failures} failed)` : ""}`,
    row.database === "PGlite" ? (row.atRest.rss <= GOAL_MIB && row.restarted.rss <= GOAL_MIB ? "met" : "MISSED") : "—",
  ]),
);
console.log(
  `RSS in MiB. ${GAMES.length} players; ${PLAYER_PAGE_REQUESTS} signed-in page requests (10 connections); ` +
    `${TURNS_PER_PLAYER} turns per player, the players at once${NODE_FLAGS.length ? `; extra Node flags: ${NODE_FLAGS.join(" ")}` : ""}\n`,
);
console.log(table);
writeReportSection(
  "memory",
  "Memory of one server process (`memory`)",
  [
    `The built server as \`npm start\` runs it, RSS in MiB from /proc/<pid>/status: right after a first start on an`,
    `empty data directory (migrations and seed included), after ${VISITOR_PAGES.length * 5} visitor page requests and`,
    `${PLAYER_PAGE_REQUESTS} signed-in ones (10 connections), after ${GAMES.length} players took ${TURNS_PER_PLAYER} Game Master turns each`,
    `at the same time (offline storyteller, words without delay), after ${REST_SECONDS} s idle, and after a restart on the same`,
    `data (a few pages, ${REST_SECONDS} s idle). The peak is VmHWM over the first run, the server's own: the short-lived`,
    `process that creates a new PGlite directory is not counted (docs/decisions/028). Goal (issue 18): PGlite at rest ≤ ${GOAL_MIB} MiB.`,
    ...(NODE_FLAGS.length ? ["", `Extra Node flags: \`${NODE_FLAGS.join(" ")}\`.`] : []),
    "",
    table,
  ].join("\n"),
);
