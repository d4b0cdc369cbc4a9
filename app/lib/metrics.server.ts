import { Counter, Histogram, Registry } from "prom-client";

/**
 * What one instance counts for `GET /metrics` (Prometheus). Each figure is this process's own since
 * it started: Prometheus adds the instances up and copes with restarts. On the Game Master's path a
 * call costs one counter increment and at most one histogram observation, never anything per token.
 */
export const metricsRegistry = new Registry();

/**
 * How a turn ended. Refused before anything was spent: `refused_busy` (admission was
 * full, or the database was), `refused_rate_limited`, `insufficient_credits`, `refused` (anything
 * else: an unconfirmed email, a story busy or changed, a game gone). Begun: `completed`,
 * `interrupted` (the model failed after some text, which was kept and paid for), `failed` (no text,
 * or the reply could not be stored: refunded), `cancelled` (the server shut down mid-reply; text
 * already written is kept and paid for).
 */
const TURN_OUTCOMES = [
  "completed",
  "interrupted",
  "failed",
  "cancelled",
  "refused_busy",
  "refused_rate_limited",
  "insufficient_credits",
  "refused",
] as const;
export type TurnOutcome = (typeof TURN_OUTCOMES)[number];

export const gameMasterTurns = new Counter<"outcome">({
  name: "game_master_turns_total",
  help: "Game Master calls (turns, Retry, Continue, Edit) by how they ended.",
  labelNames: ["outcome"],
  registers: [metricsRegistry],
});
// Every outcome is reported from the start, so a rate over it is 0 rather than missing.
for (const outcome of TURN_OUTCOMES) gameMasterTurns.inc({ outcome }, 0);

export const gameMasterFirstToken = new Histogram({
  name: "game_master_first_token_seconds",
  help: "Time from the model being asked to the reply's first text.",
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 8, 13, 20, 30, 60],
  registers: [metricsRegistry],
});

export const creditsSpent = new Counter({
  name: "credits_spent_total",
  help: "Credits spent on Game Master calls whose reply was stored (refunded calls are not counted).",
  registers: [metricsRegistry],
});

export const creditsPurchased = new Counter({
  name: "credits_purchased_total",
  help: "Credits added by payments, counted once when the purchase commits.",
  registers: [metricsRegistry],
});
