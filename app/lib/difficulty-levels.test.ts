import { describe, expect, it } from "vitest";
import { DIFFICULTY_LEVELS, findDifficultyLevel } from "./difficulty-levels.ts";

describe("difficulty levels", () => {
  it("accept only beginner, intermediate and advanced, in any case", () => {
    expect(findDifficultyLevel("beginner")?.difficulty).toBe("Beginner");
    expect(findDifficultyLevel("INTERMEDIATE")?.difficulty).toBe("Intermediate");
    expect(findDifficultyLevel("Advanced")?.difficulty).toBe("Advanced");
    expect(findDifficultyLevel("expert")).toBeUndefined();
    expect(findDifficultyLevel(undefined)).toBeUndefined();
  });

  it("list SPEC's features for each level", () => {
    expect(DIFFICULTY_LEVELS.Beginner.features).toEqual([
      "Simplified character creation",
      "Clear narrative guidance",
      "Forgiving mechanics",
      "Built-in tutorials and hints",
    ]);
    expect(DIFFICULTY_LEVELS.Intermediate.features).toEqual([
      "Complex character development",
      "Multi-layered storylines",
      "Strategic decisions",
      "Relationship systems",
    ]);
    expect(DIFFICULTY_LEVELS.Advanced.features).toEqual([
      "Complex political systems",
      "High-stakes consequences",
      "Advanced AI interaction",
      "Multi-path branching",
    ]);
  });

  it("have real tips and their own metadata", () => {
    for (const level of Object.values(DIFFICULTY_LEVELS)) {
      expect(level.tips.length).toBeGreaterThanOrEqual(3);
      for (const tip of level.tips) expect(tip.text.length).toBeGreaterThan(60);
      expect(level.metaDescription.length).toBeLessThanOrEqual(155);
    }
    expect(new Set(Object.values(DIFFICULTY_LEVELS).map((level) => level.metaTitle)).size).toBe(3);
  });
});
