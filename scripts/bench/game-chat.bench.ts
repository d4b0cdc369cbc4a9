/**
 * The Game Master under load: the production server in its own process, talking to a local
 * OpenAI-compatible model that answers instantly (first token at once, then a steady stream). The
 * model (model-worker.ts) and the probe player (probe-worker.ts) have threads of their own, so
 * what the probe measures is the server's time, not the other players' load on this process.
 *
 * Prints, for 1, 50 and 200 concurrent streams, the latency the server adds before a player sees
 * the first token (measured by a probe player taking turns while the other streams run), then
 * raises the number of concurrent streams until errors appear, with the server's memory.
 *
 *   npm run bench -- game-chat                                  (embedded PGlite)
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench -- game-chat
 *
 * BENCH_LATENCY=1,50,200 sets the latency levels and BENCH_CAPACITY=500,1000,2000 the capacity
 * steps (either may be empty, to skip that part); BENCH_QUICK=1 runs a short version;
 * BENCH_SERVER_NODE_FLAGS adds Node flags to those of `npm start` (e.g. --max-old-space-size=512),
 * to measure other memory settings.
 */
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { Worker } from "node:worker_threads";
import path from "node:path";
import { connectDatabase } from "#app/db/client.server.ts";
import { setDatabaseConnection } from "#app/db/database.server.ts";
import { applyCreditChange } from "#app/domain/credits.server.ts";
import { startServerProcess } from "#tests/helpers/process.ts";
import type { ModelSettings } from "./model-worker.ts";
import type { ProbeRequest } from "./probe-worker.ts";
import { createScratchDatabase } from "./scratch-database.ts";
import { createTurnClient, PROBE_MARKER, type TurnResult } from "./turn-client.ts";

const QUICK = process.env.BENCH_QUICK === "1";
const levels = (list: string) => list.split(",").filter(Boolean).map(Number);
const LATENCY_LEVELS = levels(process.env.BENCH_LATENCY ?? "1,50,200");
const CAPACITY_LEVELS = levels(process.env.BENCH_CAPACITY ?? (QUICK ? "500,1000" : "500,1000,1500,2000,3000"));
/** Enough turns that p99 is not decided by two or three of them. */
const PROBE_TURNS = QUICK ? 100 : 500;
/**
 * The probe pauses between its turns, as a player reads before answering: back to back, its own
 * turns (a dozen database queries and an upstream request each) were a large part of the load it
 * was meant to measure.
 */
const PROBE_PAUSE_MS = 100;
/** Background replies: 100 tokens, 100 ms apart — a 10 s reply, like a model writing 10 tokens a second. */
const REPLY_TOKENS = Array.from({ length: 100 }, (_, index) => (index % 12 === 11 ? "word.\n\n" : "word "));
const TOKEN_DELAY_MS = 100;
const CAPACITY_HOLD_MS = QUICK ? 15_000 : 30_000;
const GAMES = ["empress-simulator", "cultivation-simulator", "celebrity-life", "matriarch-harem-simulator", "mary-sue-campus"];
/** A story has one reply in flight at a time: enough players that every stream has a story of its own. */
const PLAYERS = Math.max(100, Math.ceil(Math.max(...CAPACITY_LEVELS, ...LATENCY_LEVELS) / GAMES.length) + 1);

// ---------------------------------------------------------------------------------------------
// The model, the database and the server

const modelThread = new Worker(new URL("./model-worker.ts", import.meta.url), {
  workerData: { probeMarker: PROBE_MARKER, replyTokens: REPLY_TOKENS, tokenDelayMs: TOKEN_DELAY_MS } satisfies ModelSettings,
});
const [modelBaseUrl] = (await once(modelThread, "message")) as [string];

const dataDir = mkdtempSync(path.join(tmpdir(), "pae-bench-chat-"));
const scratch = process.env.BENCH_DATABASE_URL ? await createScratchDatabase(process.env.BENCH_DATABASE_URL, "bench_chat") : undefined;
const databaseUrl = scratch?.url;

const server = await startServerProcess(
  {
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? "",
    AI_PROVIDER: "openai-compatible",
    AI_BASE_URL: modelBaseUrl,
    AI_MODEL: "bench-model",
    AI_TIMEOUT_MS: "30000",
    CHAT_TURNS_PER_MINUTE: "1000000",
    LOG_LEVEL: "warn",
  },
  process.env.BENCH_SERVER_NODE_FLAGS?.split(/\s+/).filter(Boolean),
);
const base = server.url;

