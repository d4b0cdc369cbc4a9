/**
 * The Game Master under load, against a baseline doing the same job in the same run: a minimal
 * relay (relay.ts: the session, the debit with its ledger row and the story window in one
 * statement, the model's reply streamed through, the exchange stored) on the same PostgreSQL
 * database, with the same players, the same local OpenAI-compatible model and the same load
 * generator. The site runs as `npm start` does, logging at `info`. Site and relay take turns at
 * each step, and every figure is printed with its ratio to the relay's (issue 18's goals).
 *
 *   - Added time to first token, p50 and p99, at 1, 50 and 200 streams: a probe player (a thread
 *     of its own) takes turns answered at once while the other streams run.
 *   - Turns per second with an instant model: players taking turns back to back; CPU per turn of
 *     the server process and of the database's backends.
 *   - Streams held at 50 ms a token: each level is held for a while, each ending turn replaced at
 *     once; held means no turn failed, responsive that the first token came within a second at
 *     p99. Turns the site's admission refused (503) are counted apart from failures.
 *
 *   npm run bench -- game-chat
 *
 * PostgreSQL from BENCH_DATABASE_URL, TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres
 * (a scratch database is created and dropped). BENCH_LATENCY=1,50,200 and
 * BENCH_CAPACITY=500,1000,1500,2000,2500 set the levels (either may be empty); BENCH_QUICK=1 runs
 * a short version; BENCH_SERVER_NODE_FLAGS adds Node flags to those of `npm start`.
 *
 * - Recording's cost (issue 34): the site's turns per second and first-token latency with each
 *   model call recorded (record_model_call.sql: the call's row and its day's totals, in the
 *   statement that finishes the turn) and with recording off — the same function replaced, in
 *   the scratch database only, by one that writes nothing — in alternating rounds.
 *
 * BENCH_RECORDING_ONLY=1 runs that last measure alone.
 *
 * BENCH_PROFILE=1 measures where the site's process spends a turn instead: the site runs under
 * V8's CPU profiler (which slows it, so no ratio of that run is reported), only the turns-per-second
 * test runs, and the profile of its turns is written as its own section (cpu-profile.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import pg from "pg";
import { eq } from "drizzle-orm";
import { connectDatabase } from "#app/db/client.server.ts";
import { stories } from "#app/db/schema.ts";
import { setDatabaseConnection } from "#app/db/database.server.ts";
import { applyCreditChange } from "#app/domain/credits.server.ts";
import { GAME_MASTER_STREAMS_PER_CORE } from "#app/env.server.ts";
import { startServerProcess } from "#tests/helpers/process.ts";
import { OPENING_EXCHANGE, seedStory } from "#tests/helpers/stories.ts";
import { profileShares, type ProfileWindow } from "./cpu-profile.ts";
import type { ModelSettings } from "./model-worker.ts";
import type { ProbeRequest } from "./probe-worker.ts";
import { markdownTable, writeReportSection } from "./report.ts";
import { createScratchDatabase } from "./scratch-database.ts";
import { createTurnClient, PROBE_MARKER, type TurnResult } from "./turn-client.ts";

const QUICK = process.env.BENCH_QUICK === "1";
const PROFILE = process.env.BENCH_PROFILE === "1";
const RECORDING_ONLY = process.env.BENCH_RECORDING_ONLY === "1";
const levels = (list: string) => list.split(",").filter(Boolean).map(Number);
const LATENCY_LEVELS = levels(process.env.BENCH_LATENCY ?? (PROFILE || RECORDING_ONLY ? "" : "1,50,200"));
const CAPACITY_LEVELS = levels(process.env.BENCH_CAPACITY ?? (PROFILE || RECORDING_ONLY ? "" : QUICK ? "500,1000" : "500,1000,1500,2000,2500"));
/**
 * Rounds of recording's cost, each a short turns-per-second run with recording on and one with it
 * off, side by side: each round's pair is compared, so a machine whose load drifts (other work on
 * its cores) moves both of a pair alike.
 */
