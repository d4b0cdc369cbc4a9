import { describe, expect, it } from "vitest";
import { checkModifier, rollLine, settleCheck } from "./stat-checks.ts";

describe("a check's modifier", () => {
  it("is floor((value - 50) / 10) on a 0–100 stat, from -5 to +5", () => {
    expect([0, 9, 10, 49, 50, 59, 60, 99, 100].map((value) => checkModifier(value, 0, 100))).toEqual([-5, -5, -4, -1, 0, 0, 1, 4, 5]);
  });

  it("scales with any range, and holds a value outside it to its ends", () => {
    expect(checkModifier(1, 1, 5)).toBe(-5);
    expect(checkModifier(3, 1, 5)).toBe(0);
    expect(checkModifier(5, 1, 5)).toBe(5);
    expect(checkModifier(9_000, 0, 1_000)).toBe(5);
  });
});

describe("a settled check", () => {
  it("succeeds when the total meets the difficulty's target", () => {
    expect(settleCheck({ stat: "Cunning", difficulty: "normal" }, { min: 0, max: 100 }, 72, 13)).toMatchObject({
      total: 15,
      target: 15,
      success: true,
    });
    expect(settleCheck({ stat: "Cunning", difficulty: "normal" }, { min: 0, max: 100 }, 72, 12)).toMatchObject({ total: 14, success: false });
  });

  it("reads as a roll line", () => {
    expect(rollLine(settleCheck({ stat: "Cunning", difficulty: "normal" }, { min: 0, max: 100 }, 72, 14))).toBe(
      "Check · Cunning d20 14 + 2 = 16 vs 15 — success",
    );
    expect(rollLine(settleCheck({ stat: "Grace", difficulty: "easy" }, { min: 0, max: 100 }, 20, 9))).toBe(
      "Check · Grace d20 9 − 3 = 6 vs 10 — failure",
    );
  });
});
