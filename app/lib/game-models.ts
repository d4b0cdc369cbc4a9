import { z } from "zod";
import type { ModelPrice } from "./model-calls.ts";

/**
 * A game's model and context budget (issue 34, docs/decisions/060): the admin chooses, per game,
 * the model its turns use — the site's (AI_MODEL) or one priced for the configured provider — and
 * how many tokens of context they send (AI_CONTEXT_TOKENS unless set). The editor shows what an
 * average turn would cost at that choice, from the price table and the game's recent turns.
 */

/** A context budget an admin may set: room for a game's brief and a few exchanges, at most what current models take. */
export const CONTEXT_TOKENS_BOUNDS = { min: 1_000, max: 200_000 } as const;

const contextTokensMessage = `The context budget is a whole number of tokens from ${CONTEXT_TOKENS_BOUNDS.min.toLocaleString("en-US")} to ${CONTEXT_TOKENS_BOUNDS.max.toLocaleString("en-US")}, or empty for the site's.`;

/** The budget as typed (text or a number); empty: the site's (null). */
export const contextTokensSchema = z
  .union([z.number(), z.string()], { error: contextTokensMessage })
  .nullish()
  .transform((value, context) => {
    const text = typeof value === "number" ? String(value) : (value ?? "").trim().replaceAll(",", "");
    if (!text) return null;
    const tokens = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!(tokens >= CONTEXT_TOKENS_BOUNDS.min && tokens <= CONTEXT_TOKENS_BOUNDS.max)) {
      context.addIssue({ code: "custom", message: contextTokensMessage });
      return z.NEVER;
    }
    return tokens;
  });

/** The model as chosen; empty: the site's (null). Which ids may be chosen is the server's to check (game-admin.server.ts). */
export const gameModelSchema = z
  .string({ error: "Choose the model from the list." })
  .trim()
  .max(200, "A model id can be at most 200 characters.")
  .nullish()
  .transform((value) => value || null);

/** What a recent turn of the game used: input (cached and cache writes included), cached input, cache writes, output. */
export type TurnSample = [input: number, cached: number, cacheWrite: number, output: number];

/** What the game editor offers and estimates from (the admin panel's games tab). */
export interface GameModelChoices {
  /** The configured provider (AI_PROVIDER): a game chooses among its models. */
  provider: string;
  /** The site's model (AI_MODEL) and context budget (AI_CONTEXT_TOKENS), used when a game sets none. */
  siteModel: string;
  siteContextTokens: number;
  /** The provider's models in the price table. */
  prices: ModelPrice[];
  /** Each game's most recent turns (its model calls that were turns), and the story summaries written since the oldest of them, by slug. */
  recentCalls: Record<string, { turns: TurnSample[]; summaries: TurnSample[] }>;
}

/** How many of a game's latest turns its estimate averages. */
export const RECENT_TURNS_SAMPLED = 50;

/** A turn that sent at least this share of its budget had a full window: a larger budget would have sent more. */
const FULL_WINDOW_SHARE = 0.9;

export interface TurnEstimate {
  cost: number;
  currency: string;
  inputTokens: number;
  outputTokens: number;
  turns: number;
  /** Story summaries written while those turns were played, their cost shared among them. */
  summaries: number;
}

/** What a call of these tokens costs at a price (per million tokens), as model_call_cost.sql prices a recorded call. */
export function callCost(price: ModelPrice, [input, cached, cacheWrite, output]: TurnSample): number {
  const uncached = Math.max(input - cached - cacheWrite, 0);
  return (
    (uncached * price.inputPerMillion +
      cached * (price.cachedInputPerMillion ?? price.inputPerMillion) +
      cacheWrite * (price.cacheWritePerMillion ?? price.inputPerMillion) +
      output * price.outputPerMillion) /
    1_000_000
  );
}

/** A story summary's request stays within this share of the context budget (story-summary.server.ts). */
export const SUMMARY_REQUEST_SHARE = 0.8;

/**
 * The cost of an average turn at `budgetTokens`, from turns played at `playedAtTokens` (the game's
 * budget as saved) and the story summaries written meanwhile, which every turn shares the cost of:
 * a call that filled its window (a summary's is its share of the budget) sends in proportion to
 * the budget, one that did not sends what it sent (no more than the budget); its cached share and
 * its output stay as they were. Null without a price or without turns to go by.
 */
export function estimateTurnCost({
  samples,
  summaries,
  playedAtTokens,
  budgetTokens,
  price,
}: {
  samples: readonly TurnSample[];
  summaries: readonly TurnSample[];
  playedAtTokens: number;
  budgetTokens: number;
  price: ModelPrice | undefined;
}): TurnEstimate | null {
  if (!price || samples.length === 0) return null;
  const atBudget = (calls: readonly TurnSample[], share: number) =>
    calls.map(([input, cached, cacheWrite, output]): TurnSample => {
      const played = playedAtTokens * share;
      const budget = budgetTokens * share;
      const sent = input >= played * FULL_WINDOW_SHARE ? (input * budget) / played : Math.min(input, budget);
      const scale = input > 0 ? sent / input : 0;
      return [sent, cached * scale, cacheWrite * scale, output];
    });
  let cost = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  for (const call of [...atBudget(samples, 1), ...atBudget(summaries, SUMMARY_REQUEST_SHARE)]) {
    cost += callCost(price, call);
    inputTokens += call[0];
    outputTokens += call[3];
  }
  const turns = samples.length;
  return {
    cost: cost / turns,
    currency: price.currency,
    inputTokens: inputTokens / turns,
    outputTokens: outputTokens / turns,
    turns,
    summaries: summaries.length,
  };
}
