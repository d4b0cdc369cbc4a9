/**
 * A stranger's cheapest way to make the site work (issue 31 item 2, docs/decisions/042): a game page
 * asked for with a new query string each time, 50 a second, from many addresses. Measures what a
 * player meanwhile waits for a sign-in and for a static script, against the same with no such load,
 * in turns, on the site run as `npm start` runs it (logging each request at `info`). On PGlite and
 * on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test;
 * a scratch database is created next to it and dropped afterwards). The flood is sent from a
 * process of its own (flood-worker.ts), as a stranger's requests come from elsewhere than a player's.
 * Goal: p99 under the flood ≤ 1.5× the p99 without it.
 */
import { fork } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { signUp, testClientAddress, type TestAccount } from "#tests/helpers/accounts.ts";
import { startServerProcess, type ServerProcess } from "#tests/helpers/process.ts";
import type { FloodRequest } from "./flood-worker.ts";
import { paced, type Latency } from "./paced-requests.ts";
import { markdownTable, writeReportSection } from "./report.ts";
import { createScratchDatabase } from "./scratch-database.ts";

const GAME_PAGE = "/game/empress-simulator";
const FLOOD_PER_SECOND = 50;
/**
 * The probes are a player, not a load of their own: a sign-in's password hash takes a large part of
 * a second of CPU on a busy machine, so more of them would measure the sign-ins against each other.
 */
const SIGN_INS_PER_SECOND = 1;
const STATIC_PER_SECOND = 10;
const DURATION_SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 20);
/** Quiet and flooded take turns this many times; the median of the rounds is reported. */
const ROUNDS = 3;
const ACCEPT_ENCODING = "gzip, deflate, br";
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const RATIO_GOAL = 1.5;

interface Phase {
  signIn: Latency;
  staticFile: Latency;
  /** The flood's own answers: how many, how many were not 2xx. */
  flood?: Latency;
  /** The most the site's process held in memory during the phase. */
  peakRssMiB: number;
  /** The CPU the site's process used during the phase, in cores (1 = one core all the time). */
  cores: number;
}

interface Row {
  database: string;
  quiet: Phase;
  flooded: Phase;
  /** What a few more new query strings were answered with after the flood (X-Cache). */
  cacheAfter: string;
}

/** CPU seconds the process has used so far (user and system), from /proc. */
function cpuSeconds(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command's closing parenthesis.
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}
const CLOCK_TICKS_PER_SECOND = 100;

