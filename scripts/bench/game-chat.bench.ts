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
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import pg from "pg";
import { startServerProcess } from "#tests/helpers/process.ts";
import { prepareStories, signUp } from "./game-chat-players.ts";
import { reportMeasures, reportProfile } from "./game-chat-report.ts";
import {
  CAPACITY_HOLD_MS,
  CAPACITY_LEVELS,
  GAMES,
  LATENCY_LEVELS,
  PLAYERS,
  POSTGRES_URL,
  PROBE_PAUSE_MS,
  PROBE_TURNS,
  PROFILE,
  RECORDING_ONLY,
  RELAY_STORY_TITLE,
  REPLY_TOKENS,
  RESPONSIVE_P99_MS,
  THROUGHPUT_MS,
  THROUGHPUT_PLAYERS,
  TOKEN_DELAY_MS,
  type CapacityRow,
  type LatencyRow,
  type Player,
  type Target,
  type ThroughputRow,
} from "./game-chat-settings.ts";
import { measureRecording } from "./model-call-recording.ts";
import type { ModelSettings } from "./model-worker.ts";
import type { ProbeRequest } from "./probe-worker.ts";
import { cpuSeconds, memoryMiB, observeDatabase, writeCalls, type FunctionTimes } from "./process-usage.ts";
import { autovacuumStandIn, createScratchDatabase } from "./scratch-database.ts";
import { createTurnClient, PROBE_MARKER, type TurnResult } from "./turn-client.ts";
import { failures, firstTokens, ms, percentile, ratio, refusedAtAdmission } from "./turn-figures.ts";

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

const observer = new pg.Client({ connectionString: databaseUrl });
await observer.connect();
const database = observeDatabase(observer);
const autovacuum = await autovacuumStandIn(observer);

/** What the site's turns-per-second runs spent in each database function (BENCH_PROFILE=1). */
const siteFunctionTimes = new Map<string, FunctionTimes>();

async function addSiteFunctionTimesSince(before: Map<string, FunctionTimes>) {
  const none = { calls: 0, selfMs: 0, totalMs: 0 };
  for (const [name, after] of await database.settledFunctionTimes()) {
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
  const targetWritesBefore = writeCalls(target.pid);
  const databaseCpuBefore = await database.backendsCpu();
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
    targetWrites: writeCalls(target.pid) - targetWritesBefore,
    databaseCpu: await database.cpuSince(databaseCpuBefore),
    generatorShare: (ownCpu.user + ownCpu.system) / 1e6 / seconds,
  };
}

// ---------------------------------------------------------------------------------------------
// Players and turns

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

// ---------------------------------------------------------------------------------------------
// Measures

async function latencyLevel(streams: number, players: Player[]): Promise<LatencyRow> {
  const row: LatencyRow = { streams, p50: { relay: 0, site: 0 }, p99: { relay: 0, site: 0 }, errors: 0 };
  for (const target of targets) {
    await autovacuum.beforeRun();
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

async function throughput(target: Target, players: Player[]): Promise<ThroughputRow> {
  await autovacuum.beforeRun();
  const functionTimesBefore = PROFILE && target.name === "site" ? await database.settledFunctionTimes() : undefined;
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
    writeCalls: measured.targetWrites / Math.max(1, done),
    generatorShare: measured.generatorShare,
    errors: measured.result.length - done,
  };
}

async function capacityLevel(target: Target, streams: number, players: Player[]): Promise<CapacityRow> {
  await autovacuum.beforeRun();
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

try {
  const players: Player[] = [];
  for (let first = 0; first < PLAYERS; first += 10) {
    players.push(...(await Promise.all(Array.from({ length: Math.min(10, PLAYERS - first) }, (_, offset) => signUp(site.url, first + offset)))));
  }
  await prepareStories({ databaseUrl, dataDir, credits: 1_000_000 });
  // Warm up both: compile code paths, fill connection pools.
  for (const target of targets) await Promise.all(players.slice(0, 50).map((player) => takeTurn(target, player, GAMES[0]!, true)));

  console.log(
    `PostgreSQL; model: local OpenAI-compatible server, first token at once, then ${REPLY_TOKENS.length} tokens ${TOKEN_DELAY_MS} ms apart (the probe's and the throughput test's replies: 3 tokens at once)`,
  );
  if (autovacuum.needed) {
    console.log(
      "This PostgreSQL runs without autovacuum: the bench vacuums and analyzes its database before each measured run, as autovacuum would.",
    );
  }
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
        `${target.name.padStart(5)} │ ${row.turnsPerSecond.toFixed(0)} turns/s │ CPU a turn: process ${row.processCpuMs.toFixed(2)} ms, database ${row.databaseCpuMs.toFixed(2)} ms │ write calls a turn ${row.writeCalls.toFixed(1)} │ errors ${row.errors} │ load generator CPU ${(row.generatorShare * 100).toFixed(0)}%`,
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

  if (PROFILE) await reportProfile(throughputRows, siteFunctionTimes, profileDir!, () => site.stop());
  else {
    const siteTarget = targets.find((target) => target.name === "site")!;
    await measureRecording(
      observer,
      siteTarget.pid,
      (until) => holdStreams(siteTarget, THROUGHPUT_PLAYERS, players, until, true),
      autovacuum.beforeRun,
    );
    if (!RECORDING_ONLY) reportMeasures(targets, latency, throughputRows, capacity);
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
