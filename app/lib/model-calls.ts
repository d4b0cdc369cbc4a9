import { z } from "zod";
import { TURN_KINDS } from "./constants.ts";

/**
 * Model calls (issue 34, docs/decisions/056): one row per request to a model provider, with what
 * it used and what it cost by the admin's price table.
 */

/**
 * A turn's kinds, the story so far's summary and a published world's advisory rating
 * (docs/decisions/064): the last two are model calls that are not turns.
 */
export const MODEL_CALL_KINDS = [...TURN_KINDS, "summary", "advisory"] as const;
export type ModelCallKind = (typeof MODEL_CALL_KINDS)[number];

/**
 * What a call was for, as the overview's spend lines part them (model_spend_days.part, kept by
 * record_model_call.sql): turns, stories' summaries, worlds' advisory ratings.
 */
export const SPEND_PARTS = ["turns", "summaries", "advisories"] as const;
export type SpendPart = (typeof SPEND_PARTS)[number];

/**
 * How a call ended. `ok`: its text was stored; `interrupted`: it failed after text, which was
 * kept; `failed`: it failed before any text; `empty`: it finished with nothing to read;
 * `cancelled`: the server stopped it before any text; `not_stored`: its text could not be stored.
 * The last four are refunded to the player, and cost the site all the same.
 */
export const MODEL_CALL_OUTCOMES = ["ok", "interrupted", "failed", "empty", "cancelled", "not_stored"] as const;
export type ModelCallOutcome = (typeof MODEL_CALL_OUTCOMES)[number];

/** The providers a Game Master can use (AI_PROVIDER), as calls record them. */
export const MODEL_PROVIDERS = ["offline", "openai-compatible", "openai", "anthropic"] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

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

/** Prices per million tokens stay within this (no model costs anywhere near a thousand dollars a million tokens). */
export const MAX_PRICE_PER_MILLION = 1000;

const pricePerMillion = (what: string) =>
  z
    .number({ error: `Enter the ${what} price per million tokens as a number.` })
    .min(0, `The ${what} price cannot be negative.`)
    .max(MAX_PRICE_PER_MILLION, `The ${what} price can be at most ${MAX_PRICE_PER_MILLION} per million tokens.`);

/** An admin's price for one model (`PUT /api/admin/model-prices`). */
export const modelPriceSchema = z.object({
  provider: z.enum(MODEL_PROVIDERS, { error: `Choose a provider: ${MODEL_PROVIDERS.join(", ")}.` }),
  model: z
    .string({ error: "Enter the model's id, as the provider names it." })
    .trim()
    .min(1, "Enter the model's id, as the provider names it.")
    .max(200, "A model id can be at most 200 characters."),
  inputPerMillion: pricePerMillion("input"),
  cachedInputPerMillion: pricePerMillion("cached input").nullable(),
  cacheWritePerMillion: pricePerMillion("cache write").nullable(),
  outputPerMillion: pricePerMillion("output"),
  currency: z
    .string({ error: "Enter the currency as a three-letter code, such as USD." })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, "Enter the currency as a three-letter code, such as USD."),
}) satisfies z.ZodType<ModelPrice>;

/** Which model's price to remove (`DELETE /api/admin/model-prices`). */
export const modelPriceKeySchema = modelPriceSchema.pick({ provider: true, model: true });
