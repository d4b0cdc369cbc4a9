import { describe, expect, it } from "vitest";
import { offlineAdvisory, parseAdvisory } from "./world-advisory.server.ts";

const RULES = { version: 4, rules: ["Be kind.", "Rate honestly.", "No spam."], publishedAt: "2026-01-01T00:00:00.000Z" };

describe("parseAdvisory", () => {
  it("reads FITS and REVIEW with the rule at stake", () => {
    expect(parseAdvisory("FITS: a gentle court drama.", RULES, "m")).toMatchObject({
      verdict: "fits",
      ruleNumber: null,
      summary: "a gentle court drama.",
      rulesVersion: 4,
      model: "m",
    });
    expect(parseAdvisory("review 2 - gore in a world rated Everyone", RULES, "m")).toMatchObject({
      verdict: "review",
      ruleNumber: 2,
      summary: "gore in a world rated Everyone",
    });
  });

  it("keeps a reply without a verdict, or a rule that does not exist, as a call for review without a rule", () => {
    expect(parseAdvisory("I think it is fine.", RULES, "m")).toMatchObject({
      verdict: "review",
      ruleNumber: null,
      summary: "I think it is fine.",
    });
    expect(parseAdvisory("REVIEW 9: odd", RULES, "m")).toMatchObject({ verdict: "review", ruleNumber: null });
    expect(parseAdvisory("", RULES, "m").summary).toBe("The model gave no reason.");
  });
});

describe("offlineAdvisory", () => {
  it("restates the creator's rating, saying no model read the world", () => {
    expect(offlineAdvisory({ contentRating: "Mature" }, RULES)).toMatchObject({ verdict: "review", model: "offline", rulesVersion: 4 });
    expect(offlineAdvisory({ contentRating: "Teen" }, RULES).summary).toContain("No model read the world");
  });
});
