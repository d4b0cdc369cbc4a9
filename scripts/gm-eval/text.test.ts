import { describe, expect, it } from "vitest";
import type { Character } from "./session-script.ts";
import { isEcho, isStatusLine, mentions, ngrams, percentile, replyParts, sentences, statusItems, words } from "./text.ts";

describe("statusItems", () => {
  it("reads the seeded games' status lines, whatever their units and notes", () => {
    expect(statusItems("**Grace 77 (+2) · Private Treasury 2,800 taels · Cassian 55 → 50**")).toEqual([
      { label: "Grace", number: 77, text: "Grace 77" },
      { label: "Private Treasury", number: 2800, text: "Private Treasury 2,800 taels" },
      { label: "Cassian", number: 55, text: "Cassian 55" },
    ]);
    expect(statusItems("*Day 3 of 90 · Qi Condensation 2nd Layer (14%) · Root: Poor · Vitality 100/100*")).toEqual([
      { label: "", text: "Day 3 of 90" },
      { label: "", text: "Qi Condensation 2nd Layer (14%)" },
      { label: "Root", text: "Poor" },
      { label: "Vitality", number: 100, text: "Vitality 100/100" },
    ]);
    expect(statusItems("*Fame 14 (Unknown) · Bank $2,400 · June: Warm → Ally*")).toEqual([
      { label: "Fame", number: 14, text: "Fame 14 (Unknown)" },
      { label: "Bank", number: 2400, text: "Bank $2,400" },
      { label: "June", text: "Warm" },
    ]);
    expect(statusItems("Grace: 75 | Stability: 68")).toEqual([
      { label: "Grace", number: 75, text: "Grace: 75" },
      { label: "Stability", number: 68, text: "Stability: 68" },
    ]);
  });

  it("tells a status line from prose", () => {
    expect(isStatusLine("*Week 1 · Sparkle 55 · Popularity 18 (New Transfer)*")).toBe(true);
    expect(isStatusLine("The bells ring 3 times · then 4.")).toBe(false);
    expect(isStatusLine("She paid 300 taels for it.")).toBe(false);
  });
});

describe("replyParts", () => {
  it("keeps the prose apart from the status line and the numbered choices", () => {
    const reply = "*Day 1 — the Hall*\n\nThe court waits.\n\n**Grace 75 · Stability 68**\n\n**What now?**\n\n1. Wait.\n2. Speak.";
    expect(replyParts(reply)).toEqual({ prose: "*Day 1 — the Hall*\n\nThe court waits.\n\n\n**What now?**", choices: ["Wait.", "Speak."] });
  });
});

describe("mentions", () => {
  const cast: Character[] = [
    { name: "Consort Qiao", aliases: [] },
    { name: "Qiao Bingzhi", aliases: ["Minister Qiao"] },
  ];

  it("finds each person by their longest matching name, in order", () => {
    const found = mentions("Minister Qiao bows; Consort Qiao does not. qiao bingzhi sighs.", cast);
    expect(found.map((mention) => mention.who.name)).toEqual(["Qiao Bingzhi", "Consort Qiao", "Qiao Bingzhi"]);
    expect(mentions("The Qiaos are rich.", cast)).toEqual([]);
  });
});

describe("words, sentences and runs", () => {
  it("splits text the way the metrics compare it", () => {
    expect(words("“Don’t,” she says: the Emperor's 3,000 riders!")).toEqual(["don't", "she", "says", "the", "emperor's", "3", "000", "riders"]);
    expect(sentences("“Go.” He left. Did she?\nYes… maybe")).toEqual(["“Go.”", "He left.", "Did she?", "Yes…", "maybe"]);
    expect(sentences("Mr. Quill waits. Dr. Vey nods.")).toEqual(["Mr. Quill waits.", "Dr. Vey nods."]);
    expect(ngrams(["a", "b", "c", "d"], 3)).toEqual(["a b c", "b c d"]);
    expect(ngrams(["a", "b"], 3)).toEqual([]);
  });

  it("knows a sentence that only restates the player's message", () => {
    expect(isEcho("You go to Cinnabar Peak.", "I go to Cinnabar Peak.")).toBe(true);
    expect(isEcho("Elder Hua waits at the top of Cinnabar Peak.", "I go to Cinnabar Peak.")).toBe(false);
  });

  it("takes percentiles by nearest rank", () => {
    expect(percentile([3, 1, 2], 0.5)).toBe(2);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9)).toBe(9);
    expect(percentile([], 0.5)).toBeUndefined();
  });
});
