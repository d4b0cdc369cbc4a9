import { describe, expect, it } from "vitest";
import { forceSlug, isUsableSlug, slugFromTitle } from "./slugify.ts";

describe("forceSlug (the game slug rule, applied while typing)", () => {
  it("lowercases", () => {
    expect(forceSlug("Empress-Simulator")).toBe("empress-simulator");
  });

  it("turns every character outside a-z, 0-9 and '-' into '-', one for one", () => {
    expect(forceSlug("Empress Sim 2!")).toBe("empress-sim-2-");
    expect(forceSlug("a_b.c/d")).toBe("a-b-c-d");
    expect(forceSlug("two  spaces")).toBe("two--spaces");
    expect(forceSlug("Café")).toBe("caf-");
  });

  it("keeps what already follows the rule, so it can run on every keystroke", () => {
    expect(forceSlug("mary-sue-campus-2")).toBe("mary-sue-campus-2");
    expect(forceSlug(forceSlug("Hello World"))).toBe("hello-world");
    expect(forceSlug("")).toBe("");
  });
});

describe("slugFromTitle (the guide slug generated from its title)", () => {
  it("lowercases and turns each run of other characters into one '-'", () => {
    expect(slugFromTitle("Getting Started")).toBe("getting-started");
    expect(slugFromTitle("AI  Storytelling: Tips & Tricks")).toBe("ai-storytelling-tips-tricks");
  });

  it("trims '-' from both ends", () => {
    expect(slugFromTitle("  ...The Best Practices!!  ")).toBe("the-best-practices");
    expect(slugFromTitle("---")).toBe("");
  });

  it("folds accents instead of dropping the letter", () => {
    expect(slugFromTitle("Café Intrigue")).toBe("cafe-intrigue");
  });

  it("keeps digits", () => {
    expect(slugFromTitle("Top 10 Openings for 2025")).toBe("top-10-openings-for-2025");
  });
});

describe("isUsableSlug", () => {
  it("accepts slugs with a letter or digit and only allowed characters", () => {
    expect(isUsableSlug("empress-simulator")).toBe(true);
    expect(isUsableSlug("2")).toBe(true);
  });

  it("refuses empty, dash-only and unnormalised slugs", () => {
    expect(isUsableSlug("")).toBe(false);
    expect(isUsableSlug("---")).toBe(false);
    expect(isUsableSlug("Upper")).toBe(false);
    expect(isUsableSlug("with space")).toBe(false);
  });
});
