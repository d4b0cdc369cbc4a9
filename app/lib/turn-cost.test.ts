import { describe, expect, test } from "vitest";
import { CREDITS_PER_MESSAGE, TURN_KINDS } from "./constants.ts";
import { opensStory, turnCost, turnPrices } from "./turn-cost.ts";

describe("turnCost", () => {
  test("the reply that opens a story is free while a free opening is left", () => {
    for (const kind of ["send", "retry", "edit"] as const) {
      expect(turnCost({ kind, exchange: 1, freeOpeningAvailable: true })).toBe(0);
      expect(turnCost({ kind, exchange: 1, freeOpeningAvailable: false })).toBe(CREDITS_PER_MESSAGE);
    }
  });

  test("Continue always costs, even on the opening", () => {
    expect(opensStory({ kind: "continue", exchange: 1 })).toBe(false);
    expect(turnCost({ kind: "continue", exchange: 1, freeOpeningAvailable: true })).toBe(CREDITS_PER_MESSAGE);
  });

  test("every later exchange costs one message's price, whatever the kind", () => {
    for (const kind of TURN_KINDS) {
      for (const exchange of [2, 3, 50, 10_000]) {
        expect(opensStory({ kind, exchange })).toBe(false);
        expect(turnCost({ kind, exchange, freeOpeningAvailable: true })).toBe(CREDITS_PER_MESSAGE);
      }
    }
  });

  test("turnPrices holds every price turnCost can give a call, for the database to choose from under the story's lock", () => {
    for (const kind of TURN_KINDS) {
      const { freeOpening, otherwise } = turnPrices(kind);
      // The opening without a free one left, and every later exchange, cost `otherwise`.
      expect(turnCost({ kind, exchange: 1, freeOpeningAvailable: false })).toBe(otherwise);
      for (const exchange of [2, 3, 50, 10_000]) {
        for (const freeOpeningAvailable of [true, false]) expect(turnCost({ kind, exchange, freeOpeningAvailable })).toBe(otherwise);
      }
      // A free opening is used up only by a call it makes cheaper.
      expect(freeOpening < otherwise).toBe(opensStory({ kind, exchange: 1 }));
    }
  });
});
