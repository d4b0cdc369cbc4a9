import { describe, expect, it } from "vitest";
import { callCost, contextTokensSchema, estimateTurnCost, type TurnSample } from "./game-models.ts";
import type { ModelPrice } from "./model-calls.ts";

const price: ModelPrice = {
  provider: "openai-compatible",
  model: "m",
  inputPerMillion: 2,
  cachedInputPerMillion: 0.5,
  cacheWritePerMillion: null,
  outputPerMillion: 10,
  currency: "USD",
};

describe("a game's context budget as typed", () => {
  it("is the site's when empty, a whole number of tokens within bounds otherwise", () => {
    expect(contextTokensSchema.parse("")).toBeNull();
    expect(contextTokensSchema.parse(undefined)).toBeNull();
    expect(contextTokensSchema.parse(" 16,000 ")).toBe(16_000);
    expect(contextTokensSchema.parse(1000)).toBe(1000);
    for (const bad of ["999", "200001", "12.5", "8k", -4000]) expect(contextTokensSchema.safeParse(bad).success, String(bad)).toBe(false);
  });
});

describe("the estimated cost of an average turn", () => {
  it("prices tokens as a recorded call is priced: uncached input, cached input, cache writes at input's price unless set, output", () => {
    expect(callCost(price, [1000, 400, 100, 50])).toBeCloseTo((500 * 2 + 400 * 0.5 + 100 * 2 + 50 * 10) / 1e6, 12);
  });

  it("is the recent turns' average at the budget they were played at", () => {
    const samples: TurnSample[] = [
      [7800, 6000, 0, 400],
      [2000, 1000, 0, 200],
    ];
    const estimate = estimateTurnCost({ samples, summaries: [], playedAtTokens: 8000, budgetTokens: 8000, price });
    expect(estimate).toMatchObject({ turns: 2, currency: "USD", inputTokens: 4900, outputTokens: 300 });
    expect(estimate?.cost).toBeCloseTo((callCost(price, samples[0]!) + callCost(price, samples[1]!)) / 2, 12);
  });

  it("grows with the budget for turns whose window was full, not for the others; shrinks every turn to a smaller one", () => {
    const samples: TurnSample[] = [
      [7800, 6000, 0, 400],
      [2000, 1000, 0, 200],
    ];
    const doubled = estimateTurnCost({ samples, summaries: [], playedAtTokens: 8000, budgetTokens: 16_000, price });
    expect(doubled?.inputTokens).toBe((15_600 + 2000) / 2);
    expect(doubled?.cost).toBeCloseTo((callCost(price, [15_600, 12_000, 0, 400]) + callCost(price, samples[1]!)) / 2, 12);
    const small = estimateTurnCost({ samples, summaries: [], playedAtTokens: 8000, budgetTokens: 1000, price });
    expect(small?.inputTokens).toBe((975 + 1000) / 2);
  });

  it("shares the story summaries written meanwhile among the turns, a summary's window being its share of the budget", () => {
    const samples: TurnSample[] = [
      [7800, 6000, 0, 400],
      [2000, 1000, 0, 200],
    ];
    // One summary that filled its share of an 8,000-token budget (6,400), one that did not.
    const summaries: TurnSample[] = [
      [6400, 0, 0, 300],
      [3000, 0, 0, 250],
    ];
    const withSummaries = estimateTurnCost({ samples, summaries, playedAtTokens: 8000, budgetTokens: 8000, price });
    const turnsAlone = estimateTurnCost({ samples, summaries: [], playedAtTokens: 8000, budgetTokens: 8000, price });
    expect(withSummaries).toMatchObject({
      turns: 2,
      summaries: 2,
      inputTokens: (7800 + 2000 + 6400 + 3000) / 2,
      outputTokens: (400 + 200 + 300 + 250) / 2,
    });
    expect(withSummaries!.cost - turnsAlone!.cost).toBeCloseTo((callCost(price, summaries[0]!) + callCost(price, summaries[1]!)) / 2, 12);
    // At twice the budget the full summary sends twice as much; the other what it sent.
    const doubled = estimateTurnCost({ samples, summaries, playedAtTokens: 8000, budgetTokens: 16_000, price });
    expect(doubled?.inputTokens).toBe((15_600 + 2000 + 12_800 + 3000) / 2);
  });

  it("is none without a price or without turns to go by", () => {
    expect(estimateTurnCost({ samples: [], summaries: [], playedAtTokens: 8000, budgetTokens: 8000, price })).toBeNull();
    expect(estimateTurnCost({ samples: [[1, 0, 0, 1]], summaries: [], playedAtTokens: 8000, budgetTokens: 8000, price: undefined })).toBeNull();
  });
});
