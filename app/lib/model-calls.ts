import { TURN_KINDS } from "./constants.ts";

/**
 * Model calls (issue 34, docs/decisions/056): one row per request to a model provider, with what
 * it used and what it cost by the admin's price table.
 */

/** A turn's kinds, and the story so far's summary (a model call that is not a turn). */
export const MODEL_CALL_KINDS = [...TURN_KINDS, "summary"] as const;
export type ModelCallKind = (typeof MODEL_CALL_KINDS)[number];

/**
 * How a call ended. `ok`: its text was stored; `interrupted`: it failed after text, which was
 * kept; `failed`: it failed before any text; `empty`: it finished with nothing to read;
 * `cancelled`: the server stopped it before any text; `not_stored`: its text could not be stored.
 * The last four are refunded to the player, and cost the site all the same.
 */
export const MODEL_CALL_OUTCOMES = ["ok", "interrupted", "failed", "empty", "cancelled", "not_stored"] as const;
export type ModelCallOutcome = (typeof MODEL_CALL_OUTCOMES)[number];

/** One model's prices, per million tokens, in its currency (cached input and cache writes cost input's price when not set). */
export interface ModelPrice {
  provider: string;
  model: string;
  inputPerMillion: number;
  cachedInputPerMillion: number | null;
  cacheWritePerMillion: number | null;
  outputPerMillion: number;
  currency: string;
}