function residentMiB(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

/** The flood, sent from a process of its own (flood-worker.ts). */
function flood(url: string): Promise<Latency> {
  const request: FloodRequest = {
    stream: {
      url,
      ratePerSecond: FLOOD_PER_SECOND,
      connections: 10,
      durationSeconds: DURATION_SECONDS,
      request: { method: "GET", path: GAME_PAGE, headers: { "Accept-Encoding": ACCEPT_ENCODING } },
    },
    page: GAME_PAGE,
  };
  const sender = fork(new URL("./flood-worker.ts", import.meta.url), [JSON.stringify(request)]);
  return new Promise<Latency>((resolve, reject) => {
    sender.once("message", (result) => resolve(result as Latency));
    sender.once("error", reject);
    sender.once("exit", (code) => reject(new Error(`the flood's process ended (exit ${code}) without a result`)));
  });
}

async function phase(site: ServerProcess, player: TestAccount, staticPath: string, flooded: boolean): Promise<Phase> {
  let peakRssMiB = residentMiB(site.child.pid);
  const cpuAtStart = cpuSeconds(site.child.pid);
  const startedAt = performance.now();
  const sampler = setInterval(() => (peakRssMiB = Math.max(peakRssMiB, residentMiB(site.child.pid))), 250);
  try {
    const [signIn, staticFile, floodResult] = await Promise.all([
      paced({
        url: site.url,
        ratePerSecond: SIGN_INS_PER_SECOND,
        connections: 1,
        durationSeconds: DURATION_SECONDS,
        request: {
          method: "POST",
          path: "/api/auth/sign-in/email",
          headers: { "Content-Type": "application/json", Origin: site.url },
          body: JSON.stringify({ email: player.email, password: player.password }),
        },
      }),
      paced({
        url: site.url,
        ratePerSecond: STATIC_PER_SECOND,
        connections: 1,
        durationSeconds: DURATION_SECONDS,
        request: { method: "GET", path: staticPath, headers: { "Accept-Encoding": ACCEPT_ENCODING } },
      }),
      flooded ? flood(site.url) : undefined,
    ]);
    const cores = (cpuSeconds(site.child.pid) - cpuAtStart) / ((performance.now() - startedAt) / 1000);
    return { signIn, staticFile, flood: floodResult, peakRssMiB, cores };
  } finally {
    clearInterval(sampler);
  }
}

function median<T>(items: T[], by: (item: T) => number): T {
  return [...items].sort((a, b) => by(a) - by(b))[Math.floor(items.length / 2)]!;
}

/** The median round of each probe: quiet and flooded measured in turns. */
function medianPhase(phases: Phase[]): Phase {
  return {
    signIn: median(phases, (each) => each.signIn.p99).signIn,
    staticFile: median(phases, (each) => each.staticFile.p99).staticFile,
    flood: phases[0]?.flood && median(phases, (each) => each.flood?.p99 ?? 0).flood,
    peakRssMiB: Math.max(...phases.map((each) => each.peakRssMiB)),
    cores: median(phases, (each) => each.cores).cores,
  };
}

async function measureDatabase(database: string, env: Record<string, string>): Promise<Row> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "pae-bench-"));
  const site = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: "info", ...env }, [], [], { discardLogs: true });
  try {
    const player = await signUp({ url: site.url, fetch: (pathname, init) => fetch(new URL(pathname, site.url), { redirect: "manual", ...init }) });
    // The page's own script, as a browser on it fetches next.
    const html = await (await fetch(site.url + GAME_PAGE)).text();
    const staticPath = /<script\b[^>]*src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1] ?? /href="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    if (!staticPath) throw new Error(`${GAME_PAGE} links no script under /assets/`);
    // Warm up: the first requests compile code paths.
    await phase(site, player, staticPath, true);
    const quiet: Phase[] = [];
    const flooded: Phase[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      quiet.push(await phase(site, player, staticPath, false));
      flooded.push(await phase(site, player, staticPath, true));
    }
    const after = await Promise.all(
      Array.from({ length: 5 }, async (_, index) => {
        const response = await fetch(`${site.url}${GAME_PAGE}?after=${Date.now()}-${index}`, {
          headers: { "X-Forwarded-For": testClientAddress() },
        });
        await response.arrayBuffer();
        return response.headers.get("x-cache") ?? `${response.status} without X-Cache`;
      }),
    );
    return { database, quiet: medianPhase(quiet), flooded: medianPhase(flooded), cacheAfter: [...new Set(after)].join(", ") };
  } finally {
    await site.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const ratio = (flooded: Latency, quiet: Latency) => flooded.p99 / Math.max(1, quiet.p99);
const percent = (cores: number) => `${Math.round(cores * 100)}%`;
const failed = (latency: Latency) => (latency.failures ? ` (${latency.failures} failed)` : "");

// The bench shares the machine with whatever else runs there: say how busy it was.
const load = `Load average when the bench began: ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores.`;
console.log(
  `${FLOOD_PER_SECOND} new query strings a second on ${GAME_PAGE} from as many addresses; probes: ${SIGN_INS_PER_SECOND} sign-ins and ${STATIC_PER_SECOND} script downloads a second; ${DURATION_SECONDS} s per phase, ${ROUNDS} rounds in turns\n`,
);
const rows: Row[] = [];
rows.push(await measureDatabase("PGlite", {}));
const scratch = await createScratchDatabase(POSTGRES_URL, "bench_query_flood");
if (scratch) {
  try {
    rows.push(await measureDatabase("PostgreSQL", { DATABASE_URL: scratch.url }));
  } finally {
    await scratch.drop();
  }
}

const table = markdownTable(
  ["database", "probe", "quiet p50 / p99 ms", "flooded p50 / p99 ms", "p99 flooded ÷ quiet"],
  rows.flatMap((row) => [
    [
      row.database,
      "sign-in",
      `${row.quiet.signIn.p50} / ${row.quiet.signIn.p99}${failed(row.quiet.signIn)}`,
      `${row.flooded.signIn.p50} / ${row.flooded.signIn.p99}${failed(row.flooded.signIn)}`,
      `${ratio(row.flooded.signIn, row.quiet.signIn).toFixed(2)}×`,
    ],
    [
      row.database,
      "static script",
      `${row.quiet.staticFile.p50} / ${row.quiet.staticFile.p99}${failed(row.quiet.staticFile)}`,
      `${row.flooded.staticFile.p50} / ${row.flooded.staticFile.p99}${failed(row.flooded.staticFile)}`,
      `${ratio(row.flooded.staticFile, row.quiet.staticFile).toFixed(2)}×`,
    ],
  ]),
);
const floods = rows.map(
  (row) =>
    `${row.database}: the flood's ${row.flooded.flood?.requests ?? 0} requests a round answered at p50 ${row.flooded.flood?.p50 ?? "-"} / p99 ${row.flooded.flood?.p99 ?? "-"} ms${failed(row.flooded.flood ?? { p50: 0, p99: 0, requests: 0, failures: 0 })}; new query strings after it: ${row.cacheAfter}; the site's CPU ${percent(row.quiet.cores)} of a core quiet, ${percent(row.flooded.cores)} flooded; peak RSS ${row.quiet.peakRssMiB} MiB quiet, ${row.flooded.peakRssMiB} MiB flooded.`,
);
const worst = Math.max(
  ...rows.flatMap((row) => [ratio(row.flooded.signIn, row.quiet.signIn), ratio(row.flooded.staticFile, row.quiet.staticFile)]),
);
const verdict = `Worst p99 under the flood against without it: ${worst.toFixed(2)}× (goal ≤ ${RATIO_GOAL}×) — ${worst <= RATIO_GOAL ? "met" : "MISSED"}.`;

console.log(table);
console.log(`\n${floods.join("\n")}\n${verdict}\n${load}`);
writeReportSection(
  "query-flood",
  "New query strings on a kept page (`query-flood`)",
  [
    `${FLOOD_PER_SECOND} requests a second for ${GAME_PAGE}, each with a query string never seen before and from an address of its own (so the per-address limit on renders is not what is measured), sent from a process of its own, while a player signs in ${SIGN_INS_PER_SECOND} times a second and a browser fetches the page's script (\`Accept-Encoding: ${ACCEPT_ENCODING}\`) ${STATIC_PER_SECOND} times a second; against the same probes with no flood. ${DURATION_SECONDS} s a phase, quiet and flooded in turns, the median of ${ROUNDS} rounds; the site logs each request at \`info\`.`,
    "",
    table,
    "",
    ...floods,
    verdict,
    load,
  ].join("\n"),
);
