import { Gauge } from "prom-client";
import { metricsRegistry } from "../../lib/metrics.server.ts";
import { BusyError } from "../errors.server.ts";

/**
 * Admission (docs/glossary.md; "the door" in older decision records). Each reply being written
 * holds a place from the moment its turn is admitted until the reply ends; past
 * GAME_MASTER_MAX_STREAMS places the next turn is refused at once, before the session's credit or
 * story is touched, with a 503 and Retry-After. Without admission, an instance past what it can
 * serve answers everyone late (or drops connections); with it, the players it has keep their pace
 * and the rest are told to try again.
 */

/** How long a refused player is asked to wait: about the time a reply takes to be written. */
export const GAME_MASTER_BUSY_RETRY_SECONDS = 5;

export const GAME_MASTER_BUSY_MESSAGE = "The Game Master is busy with many stories right now. Please try again in a moment.";

let admitted = 0;

/** Takes a place for a turn, or refuses it; the returned function gives the place back (once). */
export function admitTurn(maxStreams: number): () => void {
  if (admitted >= maxStreams) throw new BusyError(GAME_MASTER_BUSY_MESSAGE, GAME_MASTER_BUSY_RETRY_SECONDS);
  admitted += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    admitted -= 1;
  };
}

const STREAMS_METRIC = "game_master_streams_active";
// `npm run dev` evaluates an edited module again: its gauge, reading its own count, replaces the last.
metricsRegistry.removeSingleMetric(STREAMS_METRIC);
new Gauge({
  name: STREAMS_METRIC,
  help: "Game Master replies this instance is writing now (places taken at admission).",
  registers: [metricsRegistry],
  collect() {
    this.set(admitted);
  },
});
