import { describe, expect, it } from "vitest";
import { DIE_FACES } from "../../lib/stat-checks.ts";
import type { TrackedStat } from "../../lib/tracked-stats.ts";
import { InvalidInputError } from "../errors.server.ts";
import { checkedStat, rollCheck, rollD20 } from "./stat-checks.server.ts";

const STATS: TrackedStat[] = [
  { name: "Cunning", kind: "number", min: 0, max: 100, start: 50 },
  { name: "Title", kind: "text", start: "Consort" },
];

describe("the server's d20", () => {
  it("is unbiased over 100,000 rolls (chi-square on the 20 faces)", () => {
    const rolls = 100_000;
    const counts = new Array<number>(DIE_FACES).fill(0);
    for (let roll = 0; roll < rolls; roll += 1) {
      const face = rollD20();
      expect(Number.isInteger(face) && face >= 1 && face <= DIE_FACES).toBe(true);
      counts[face - 1]! += 1;
    }
    const expected = rolls / DIE_FACES;
    const chiSquare = counts.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
    // 19 degrees of freedom: a fair die scores over 43.8 once in a thousand runs and over 60 about
    // once in 260,000, so the test is not flaky; one face 10% likelier than it should be
    // adds about 50, and one with a face missing (an off-by-one) about 5,000.
    expect(chiSquare).toBeLessThan(60);
  });
});

describe("a check's request", () => {
  it("is refused with a sentence for a stat the game does not have", () => {
    expect(() => checkedStat(STATS, { stat: "Might", difficulty: "normal" })).toThrow(/no number stat called "Might".*Cunning/);
    expect(() => checkedStat(STATS, { stat: "Title", difficulty: "normal" })).toThrow(InvalidInputError);
  });

  it("is refused in a game without number stats", () => {
    expect(() => checkedStat([STATS[1]!], { stat: "Title", difficulty: "easy" })).toThrow("This game has no number stats to make a check with.");
  });

  it("is settled from the stat's value before the reply", () => {
    const check = rollCheck(STATS, { Cunning: 72 }, { stat: "Cunning", difficulty: "hard" });
    expect(check).toMatchObject({ stat: "Cunning", value: 72, modifier: 2, target: 20, total: check.die + 2, success: check.die + 2 >= 20 });
  });
});