function serverMemoryMiB() {
  const status = readFileSync(`/proc/${server.child.pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kib("VmRSS") / 1024, peak: kib("VmHWM") / 1024 };
}

/** CPU seconds the server has used (user + system), from /proc. */
function serverCpuSeconds() {
  const fields = readFileSync(`/proc/${server.child.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  // utime and stime are fields 14 and 15 of stat(5); the split above starts at field 3.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * The server's peak RSS and the share of one core it used while `run` ran, and this process's
 * share (the players and the model: when it nears 100%, the figures measure the load generator).
 */
async function measureUsage<T>(run: () => Promise<T>) {
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, serverMemoryMiB().rss)), 250);
  const serverCpuBefore = serverCpuSeconds();
  const ownCpuBefore = process.cpuUsage();
  const startedAt = performance.now();
  const result = await run();
  clearInterval(sampler);
  const seconds = (performance.now() - startedAt) / 1000;
  const serverShare = (serverCpuSeconds() - serverCpuBefore) / seconds;
  const ownCpu = process.cpuUsage(ownCpuBefore);
  const ownShare = (ownCpu.user + ownCpu.system) / 1e6 / seconds;
  const percent = (share: number) => `${(share * 100).toFixed(0)}%`;
  return { result, usage: `server RSS ${peak.toFixed(0)} MiB, CPU ${percent(serverShare)} │ load generator CPU ${percent(ownShare)}` };
}

// ---------------------------------------------------------------------------------------------
// Players

interface Player {
  email: string;
  token: string;
}

