/** The game-chat bench's levels, durations and goals, and the shapes its parts share. */
import type { ProfileWindow } from "./cpu-profile.ts";

export const QUICK = process.env.BENCH_QUICK === "1";
export const PROFILE = process.env.BENCH_PROFILE === "1";
export const RECORDING_ONLY = process.env.BENCH_RECORDING_ONLY === "1";
const levels = (list: string) => list.split(",").filter(Boolean).map(Number);
export const LATENCY_LEVELS = levels(process.env.BENCH_LATENCY ?? (PROFILE || RECORDING_ONLY ? "" : "1,50,200"));
export const CAPACITY_LEVELS = levels(
  process.env.BENCH_CAPACITY ?? (PROFILE || RECORDING_ONLY ? "" : QUICK ? "500,1000" : "500,1000,1500,2000,2500"),
);
/**
 * Rounds of recording's cost, each a short turns-per-second run with recording on and one with it
 * off, side by side: each round's pair is compared, so a machine whose load drifts (other work on
 * its cores) moves both of a pair alike.
 */
export const RECORDING_ROUNDS = QUICK ? 6 : 12;
export const RECORDING_RUN_MS = QUICK ? 2_000 : 4_000;
/** Enough turns that p99 is not decided by two or three of them. */
export const PROBE_TURNS = QUICK ? 100 : 300;
/** The probe pauses between its turns, as a player reads before answering. */
export const PROBE_PAUSE_MS = 50;
/** Background replies: 100 tokens, 50 ms apart — a 5 s reply. */
export const REPLY_TOKENS = Array.from({ length: 100 }, (_, index) => (index % 12 === 11 ? "word.\n\n" : "word "));
export const TOKEN_DELAY_MS = 50;
export const CAPACITY_HOLD_MS = QUICK ? 10_000 : 20_000;
/** Players taking instant turns back to back in the throughput test, and for how long. */
export const THROUGHPUT_PLAYERS = 32;
export const THROUGHPUT_MS = QUICK ? 5_000 : 10_000;
export const RESPONSIVE_P99_MS = 1000;
export const GOALS = { turnsPerSecond: 0.7, firstTokenP50: 1.5, firstTokenP99: 2, streams: 2000, memoryMiB: 512, recordingCost: 0.03 };
export const GAMES = ["empress-simulator", "cultivation-simulator", "celebrity-life", "matriarch-harem-simulator", "mary-sue-campus"];
/** A story has one reply in flight at a time: enough players that every stream has a story of its own. */
export const PLAYERS = Math.max(THROUGHPUT_PLAYERS + 1, Math.ceil(Math.max(...CAPACITY_LEVELS, ...LATENCY_LEVELS) / GAMES.length) + 1);
/** The relay plays stories of its own, with this title. */
export const RELAY_STORY_TITLE = "relay";
export const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface Target {
  name: "relay" | "site";
  url: string;
  pid: number;
  stop(): Promise<unknown>;
}

export interface Player {
  email: string;
  token: string;
}

export interface LatencyRow {
  streams: number;
  p50: Record<Target["name"], number>;
  p99: Record<Target["name"], number>;
  errors: number;
}

export interface ThroughputRow {
  name: Target["name"];
  /** When it ran, on the monotonic clock the CPU profile's times are on (µs). */
  window: ProfileWindow;
  turns: number;
  turnsPerSecond: number;
  processCpuMs: number;
  databaseCpuMs: number;
  /** The process's write system calls a turn (process-usage.ts writeCalls). */
  writeCalls: number;
  generatorShare: number;
  errors: number;
}

export interface CapacityRow {
  name: Target["name"];
  streams: number;
  p50: number;
  p99: number;
  errors: number;
  refused: number;
  peakMiB: number;
  responsive: boolean;
}
