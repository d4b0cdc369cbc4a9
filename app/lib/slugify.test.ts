import { describe, expect, it } from "vitest";
import { firstFreeSlug, forceSlug, isUsableSlug, slugify } from "./slugify.ts";

describe("slugify (the one slug rule)", () => {
  it("lowercases and turns each run of other characters into one '-'", () => {
    expect(slugify("Getting Started")).toBe("getting-started");
    expect(slugify("AI  Storytelling: Tips & Tricks")).toBe("ai-storytelling-tips-tricks");
  });

  it("leaves no '-' at either end and never two in a row", () => {
    expect(slugify("Pirate Queen!!")).toBe("pirate-queen");
    expect(slugify("--Hello--World--")).toBe("hello-world");
    expect(slugify("  ...The Best Practices!!  ")).toBe("the-best-practices");
    expect(slugify("---")).toBe("");
  });

  it("folds accents instead of dropping the letter, and drops what has no Latin form", () => {
    expect(slugify("Café Intrigue")).toBe("cafe-intrigue");
    expect(slugify("Ñandú Über Straße")).toBe("nandu-uber-stra-e");
    expect(slugify("皇后 Empress 👑")).toBe("empress");
  });

  it("keeps digits", () => {
    expect(slugify("Top 10 Openings for 2025")).toBe("top-10-openings-for-2025");
  });
});

describe("forceSlug (the rule applied while typing)", () => {
  it("keeps one trailing '-' so the next keystroke can continue the slug", () => {
    expect(forceSlug("Empress Sim ")).toBe("empress-sim-");
    expect(forceSlug("pirate-queen!!")).toBe("pirate-queen-");
  });

  it("never starts with '-' and never doubles it", () => {
    expect(forceSlug("--Hello--World")).toBe("hello-world");
    expect(forceSlug("two  spaces")).toBe("two-spaces");
  });

  it("keeps what already follows the rule, so it can run on every keystroke", () => {
    expect(forceSlug("mary-sue-campus-2")).toBe("mary-sue-campus-2");
    expect(forceSlug(forceSlug("Hello World"))).toBe("hello-world");
    expect(forceSlug("")).toBe("");
  });
});

describe("isUsableSlug", () => {
  it("accepts slugs of letters and digits joined by single '-'", () => {
    expect(isUsableSlug("empress-simulator")).toBe(true);
    expect(isUsableSlug("2")).toBe(true);
  });

  it("refuses empty, dash-only, doubled, edged and unnormalised slugs", () => {
    expect(isUsableSlug("")).toBe(false);
    expect(isUsableSlug("---")).toBe(false);
    expect(isUsableSlug("pirate-queen--")).toBe(false);
    expect(isUsableSlug("-pirate")).toBe(false);
    expect(isUsableSlug("a--b")).toBe(false);
    expect(isUsableSlug("Upper")).toBe(false);
    expect(isUsableSlug("with space")).toBe(false);
  });
});

describe("firstFreeSlug", () => {
  it("is the slug itself while it is free, then -2, -3…", () => {
    expect(firstFreeSlug("pirate-queen", new Set(), 100)).toBe("pirate-queen");
    expect(firstFreeSlug("pirate-queen", new Set(["pirate-queen"]), 100)).toBe("pirate-queen-2");
    expect(firstFreeSlug("pirate-queen", new Set(["pirate-queen", "pirate-queen-2", "pirate-queen-3"]), 100)).toBe("pirate-queen-4");
  });

  it("cuts a long slug so that it keeps its suffix within the limit, without a '-' before the suffix", () => {
    expect(firstFreeSlug("abcd-ef", new Set(["abcd-ef"]), 7)).toBe("abcd-2");
  });
});
