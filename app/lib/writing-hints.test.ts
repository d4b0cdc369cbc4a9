import { describe, expect, it } from "vitest";
import { countWords, descriptionHint, wordCountHint, WORD_TARGETS } from "./writing-hints.ts";

describe("countWords", () => {
  it("counts words, not Markdown or HTML", () => {
    expect(countWords("")).toBe(0);
    expect(countWords("## The Court\n\nThe **empress** waits.")).toBe(5);
    expect(countWords("<p>Three <em>little</em> words</p>")).toBe(3);
    expect(countWords("See [the guide](https://example.com/a-long-path) now")).toBe(4);
  });

  it("keeps contractions and hyphenated words whole", () => {
    expect(countWords("Don't rush the well-timed move")).toBe(5);
  });
});

describe("wordCountHint", () => {
  it("nudges below the target and praises at or above it", () => {
    expect(wordCountHint("one two", WORD_TARGETS.multiSection)).toEqual({
      text: "2 words — aim for 300+ words for search engines",
      met: false,
    });
    const long = Array.from({ length: 500 }, () => "word").join(" ");
    expect(wordCountHint(long, WORD_TARGETS.gameContent)).toEqual({ text: "500 words — meets the 500+ word target", met: true });
    expect(wordCountHint(long, WORD_TARGETS.guide).met).toBe(false);
  });
});

describe("descriptionHint", () => {
  it("is met under 160 characters and warns from 160 on", () => {
    expect(descriptionHint("  ")).toEqual({ text: "Search results show up to 160 characters", met: false });
    expect(descriptionHint("x".repeat(159))).toEqual({ text: "159/160 characters — fits in search results", met: true });
    expect(descriptionHint("x".repeat(160)).met).toBe(false);
    expect(descriptionHint("x".repeat(200)).text).toBe("200/160 characters — keep it under 160 so search results show all of it");
  });
});