const RECORDING_ROUNDS = QUICK ? 6 : 12;
const RECORDING_RUN_MS = QUICK ? 2_000 : 4_000;
/** Enough turns that p99 is not decided by two or three of them. */
const PROBE_TURNS = QUICK ? 100 : 300;
/** The probe pauses between its turns, as a player reads before answering. */
const PROBE_PAUSE_MS = 50;
/** Background replies: 100 tokens, 50 ms apart — a 5 s reply. */
const REPLY_TOKENS = Array.from({ length: 100 }, (_, index) => (index % 12 === 11 ? "word.\n\n" : "word "));
const TOKEN_DELAY_MS = 50;
const CAPACITY_HOLD_MS = QUICK ? 10_000 : 20_000;
/** Players taking instant turns back to back in the throughput test, and for how long. */
const THROUGHPUT_PLAYERS = 32;
const THROUGHPUT_MS = QUICK ? 5_000 : 10_000;
const RESPONSIVE_P99_MS = 1000;
const GOALS = { turnsPerSecond: 0.7, firstTokenP50: 1.5, firstTokenP99: 2, streams: 2000, memoryMiB: 512, recordingCost: 0.03 };
const GAMES = ["empress-simulator", "cultivation-simulator", "celebrity-life", "matriarch-harem-simulator", "mary-sue-campus"];
/** A story has one reply in flight at a time: enough players that every stream has a story of its own. */
const PLAYERS = Math.max(THROUGHPUT_PLAYERS + 1, Math.ceil(Math.max(...CAPACITY_LEVELS, ...LATENCY_LEVELS) / GAMES.length) + 1);
/** The relay plays stories of its own, with this title. */
const RELAY_STORY_TITLE = "relay";
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

// ---------------------------------------------------------------------------------------------
// The model, the database, the site and the relay

const modelThread = new Worker(new URL("./model-worker.ts", import.meta.url), {
  workerData: { probeMarker: PROBE_MARKER, replyTokens: REPLY_TOKENS, tokenDelayMs: TOKEN_DELAY_MS } satisfies ModelSettings,
});
const [modelBaseUrl] = (await once(modelThread, "message")) as [string];

const scratch = await createScratchDatabase(POSTGRES_URL, "bench_chat");
if (!scratch) {
  console.log("The Game Master bench needs PostgreSQL: the relay it is measured against runs on it.");
  await modelThread.terminate();
  process.exit(0);
}
const databaseUrl = scratch.url;
if (PROFILE) {
  // Each PL/pgSQL function's calls and time, for the database's part of a turn (set before the
  // site connects: the setting is read when a connection opens).
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query("DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET track_functions = %L', current_database(), 'pl'); END $$");
  await admin.end();
}
const dataDir = mkdtempSync(path.join(tmpdir(), "pae-bench-chat-"));
const profileDir = PROFILE ? mkdtempSync(path.join(tmpdir(), "pae-bench-profile-")) : undefined;

interface Target {
  name: "relay" | "site";
  url: string;
  pid: number;
  stop(): Promise<unknown>;
}

const site = await startServerProcess(
  {
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    AI_PROVIDER: "openai-compatible",
    AI_BASE_URL: modelBaseUrl,
    AI_MODEL: "bench-model",
    AI_TIMEOUT_MS: "30000",
    CHAT_TURNS_PER_MINUTE: "1000000",
    // The streams test measures what an instance holds, as it does the relay's, not where its admission is set.
    GAME_MASTER_MAX_STREAMS: String(2 * Math.max(...CAPACITY_LEVELS, ...LATENCY_LEVELS, THROUGHPUT_PLAYERS)),
  },
  [
    ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
    ...(process.env.BENCH_SERVER_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? []),
  ],
  [],
  { discardLogs: true },
);

async function startRelay(): Promise<Target> {
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(import.meta.dirname, "relay.ts"), databaseUrl, modelBaseUrl, "bench-model", RELAY_STORY_TITLE],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`the relay exited with ${code}`)));
  });
  return { name: "relay", url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: async () => child.kill() };
}

const targets: Target[] = [await startRelay(), { name: "site", url: site.url, pid: site.child.pid!, stop: () => site.stop() }];

function memoryMiB(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kib("VmRSS") / 1024, peak: kib("VmHWM") / 1024 };
}

/** CPU seconds a process has used (user + system), from /proc; 0 once it is gone. */
function cpuSeconds(pid: number) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    // utime and stime are fields 14 and 15 of stat(5); the split above starts at field 3.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * The CPU seconds of each PostgreSQL backend serving the scratch database, by pid: the database's
 * share of a turn. Pools open and close connections, so a measure compares backend by backend.
 */
const observer = new pg.Client({ connectionString: databaseUrl });
await observer.connect();
async function databaseBackendsCpu() {
  const { rows } = await observer.query<{ pid: number }>("select pid from pg_stat_activity where datname = current_database()");
  return new Map(rows.map((row) => [row.pid, cpuSeconds(row.pid)]));
}
/** CPU the backends used since `before`; a backend opened meanwhile counts from its start. */
async function databaseCpuSince(before: Map<number, number>) {
  let total = 0;
  for (const [pid, seconds] of await databaseBackendsCpu()) total += seconds - (before.get(pid) ?? 0);
  return total;
}