async function signUp(index: number): Promise<Player> {
  const email = `bench-${index}@example.com`;
  const response = await fetch(`${base}/api/auth/sign-up/email`, {
    method: "POST",
    // Each player from their own address: the sign-up limit is per address, and it is not what is measured.
    headers: { "Content-Type": "application/json", Origin: base, "X-Forwarded-For": `10.0.${index >> 8}.${index & 255}` },
    body: JSON.stringify({ email, password: "a long enough password", name: "Bench" }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  return { email, token: ((await response.json()) as { token: string }).token };
}

async function grantCredits(players: Player[], credits: number) {
  if (databaseUrl) {
    const connection = await connectDatabase({ databaseUrl, dataDir, maxConnections: 4 });
    setDatabaseConnection(connection);
    const rows = await connection.db.query.user.findMany({ columns: { id: true } });
    for (const row of rows) {
      await applyCreditChange({ userId: row.id, delta: credits, reason: "admin_grant", reference: `bench:${row.id}` });
    }
    await connection.close();
    return;
  }
  // The embedded database belongs to the server process: ask it, as `npm run credits:grant` does.
  const token = readFileSync(path.join(dataDir, "control-token"), "utf8").trim();
  for (const player of players) {
    const response = await fetch(`${base}/internal/cli`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ command: "credits:grant", args: [player.email, String(credits)] }),
    });
    if (!response.ok) throw new Error(`credits:grant failed: ${await response.text()}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Turns

const client = createTurnClient(base);
const takeTurn = (player: Player, game: string, probe: boolean) => client.takeTurn(player.token, game, probe);

/** The probe's turns, taken in a worker thread of their own (see probe-worker.ts). */
function probeTurns(player: Player, turns: number) {
  const worker = new Worker(new URL("./probe-worker.ts", import.meta.url), {
    workerData: { base, token: player.token, games: GAMES, turns, pauseMs: PROBE_PAUSE_MS } satisfies ProbeRequest,
  });
  return new Promise<TurnResult[]>((resolve, reject) => {
    worker.once("message", (results: TurnResult[]) => {
      resolve(results);
      void worker.terminate();
    });
    worker.once("error", reject);
  });
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function describeLatencies(values: number[]) {
  const sorted = values.toSorted((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(1)} ms · p99 ${percentile(sorted, 99).toFixed(1)} ms · max ${(sorted.at(-1) ?? Number.NaN).toFixed(1)} ms (${sorted.length} turns)`;
}

/**
 * Keeps `streams` replies streaming at once — each background player starts a new turn as soon as
 * the last one ends — until `until()` says stop. Starts are spread over one reply's length.
 */
function holdStreams(streams: number, players: Player[], until: () => boolean) {
  const results: TurnResult[] = [];
  const replyMs = REPLY_TOKENS.length * TOKEN_DELAY_MS;
  const workers = Array.from({ length: streams }, async (_, index) => {
    await new Promise((resolve) => setTimeout(resolve, (index / Math.max(1, streams)) * replyMs));
    const player = players[index % players.length]!;
    const game = GAMES[Math.floor(index / players.length) % GAMES.length]!;
    while (!until()) results.push(await takeTurn(player, game, false));
  });
  return { results, done: Promise.all(workers) };
}

async function latencyLevel(streams: number, players: Player[]) {
  const [probe, ...others] = players;
  let probing = true;
  const background = holdStreams(streams - 1, others, () => !probing);
  // Let the background reach its full number of open streams before measuring.
  if (streams > 1) await new Promise((resolve) => setTimeout(resolve, REPLY_TOKENS.length * TOKEN_DELAY_MS));
  const { result: probeResults, usage } = await measureUsage(() => probeTurns(probe!, PROBE_TURNS));
  const probeLatencies = probeResults.flatMap((result) => (result.ok && result.firstToken !== undefined ? [result.firstToken] : []));
  const errors = probeResults.length - probeLatencies.length;
  probing = false;
  await background.done;
  const backgroundErrors = background.results.filter((result) => !result.ok).length;
  console.log(
    `${String(streams).padStart(5)} streams │ first token ${describeLatencies(probeLatencies)} │ errors ${errors + backgroundErrors} │ ${usage}`,
  );
}

/**
 * A level is held when no turn failed, and responsive when, besides, the first token came within
 * RESPONSIVE_P99_MS for 99% of turns: past that the server is saturated, however few errors.
 */
const RESPONSIVE_P99_MS = 1000;

async function capacityLevel(streams: number, players: Player[]) {
  const deadline = performance.now() + CAPACITY_HOLD_MS + REPLY_TOKENS.length * TOKEN_DELAY_MS;
  const { result: streamed, usage } = await measureUsage(async () => {
    const streaming = holdStreams(streams, players, () => performance.now() > deadline);
    await streaming.done;
    return streaming;
  });
  const failures = streamed.results.filter((result) => !result.ok);
  const latencies = streamed.results.flatMap((result) => (result.ok && result.firstToken !== undefined ? [result.firstToken] : []));
  const reasons = [...new Set(failures.map((failure) => failure.error))].slice(0, 3).join("; ");
  console.log(
    `${String(streams).padStart(5)} streams │ first token ${describeLatencies(latencies)} │ errors ${failures.length}${reasons ? ` (${reasons})` : ""} │ ${usage}`,
  );
  const held = failures.length === 0;
  const responsive =
    held &&
    percentile(
      latencies.toSorted((a, b) => a - b),
      99,
    ) < RESPONSIVE_P99_MS;
  return { held, responsive, peakMiB: serverMemoryMiB().peak };
}

try {
  const players: Player[] = [];
  for (let first = 0; first < PLAYERS; first += 10) {
    players.push(...(await Promise.all(Array.from({ length: Math.min(10, PLAYERS - first) }, (_, offset) => signUp(first + offset)))));
  }
  await grantCredits(players, 1_000_000);
  // Warm up: compile paths, fill connection pools.
  await Promise.all(players.slice(0, 10).map((player) => takeTurn(player, GAMES[0]!, true)));

  const idle = serverMemoryMiB();
  console.log(
    `database: ${databaseUrl ? "PostgreSQL" : "PGlite (embedded)"}; model: local OpenAI-compatible server, first token at once, then ${REPLY_TOKENS.length} tokens ${TOKEN_DELAY_MS} ms apart`,
  );
  console.log(`server RSS at rest: ${idle.rss.toFixed(0)} MiB\n`);
  console.log(`Latency the server adds before the first token (a probe player's ${PROBE_TURNS} turns while the other streams run):`);
  for (const streams of LATENCY_LEVELS) await latencyLevel(streams, players);

  console.log(`\nConcurrent streams held for ${CAPACITY_HOLD_MS / 1000} s (each ending turn immediately replaced):`);
  type Reached = { streams: number; peakMiB: number };
  let held: Reached | undefined;
  let responsive: Reached | undefined;
  for (const streams of CAPACITY_LEVELS) {
    const level = await capacityLevel(streams, players);
    if (!level.held) break;
    held = { streams, peakMiB: level.peakMiB };
    if (level.responsive) responsive = held;
  }
  const describeReach = (level: Reached | undefined) =>
    level ? `${level.streams} (server peak RSS by then ${level.peakMiB.toFixed(0)} MiB)` : "none of the steps";
  console.log(`\nMost concurrent streams held without errors: ${describeReach(held)}`);
  console.log(`Most held with the first token within ${RESPONSIVE_P99_MS} ms at p99: ${describeReach(responsive)}`);
} finally {
  await server.stop();
  client.close();
  await modelThread.terminate();
  rmSync(dataDir, { recursive: true, force: true });
  await scratch?.drop();
}
