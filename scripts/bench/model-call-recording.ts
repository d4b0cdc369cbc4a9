/** Recording's cost (issue 34): the site's turns with each model call recorded and with recording off, in alternating rounds. */
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type pg from "pg";
import { GOALS, RECORDING_ROUNDS, RECORDING_RUN_MS, THROUGHPUT_PLAYERS } from "./game-chat-settings.ts";
import { cpuSeconds, observeDatabase } from "./process-usage.ts";
import { markdownTable, writeReportSection } from "./report.ts";
import type { TurnResult } from "./turn-client.ts";
import { firstTokens, ms, percentile } from "./turn-figures.ts";

/** The site's players taking turns back to back, answered at once, until `until()` says stop. */
export type SiteTurns = (until: () => boolean) => { results: TurnResult[]; done: Promise<unknown> };

const RECORD_MODEL_CALL_FILE = path.resolve(import.meta.dirname, "../../app/db/functions/record_model_call.sql");
/** Recording off: the function finish_turn.sql calls, with its signature, writing nothing (in the scratch database only). */
const RECORDING_OFF = `CREATE OR REPLACE FUNCTION record_model_call(p_story_id uuid, p_game_slug text, p_user_id text, p_call jsonb)
  RETURNS void AS $$ SELECT NULL $$ LANGUAGE sql`;

async function setRecording(observer: pg.Client, on: boolean) {
  await observer.query(on ? readFileSync(RECORD_MODEL_CALL_FILE, "utf8") : RECORDING_OFF);
}

interface RecordingRow {
  recording: boolean;
  turnsPerSecond: number;
  p50: number;
  p99: number;
  /** CPU a turn (ms), the site's process and the database's backends: less moved by other work on the machine than rates. */
  processCpuMs: number;
  databaseCpuMs: number;
  errors: number;
}

/** Readies the database before a measured run (scratch-database.ts's autovacuumStandIn). */
type BeforeRun = () => Promise<void>;

/** The site's turns per second and first tokens, as in the turns-per-second test, with recording on or off. */
async function recordingRun(
  observer: pg.Client,
  sitePid: number,
  siteTurns: SiteTurns,
  beforeRun: BeforeRun,
  recording: boolean,
): Promise<RecordingRow> {
  await setRecording(observer, recording);
  await beforeRun();
  const database = observeDatabase(observer);
  const processCpuBefore = cpuSeconds(sitePid);
  const databaseCpuBefore = await database.backendsCpu();
  const deadline = performance.now() + RECORDING_RUN_MS;
  const startedAt = performance.now();
  const running = siteTurns(() => performance.now() > deadline);
  await running.done;
  const seconds = (performance.now() - startedAt) / 1000;
  const latencies = firstTokens(running.results);
  const turns = Math.max(1, latencies.length);
  return {
    recording,
    turnsPerSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    processCpuMs: ((cpuSeconds(sitePid) - processCpuBefore) / turns) * 1000,
    databaseCpuMs: ((await database.cpuSince(databaseCpuBefore)) / turns) * 1000,
    errors: running.results.length - latencies.length,
  };
}

export async function measureRecording(observer: pg.Client, sitePid: number, siteTurns: SiteTurns, beforeRun: BeforeRun) {
  console.log(`\nRecording's cost: the site's turns per second, ${THROUGHPUT_PLAYERS} players, with model calls recorded and not:`);
  // A run of each first, not counted: the first rounds would otherwise pay for warming up (V8's
  // compiler, each connection's plans) what the later ones do not.
  for (const recording of [true, false]) await recordingRun(observer, sitePid, siteTurns, beforeRun, recording);
  const rows: RecordingRow[] = [];
  for (let round = 0; round < RECORDING_ROUNDS; round += 1) {
    // Alternating which goes first, so neither always follows the other's backlog.
    for (const recording of round % 2 === 0 ? [true, false] : [false, true]) {
      const row = await recordingRun(observer, sitePid, siteTurns, beforeRun, recording);
      rows.push(row);
      console.log(
        `${recording ? "   on" : "  off"} │ ${row.turnsPerSecond.toFixed(0)} turns/s │ first token p50 ${ms(row.p50)} · p99 ${ms(row.p99)} ms │ CPU a turn: process ${row.processCpuMs.toFixed(2)} ms, database ${row.databaseCpuMs.toFixed(2)} ms │ errors ${row.errors}`,
      );
    }
  }
  await setRecording(observer, true);
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
    { name: "site process CPU a turn, ms", pick: (row: RecordingRow) => row.processCpuMs, format: (value: number) => value.toFixed(2) },
    { name: "database CPU a turn, ms", pick: (row: RecordingRow) => row.databaseCpuMs, format: (value: number) => value.toFixed(2) },
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
      `The site's turns-per-second test of the Game Master section (${THROUGHPUT_PLAYERS} players taking turns back to back for ${RECORDING_RUN_MS / 1000} s, an instant model, PostgreSQL), in ${RECORDING_ROUNDS} rounds of a run with each model call recorded (\`record_model_call.sql\`: its row in \`model_calls\` and its day's totals in \`model_spend_days\`, written by the statement that finishes the turn) and a run with recording off (the same function replaced, in the bench's scratch database only, by one that writes nothing; the site sends the same call). A run of each comes first, not counted (warming up); then each round's two runs are compared, which first alternating; first tokens are the turns' own, under that load; CPU a turn is from /proc (the database's: the backends serving the bench's database). Each run starts from a vacuumed and analyzed database where PostgreSQL runs without autovacuum:`,
      "",
      table,
      "",
      verdict,
    ].join("\n"),
    "npm run bench -- game-chat (alone: BENCH_RECORDING_ONLY=1)",
  );
}