interface FunctionTimes {
  calls: number;
  /** Milliseconds in the function, without and with the functions it called. */
  selfMs: number;
  totalMs: number;
}

/** Each function's calls and times so far, once the backends have reported them. */
async function settledFunctionTimes() {
  // A backend reports its functions' times when it goes idle, at most once a second.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const { rows } = await observer.query<{ funcname: string; calls: string; self_time: number; total_time: number }>(
    "select funcname, calls, self_time, total_time from pg_stat_user_functions",
  );
  return new Map<string, FunctionTimes>(
    rows.map((row) => [row.funcname, { calls: Number(row.calls), selfMs: row.self_time, totalMs: row.total_time }]),
  );
}

/** What the site's turns-per-second runs spent in each database function (BENCH_PROFILE=1). */
const siteFunctionTimes = new Map<string, FunctionTimes>();

async function addSiteFunctionTimesSince(before: Map<string, FunctionTimes>) {
  const none = { calls: 0, selfMs: 0, totalMs: 0 };
  for (const [name, after] of await settledFunctionTimes()) {
    const start = before.get(name) ?? none;
    const sum = siteFunctionTimes.get(name) ?? none;
    siteFunctionTimes.set(name, {
      calls: sum.calls + after.calls - start.calls,
      selfMs: sum.selfMs + after.selfMs - start.selfMs,
      totalMs: sum.totalMs + after.totalMs - start.totalMs,
    });
  }
}

/** The target's peak RSS and share of one core while `run` ran, and the load generator's share. */
async function measureUsage<T>(target: Target, run: () => Promise<T>) {
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, memoryMiB(target.pid).rss)), 250);
  const targetCpuBefore = cpuSeconds(target.pid);
  const databaseCpuBefore = await databaseBackendsCpu();
  const ownCpuBefore = process.cpuUsage();
  const startedAt = performance.now();
  const result = await run();
  clearInterval(sampler);
  const seconds = (performance.now() - startedAt) / 1000;
  const ownCpu = process.cpuUsage(ownCpuBefore);
  return {
    result,
    seconds,
    peakMiB: peak,
    targetCpu: cpuSeconds(target.pid) - targetCpuBefore,
    databaseCpu: await databaseCpuSince(databaseCpuBefore),
    generatorShare: (ownCpu.user + ownCpu.system) / 1e6 / seconds,
  };
}

// ---------------------------------------------------------------------------------------------
// Players and turns

interface Player {
  email: string;
  token: string;
}

