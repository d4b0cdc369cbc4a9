import type { PlayedSession, PlayedTurn } from "./transcript.ts";

/** What a metric answers (metrics.ts, form-metrics.ts): how many of the things it checked passed, and which did not. */

export interface Failure {
  /** The turn, from 1 (the game's, for a cross-game metric). */
  turn: number;
  detail: string;
}

export interface Rate {
  count: number;
  of: number;
  failures: Failure[];
}

export interface Distribution {
  median: number | undefined;
  p90: number | undefined;
  count: number;
}

export function share(rate: Pick<Rate, "count" | "of">): number | undefined {
  return rate.of === 0 ? undefined : rate.count / rate.of;
}

/** The turns that produced a reply (a failed turn has nothing to measure). */
export function answered(session: PlayedSession): PlayedTurn[] {
  return session.turns.filter((turn) => !turn.error);
}

export function rate(checks: { turn: number; failure: string | undefined }[]): Rate {
  return {
    count: checks.filter((check) => check.failure === undefined).length,
    of: checks.length,
    failures: checks.flatMap(({ turn, failure }) => (failure === undefined ? [] : [{ turn, detail: failure }])),
  };
}
