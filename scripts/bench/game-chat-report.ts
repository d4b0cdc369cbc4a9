/** The game-chat bench's report: its measures against the relay's with issue 18's verdicts, and the profile of the site's turns. */
import { readdirSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { GAME_MASTER_STREAMS_PER_CORE } from "#app/env.server.ts";
import { profileShares } from "./cpu-profile.ts";
import {
  CAPACITY_HOLD_MS,
  GOALS,
  PROBE_TURNS,
  REPLY_TOKENS,
  RESPONSIVE_P99_MS,
  THROUGHPUT_MS,
  THROUGHPUT_PLAYERS,
  TOKEN_DELAY_MS,
  type CapacityRow,
  type LatencyRow,
  type Target,
  type ThroughputRow,
} from "./game-chat-settings.ts";
import type { FunctionTimes } from "./process-usage.ts";
import { markdownTable, writeReportSection } from "./report.ts";
import { ms, ratio } from "./turn-figures.ts";

/** The mean of one figure over a target's turns-per-second runs. */
function meanOf(throughputRows: ThroughputRow[], name: Target["name"], pick: (row: ThroughputRow) => number) {
  const rows = throughputRows.filter((row) => row.name === name);
  return rows.reduce((sum, row) => sum + pick(row), 0) / rows.length;
}

/** The measures, with their ratios to the relay's and issue 18's verdicts, printed and written. */
export function reportMeasures(targets: Target[], latency: LatencyRow[], throughputRows: ThroughputRow[], capacity: CapacityRow[]) {
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
    ["", "turns/s (best of 2)", "process CPU a turn", "database CPU a turn", "process write calls a turn", "load generator CPU"],
    targets.map((target) => [
      target.name,
      best(target.name).toFixed(0),
      `${mean(target.name, (row) => row.processCpuMs).toFixed(2)} ms`,
      `${mean(target.name, (row) => row.databaseCpuMs).toFixed(2)} ms`,
      mean(target.name, (row) => row.writeCalls).toFixed(1),
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
    // Other work on a shared machine moves every rate: said beside them, so runs are compared knowingly.
    `- The machine's load average (1 min) at the end: ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} cores.`,
  ].filter(Boolean);

  console.log(`\n${verdicts.join("\n")}`);
  writeReportSection(
    "game-chat",
    "The Game Master against a minimal relay (`game-chat`)",
    [
      `The site (as \`npm start\` runs it, logging at \`info\`) and a minimal relay doing the same job (\`scripts/bench/relay.ts\`: the session, the debit with its ledger row and the story window in one statement, the reply streamed through, the exchange stored) take turns on one PostgreSQL database with the same players, model and load generator, which share this machine's cores. The model answers at once; background replies stream ${REPLY_TOKENS.length} tokens ${TOKEN_DELAY_MS} ms apart. Where PostgreSQL runs without autovacuum (as this workplace's machines do), the bench vacuums and analyzes its database before each measured run, as autovacuum would keep it.`,
      "",
      `**Time to first token** (a probe player's ${PROBE_TURNS} turns, answered at once, while the other streams run):`,
      "",
      latencyTable,
      "",
      `**Turns per second** with an instant model, ${THROUGHPUT_PLAYERS} players taking turns back to back for ${THROUGHPUT_MS / 1000} s, twice each; CPU a turn from /proc (the database's: the backends serving the bench's database), and the process's write system calls a turn (its sockets' and its log's, \`syscw\` of /proc/PID/io):`,
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
export async function reportProfile(
  throughputRows: ThroughputRow[],
  siteFunctionTimes: Map<string, FunctionTimes>,
  profileDir: string,
  stopSite: () => Promise<unknown>,
) {
  await stopSite();
  // One profile a thread: a worker thread the site started writes its own, and the turns are the
  // main thread's, whose profile is by far the largest.
  const [file] = readdirSync(profileDir)
    .filter((name) => name.endsWith(".cpuprofile"))
    .map((name) => ({ name, size: statSync(path.join(profileDir, name)).size }))
    .sort((a, b) => b.size - a.size)
    .map(({ name }) => name);
  if (!file) throw new Error("The site wrote no CPU profile.");
  const siteRows = throughputRows.filter((row) => row.name === "site");
  const turns = siteRows.reduce((sum, row) => sum + row.turns, 0);
  const { shares, busyMs, idleMs } = profileShares(
    path.join(profileDir, file),
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