async function signUp(index: number): Promise<Player> {
  const email = `bench-${index}@example.com`;
  const response = await fetch(`${site.url}/api/auth/sign-up/email`, {
    method: "POST",
    // Each player from their own address: the sign-up limit is per address, and it is not what is measured.
    headers: { "Content-Type": "application/json", Origin: site.url, "X-Forwarded-For": `10.0.${index >> 8}.${index & 255}` },
    body: JSON.stringify({ email, password: "a long enough password", name: "Bench" }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  return { email, token: ((await response.json()) as { token: string }).token };
}

/**
 * Credits for every player, and a story begun in every game: the opening scene is free and
 * limited per minute, and it is not what is measured.
 */
async function prepareStories(credits: number) {
  const connection = await connectDatabase({ databaseUrl, dataDir, maxConnections: 4 });
  setDatabaseConnection(connection);
  const rows = await connection.db.query.user.findMany({ columns: { id: true } });
  for (const row of rows) {
    await applyCreditChange({ userId: row.id, delta: credits, reason: "admin_grant", reference: `bench:${row.id}` });
    for (const gameSlug of GAMES) {
      // The relay's story first: the site continues the newest.
      const relayStory = await seedStory(connection.db, { userId: row.id, gameSlug, exchanges: [OPENING_EXCHANGE] });
      await connection.db
        .update(stories)
        .set({ title: RELAY_STORY_TITLE, updatedAt: new Date(0) })
        .where(eq(stories.id, relayStory));
      await seedStory(connection.db, { userId: row.id, gameSlug, exchanges: [OPENING_EXCHANGE] });
    }
  }
  await connection.close();
}

const clients = new Map(targets.map((target) => [target.name, createTurnClient(target.url)]));
const takeTurn = (target: Target, player: Player, game: string, probe: boolean) => clients.get(target.name)!.takeTurn(player.token, game, probe);

/** The probe's turns, taken in a worker thread of its own (see probe-worker.ts). */
function probeTurns(target: Target, player: Player, turns: number) {
  const worker = new Worker(new URL("./probe-worker.ts", import.meta.url), {
    workerData: { base: target.url, token: player.token, games: GAMES, turns, pauseMs: PROBE_PAUSE_MS } satisfies ProbeRequest,
  });
  return new Promise<TurnResult[]>((resolve, reject) => {
    worker.once("message", (results: TurnResult[]) => {
      resolve(results);
      void worker.terminate();
    });
    worker.once("error", reject);
  });
}

function percentile(values: number[], p: number) {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const firstTokens = (results: TurnResult[]) =>
  results.flatMap((result) => (result.ok && result.firstToken !== undefined ? [result.firstToken] : []));
const refusedAtAdmission = (results: TurnResult[]) => results.filter((result) => result.error === "HTTP 503").length;
const failures = (results: TurnResult[]) => results.filter((result) => !result.ok && result.error !== "HTTP 503");

/**
 * Keeps `streams` replies streaming at once — each player starts a new turn as soon as the last
 * one ends — until `until()` says stop. Starts are spread over one reply's length; a turn admission
 * refused is tried again after a pause, as the play screen's player would.
 */
function holdStreams(target: Target, streams: number, players: Player[], until: () => boolean, probe = false) {
  const results: TurnResult[] = [];
  const replyMs = probe ? 0 : REPLY_TOKENS.length * TOKEN_DELAY_MS;
  const workers = Array.from({ length: streams }, async (_, index) => {
    await new Promise((resolve) => setTimeout(resolve, (index / Math.max(1, streams)) * replyMs));
    const player = players[index % players.length]!;
    const game = GAMES[Math.floor(index / players.length) % GAMES.length]!;
    while (!until()) {
      const result = await takeTurn(target, player, game, probe);
      results.push(result);
      if (result.error === "HTTP 503") await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  });
  return { results, done: Promise.all(workers) };
}

const ms = (value: number) => (Number.isNaN(value) ? "—" : value < 10 ? value.toFixed(1) : value.toFixed(0));
const ratio = (site: number, relay: number) => (relay > 0 ? `${(site / relay).toFixed(2)}×` : "—");

// ---------------------------------------------------------------------------------------------
// Measures

interface LatencyRow {
  streams: number;
  p50: Record<Target["name"], number>;
  p99: Record<Target["name"], number>;
  errors: number;
}

async function latencyLevel(streams: number, players: Player[]): Promise<LatencyRow> {
  const row: LatencyRow = { streams, p50: { relay: 0, site: 0 }, p99: { relay: 0, site: 0 }, errors: 0 };
  for (const target of targets) {
    const [probe, ...others] = players;
    let probing = true;
    const background = holdStreams(target, streams - 1, others, () => !probing);
    // Let the background reach its full number of open streams before measuring.
    if (streams > 1) await new Promise((resolve) => setTimeout(resolve, REPLY_TOKENS.length * TOKEN_DELAY_MS));
    const results = await probeTurns(target, probe!, PROBE_TURNS);
    probing = false;
    await background.done;
    const latencies = firstTokens(results);
    row.p50[target.name] = percentile(latencies, 50);
    row.p99[target.name] = percentile(latencies, 99);
    row.errors += results.length - latencies.length + failures(background.results).length;
  }
  console.log(
    `${String(streams).padStart(5)} streams │ first token p50 ${ms(row.p50.site)} ms (relay ${ms(row.p50.relay)}, ${ratio(row.p50.site, row.p50.relay)}) · p99 ${ms(row.p99.site)} ms (relay ${ms(row.p99.relay)}, ${ratio(row.p99.site, row.p99.relay)}) │ errors ${row.errors}`,
  );
  return row;
}

interface ThroughputRow {
  name: Target["name"];
  /** When it ran, on the monotonic clock the CPU profile's times are on (µs). */
  window: ProfileWindow;
  turns: number;
  turnsPerSecond: number;
  processCpuMs: number;
  databaseCpuMs: number;
  generatorShare: number;
  errors: number;
}

async function throughput(target: Target, players: Player[]): Promise<ThroughputRow> {
  const functionTimesBefore = PROFILE && target.name === "site" ? await settledFunctionTimes() : undefined;
  const deadline = performance.now() + THROUGHPUT_MS;
  const monotonicMicroseconds = () => Number(process.hrtime.bigint() / 1000n);
  const from = monotonicMicroseconds();
  const measured = await measureUsage(target, async () => {
    const running = holdStreams(target, THROUGHPUT_PLAYERS, players, () => performance.now() > deadline, true);
    await running.done;
    return running.results;
  });
  const window = { from, to: monotonicMicroseconds() };
  if (functionTimesBefore) await addSiteFunctionTimesSince(functionTimesBefore);
  const done = measured.result.filter((result) => result.ok).length;
  return {
    name: target.name,
    window,
    turns: done,
    turnsPerSecond: done / measured.seconds,
    processCpuMs: (measured.targetCpu / Math.max(1, done)) * 1000,
    databaseCpuMs: (measured.databaseCpu / Math.max(1, done)) * 1000,
    generatorShare: measured.generatorShare,
    errors: measured.result.length - done,
  };
}

interface CapacityRow {
  name: Target["name"];
  streams: number;
  p50: number;
  p99: number;
  errors: number;
  refused: number;
  peakMiB: number;
  responsive: boolean;
}

async function capacityLevel(target: Target, streams: number, players: Player[]): Promise<CapacityRow> {
  const deadline = performance.now() + CAPACITY_HOLD_MS + REPLY_TOKENS.length * TOKEN_DELAY_MS;
  const measured = await measureUsage(target, async () => {
    const streaming = holdStreams(target, streams, players, () => performance.now() > deadline);
    await streaming.done;
    return streaming.results;
  });
  const latencies = firstTokens(measured.result);
  const failed = failures(measured.result);
  const row: CapacityRow = {
    name: target.name,
    streams,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors: failed.length,
    refused: refusedAtAdmission(measured.result),
    peakMiB: measured.peakMiB,
    responsive: failed.length === 0 && percentile(latencies, 99) < RESPONSIVE_P99_MS,
  };
  const reasons = [...new Set(failed.map((failure) => failure.error))].slice(0, 3).join("; ");
  console.log(
    `${target.name.padStart(5)} ${String(streams).padStart(5)} streams │ first token p50 ${ms(row.p50)} · p99 ${ms(row.p99)} ms │ errors ${row.errors}${reasons ? ` (${reasons})` : ""} · refused ${row.refused} │ peak RSS ${row.peakMiB.toFixed(0)} MiB │ load generator CPU ${(measured.generatorShare * 100).toFixed(0)}%`,
  );
  return row;
}

// ---------------------------------------------------------------------------------------------

/** The mean of one figure over a target's turns-per-second runs. */
function meanOf(throughputRows: ThroughputRow[], name: Target["name"], pick: (row: ThroughputRow) => number) {
  const rows = throughputRows.filter((row) => row.name === name);
  return rows.reduce((sum, row) => sum + pick(row), 0) / rows.length;
}

/** The measures, with their ratios to the relay's and issue 18's verdicts, printed and written. */
function reportMeasures(latency: LatencyRow[], throughputRows: ThroughputRow[], capacity: CapacityRow[]) {
  const best = (name: Target["name"]) => Math.max(...throughputRows.filter((row) => row.name === name).map((row) => row.turnsPerSecond));
  const mean = (name: Target["name"], pick: (row: ThroughputRow) => number) => meanOf(throughputRows, name, pick);
  const heldBy = (name: Target["name"]) => capacity.filter((row) => row.name === name && row.responsive && row.refused === 0).at(-1);
  const at200 = latency.find((row) => row.streams === 200) ?? latency.at(-1);
  const turnsRatio = best("site") / best("relay");
  const siteHeld = heldBy("site");
  const verdict = (met: boolean) => (met ? "met" : "MISSED");

  const latencyTable = markdownTable(
    ["streams", "site p50 / p99 ms", "relay p50 / p99 ms", "p50 ratio", "p99 ratio", "errors"],
    latency.map((row) => [
      row.streams,
      `${ms(row.p50.site)} / ${ms(row.p99.site)}`,
      `${ms(row.p50.relay)} / ${ms(row.p99.relay)}`,
      ratio(row.p50.site, row.p50.relay),
      ratio(row.p99.site, row.p99.relay),
      row.errors,
    ]),
  );
  const throughputTable = markdownTable(
    ["", "turns/s (best of 2)", "process CPU a turn", "database CPU a turn", "load generator CPU"],
    targets.map((target) => [
      target.name,
      best(target.name).toFixed(0),
      `${mean(target.name, (row) => row.processCpuMs).toFixed(2)} ms`,
      `${mean(target.name, (row) => row.databaseCpuMs).toFixed(2)} ms`,
      `${(mean(target.name, (row) => row.generatorShare) * 100).toFixed(0)}%`,
    ]),
  );
  const capacityTable = markdownTable(
    ["", "streams", "first token p50 / p99 ms", "errors", "refused (503)", "peak RSS MiB"],
    capacity.map((row) => [row.name, row.streams, `${ms(row.p50)} / ${ms(row.p99)}`, row.errors, row.refused, row.peakMiB.toFixed(0)]),
  );
  const verdicts = [
    `- Turns per second, site against relay: ${turnsRatio.toFixed(2)}× (goal ≥ ${GOALS.turnsPerSecond}×) — ${verdict(turnsRatio >= GOALS.turnsPerSecond)}.`,
    at200
      ? `- Added first-token latency at ${at200.streams} streams: p50 ${ratio(at200.p50.site, at200.p50.relay)} (goal ≤ ${GOALS.firstTokenP50}×) — ${verdict(at200.p50.site <= GOALS.firstTokenP50 * at200.p50.relay)}; p99 ${ratio(at200.p99.site, at200.p99.relay)} (goal ≤ ${GOALS.firstTokenP99}×) — ${verdict(at200.p99.site <= GOALS.firstTokenP99 * at200.p99.relay)}.`
      : "",
    `- Streams held with the first token within ${RESPONSIVE_P99_MS} ms at p99: site ${siteHeld ? `${siteHeld.streams} in ${siteHeld.peakMiB.toFixed(0)} MiB` : "none of the levels"}, relay ${heldBy("relay")?.streams ?? "none of the levels"} (goal ≥ ${GOALS.streams} in < ${GOALS.memoryMiB} MiB) — ${verdict(Boolean(siteHeld && siteHeld.streams >= GOALS.streams && siteHeld.peakMiB < GOALS.memoryMiB))}.`,
  ].filter(Boolean);

  console.log(`\n${verdicts.join("\n")}`);
  writeReportSection(
    "game-chat",
    "The Game Master against a minimal relay (`game-chat`)",
    [
      `The site (as \`npm start\` runs it, logging at \`info\`) and a minimal relay doing the same job (\`scripts/bench/relay.ts\`: the session, the debit with its ledger row and the story window in one statement, the reply streamed through, the exchange stored) take turns on one PostgreSQL database with the same players, model and load generator, which share this machine's cores. The model answers at once; background replies stream ${REPLY_TOKENS.length} tokens ${TOKEN_DELAY_MS} ms apart.`,
      "",
      `**Time to first token** (a probe player's ${PROBE_TURNS} turns, answered at once, while the other streams run):`,
      "",
      latencyTable,
      "",
      `**Turns per second** with an instant model, ${THROUGHPUT_PLAYERS} players taking turns back to back for ${THROUGHPUT_MS / 1000} s, twice each; CPU a turn from /proc (the database's: the backends serving the bench's database):`,
      "",
      throughputTable,
      "",
      `**Streams held** for ${CAPACITY_HOLD_MS / 1000} s, each ending turn replaced at once; a target stops climbing at the first level it does not hold within ${RESPONSIVE_P99_MS} ms at p99 or where it refuses turns (the site's admission, GAME_MASTER_MAX_STREAMS, is set past the highest level; its default is ${GAME_MASTER_STREAMS_PER_CORE} a core):`,
      "",
      capacityTable,
      "",
      ...verdicts,
    ].join("\n"),
  );
}

/** Where the site's process spent its turns, from the CPU profile of its turns-per-second runs. */
async function reportProfile(throughputRows: ThroughputRow[]) {
  await site.stop();
  const file = readdirSync(profileDir!).find((name) => name.endsWith(".cpuprofile"));
  if (!file) throw new Error("The site wrote no CPU profile.");
  const siteRows = throughputRows.filter((row) => row.name === "site");
  const turns = siteRows.reduce((sum, row) => sum + row.turns, 0);
  const { shares, busyMs, idleMs } = profileShares(
    path.join(profileDir!, file),
    siteRows.map((row) => row.window),
  );
  const relayCpu = meanOf(throughputRows, "relay", (row) => row.processCpuMs);
  const siteCpu = meanOf(throughputRows, "site", (row) => row.processCpuMs);
  const siteDatabaseCpu = meanOf(throughputRows, "site", (row) => row.databaseCpuMs);
  const table = markdownTable(
    ["part of the site's process", "share of its busy time", "ms a turn"],
    shares.map(({ part, ms }) => [part, `${((ms / busyMs) * 100).toFixed(1)}%`, (ms / turns).toFixed(2)]),
  );
  const functions = [...siteFunctionTimes]
    .filter(([, times]) => times.calls > 0)
    .sort(([, a], [, b]) => b.selfMs - a.selfMs)
    .map(([name, times]) => [name, (times.calls / turns).toFixed(2), (times.selfMs / turns).toFixed(2), (times.totalMs / turns).toFixed(2)]);
  const databaseTable = markdownTable(["database function", "calls a turn", "own ms a turn", "ms a turn with what it calls"], functions);
  console.log(`\n${table}\n\n${databaseTable}`);
  writeReportSection(
    "game-chat-profile",
    "Where a turn's time goes in the site's process (`game-chat` under the profiler)",
    [
      `The turns-per-second test of the Game Master section, with the site under V8's CPU profiler (which slows it: these runs' rates are not compared). ${turns} turns in ${siteRows.length} runs of ${THROUGHPUT_MS / 1000} s; the process was busy ${((busyMs / (busyMs + idleMs)) * 100).toFixed(0)}% of the time, ${(busyMs / turns).toFixed(2)} ms a turn by the profiler's clock (by /proc, it used ${siteCpu.toFixed(2)} ms of CPU a turn; the relay ${relayCpu.toFixed(2)} ms). Each sample is put to the first part of its stack that says whose work it is (\`scripts/bench/cpu-profile.ts\`); a socket write's time includes waiting for a core while the process it woke runs.`,
      "",
      table,
      "",
      `The database's part, from PostgreSQL's own count of each PL/pgSQL function's calls and time in the same runs (\`track_functions = pl\`; by /proc, its backends used ${siteDatabaseCpu.toFixed(2)} ms of CPU a turn). A function's time is measured by the clock, so it includes waiting for a core and for locks:`,
      "",
      databaseTable,
    ].join("\n"),
    "BENCH_PROFILE=1 npm run bench -- game-chat",
  );
}

// ---------------------------------------------------------------------------------------------
// Recording's cost (issue 34)

const RECORD_MODEL_CALL_FILE = path.resolve(import.meta.dirname, "../../app/db/functions/record_model_call.sql");
/** Recording off: the function finish_turn.sql calls, with its signature, writing nothing (in the scratch database only). */
const RECORDING_OFF = `CREATE OR REPLACE FUNCTION record_model_call(p_story_id uuid, p_game_slug text, p_user_id text, p_call jsonb)
  RETURNS void AS $$ SELECT NULL $$ LANGUAGE sql`;

async function setRecording(on: boolean) {
  await observer.query(on ? readFileSync(RECORD_MODEL_CALL_FILE, "utf8") : RECORDING_OFF);
}

interface RecordingRow {
  recording: boolean;
  turnsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

/** The site's turns per second and first tokens, as in the turns-per-second test, with recording on or off. */
async function recordingRun(recording: boolean, players: Player[]): Promise<RecordingRow> {
  await setRecording(recording);
  const siteTarget = targets.find((target) => target.name === "site")!;
  const deadline = performance.now() + RECORDING_RUN_MS;
  const startedAt = performance.now();
  const running = holdStreams(siteTarget, THROUGHPUT_PLAYERS, players, () => performance.now() > deadline, true);
  await running.done;
  const seconds = (performance.now() - startedAt) / 1000;
  const latencies = firstTokens(running.results);
  return {
    recording,
    turnsPerSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors: running.results.length - latencies.length,
  };
}

async function measureRecording(players: Player[]) {
  console.log(`\nRecording's cost: the site's turns per second, ${THROUGHPUT_PLAYERS} players, with model calls recorded and not:`);
  const rows: RecordingRow[] = [];
  for (let round = 0; round < RECORDING_ROUNDS; round += 1) {
    // Alternating which goes first, so neither always follows the other's backlog.
    for (const recording of round % 2 === 0 ? [true, false] : [false, true]) {
      const row = await recordingRun(recording, players);
      rows.push(row);
      console.log(
        `${recording ? "   on" : "  off"} │ ${row.turnsPerSecond.toFixed(0)} turns/s │ first token p50 ${ms(row.p50)} · p99 ${ms(row.p99)} ms │ errors ${row.errors}`,
      );
    }
  }
  await setRecording(true);
  const median = (values: number[]) => percentile(values, 50);
  const of = (recording: boolean, pick: (row: RecordingRow) => number) => rows.filter((row) => row.recording === recording).map(pick);
  /** Each round's on against its off, (on − off) / off, the median of the rounds. */
  const paired = (pick: (row: RecordingRow) => number) => {
    const on = of(true, pick);
    const off = of(false, pick);
    return median(on.map((value, round) => (value - off[round]!) / off[round]!));
  };
  const figures = [
    { name: "turns/s", pick: (row: RecordingRow) => row.turnsPerSecond, format: (value: number) => value.toFixed(0) },
    { name: "first token p50 ms", pick: (row: RecordingRow) => row.p50, format: ms },
    { name: "first token p99 ms", pick: (row: RecordingRow) => row.p99, format: ms },
  ];
  const percent = (share: number) => `${share >= 0 ? "+" : ""}${(share * 100).toFixed(1)}%`;
  const table = markdownTable(
    ["", "recording on (median)", "recording off (median)", "on against off (median of the rounds)"],
    figures.map(({ name, pick, format }) => [name, format(median(of(true, pick))), format(median(of(false, pick))), percent(paired(pick))]),
  );
  const turns = paired(figures[0]!.pick);
  const p50 = paired(figures[1]!.pick);
  const met = Math.abs(turns) <= GOALS.recordingCost && Math.abs(p50) <= GOALS.recordingCost;
  const [load] = os.loadavg();
  const verdict = `- Turns per second and first-token p50, recording on against off: ${percent(turns)} and ${percent(p50)} (goal within ${GOALS.recordingCost * 100}%) — ${met ? "met" : "MISSED"}; the machine's load average (1 min) at the end: ${load?.toFixed(1)} on ${os.cpus().length} cores.`;
  console.log(`\n${verdict}`);
  writeReportSection(
    "model-call-recording",
    "What recording each model call costs a turn (`game-chat`)",
    [
      `The site's turns-per-second test of the Game Master section (${THROUGHPUT_PLAYERS} players taking turns back to back for ${RECORDING_RUN_MS / 1000} s, an instant model, PostgreSQL), in ${RECORDING_ROUNDS} rounds of a run with each model call recorded (\`record_model_call.sql\`: its row in \`model_calls\` and its day's totals in \`model_spend_days\`, written by the statement that finishes the turn) and a run with recording off (the same function replaced, in the bench's scratch database only, by one that writes nothing; the site sends the same call). Each round's two runs are compared, which first alternating; first tokens are the turns' own, under that load:`,
      "",
      table,
      "",
      verdict,
    ].join("\n"),
    "npm run bench -- game-chat (alone: BENCH_RECORDING_ONLY=1)",
  );
}

try {
  const players: Player[] = [];
  for (let first = 0; first < PLAYERS; first += 10) {
    players.push(...(await Promise.all(Array.from({ length: Math.min(10, PLAYERS - first) }, (_, offset) => signUp(first + offset)))));
  }
  await prepareStories(1_000_000);
  // Warm up both: compile code paths, fill connection pools.
  for (const target of targets) await Promise.all(players.slice(0, 50).map((player) => takeTurn(target, player, GAMES[0]!, true)));

  console.log(
    `PostgreSQL; model: local OpenAI-compatible server, first token at once, then ${REPLY_TOKENS.length} tokens ${TOKEN_DELAY_MS} ms apart (the probe's and the throughput test's replies: 3 tokens at once)`,
  );
  console.log(`RSS at rest: site ${memoryMiB(site.child.pid!).rss.toFixed(0)} MiB, relay ${memoryMiB(targets[0]!.pid).rss.toFixed(0)} MiB\n`);

  if (LATENCY_LEVELS.length > 0) console.log(`Time to first token, a probe player's ${PROBE_TURNS} turns while the other streams run:`);
  const latency: LatencyRow[] = [];
  for (const streams of LATENCY_LEVELS) latency.push(await latencyLevel(streams, players));

  const throughputRows: ThroughputRow[] = [];
  if (!RECORDING_ONLY) console.log(`\nTurns per second with an instant model, ${THROUGHPUT_PLAYERS} players taking turns back to back:`);
  for (let round = 0; round < (RECORDING_ONLY ? 0 : 2); round += 1) {
    for (const target of targets) {
      const row = await throughput(target, players);
      throughputRows.push(row);
      console.log(
        `${target.name.padStart(5)} │ ${row.turnsPerSecond.toFixed(0)} turns/s │ CPU a turn: process ${row.processCpuMs.toFixed(2)} ms, database ${row.databaseCpuMs.toFixed(2)} ms │ errors ${row.errors} │ load generator CPU ${(row.generatorShare * 100).toFixed(0)}%`,
      );
    }
  }

  if (CAPACITY_LEVELS.length > 0) {
    console.log(`\nStreams held for ${CAPACITY_HOLD_MS / 1000} s at ${TOKEN_DELAY_MS} ms a token (each ending turn replaced at once):`);
  }
  const capacity: CapacityRow[] = [];
  const stillResponsive = new Set(targets.map((target) => target.name));
  for (const streams of CAPACITY_LEVELS) {
    for (const target of targets.filter((candidate) => stillResponsive.has(candidate.name))) {
      const row = await capacityLevel(target, streams, players);
      capacity.push(row);
      if (!row.responsive || row.refused > 0) stillResponsive.delete(target.name);
    }
  }

  if (PROFILE) await reportProfile(throughputRows);
  else {
    await measureRecording(players);
    if (!RECORDING_ONLY) reportMeasures(latency, throughputRows, capacity);
  }
} finally {
  await observer.end();
  for (const target of targets) await target.stop();
  for (const client of clients.values()) client.close();
  await modelThread.terminate();
  rmSync(dataDir, { recursive: true, force: true });
  if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  await scratch.drop();
}
