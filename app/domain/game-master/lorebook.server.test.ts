import { describe, expect, it } from "vitest";
import { LoreKeyError, loreEntryText, loreForTurn, MAX_PATTERN_SCAN_CHARACTERS, parseLoreKeys, type LoreEntry } from "./lorebook.server.ts";
import { estimateTokens } from "./tokens.server.ts";

interface TestEntry extends LoreEntry {
  id: string;
}

function entry(id: string, keys: string, extra: Partial<TestEntry> = {}): TestEntry {
  return { id, title: id, keys, content: `All about ${id}.`, alwaysOn: false, priority: 0, enabled: true, ...extra };
}

function lore(entries: TestEntry[], message: string, options: { exchanges?: [string, string][]; scanDepth?: number; budgetTokens?: number } = {}) {
  return loreForTurn({
    entries,
    message,
    recentExchanges: (options.exchanges ?? []).map(([playerText, reply]) => ({ playerText, reply })),
    scanDepth: options.scanDepth ?? 2,
    budgetTokens: options.budgetTokens ?? 1000,
  });
}

function fired(result: ReturnType<typeof lore>) {
  return result.triggered.map((included) => [included.entry.id, included.firing?.key, included.firing?.words, included.firing?.foundIn]);
}

describe("parseLoreKeys", () => {
  it("splits on commas and trims, dropping empty keys", () => {
    expect(parseLoreKeys(" dragon ,  the old king,, ").map((key) => key.text)).toEqual(["dragon", "the old king"]);
  });

  it("keeps a pattern's commas inside the pattern", () => {
    const keys = parseLoreKeys("sword, /ba{1,3}r/i, shield");
    expect(keys.map((key) => [key.kind, key.text])).toEqual([
      ["words", "sword"],
      ["pattern", "/ba{1,3}r/i"],
      ["words", "shield"],
    ]);
  });

  it("refuses patterns that can backtrack exponentially, with a sentence", () => {
    for (const keys of ["/(a+)+$/", "/(a|aa)*b/", "/((ab)*)+/", "/(\\w+\\s?)*$/", "/(x)\\1/"]) {
      expect(() => parseLoreKeys(keys), keys).toThrow(LoreKeyError);
    }
    expect(() => parseLoreKeys("/(a+)+$/")).toThrow("could take too long to match");
  });

  it("accepts ordinary patterns, including quantified simple groups and classes with parentheses", () => {
    for (const keys of ["/drag(on|ons)/", "/(ab)+c/", "/[(+)]+x/", "/colou?r/", "/\\bking\\b/"]) {
      expect(() => parseLoreKeys(keys), keys).not.toThrow();
    }
  });

  it("refuses invalid patterns, unknown flags and oversized keys", () => {
    expect(() => parseLoreKeys("/(unclosed/")).toThrow("not a valid regular expression");
    expect(() => parseLoreKeys("/a/g")).toThrow('flag "g"');
    expect(() => parseLoreKeys(`/${"a".repeat(101)}/`)).toThrow("longer than 100 characters");
    expect(() => parseLoreKeys("x".repeat(101))).toThrow(LoreKeyError);
    expect(() => parseLoreKeys(Array.from({ length: 31 }, (_, index) => `k${index}`).join(","))).toThrow("at most 30 keys");
  });
});

describe("loreForTurn matching", () => {
  it("fires on a key in the message being sent, case-insensitively, reporting the player's spelling", () => {
    expect(fired(lore([entry("dragon", "dragon")], "I wake the DRAGON."))).toEqual([["dragon", "dragon", ["DRAGON"], "message"]]);
  });

  it("matches whole words only", () => {
    expect(fired(lore([entry("art", "art")], "The smart artist departs."))).toEqual([]);
    expect(fired(lore([entry("art", "art")], "Art, they say."))).toEqual([["art", "art", ["Art"], "message"]]);
    expect(fired(lore([entry("king", "king")], "king_maker and kings"))).toEqual([]);
  });

  it("matches phrases with their inner spaces", () => {
    expect(fired(lore([entry("king", "old king")], "The Old King sleeps."))).toEqual([["king", "old king", ["Old King"], "message"]]);
    expect(fired(lore([entry("king", "old king")], "The old, king sleeps."))).toEqual([]);
  });

  it("reports which key fired and every distinct spelling of it", () => {
    const result = lore([entry("city", "capital, Istanbul")], "İstanbul, ISTANBUL and istanbul");
    expect(fired(result)).toEqual([["city", "Istanbul", ["İstanbul", "ISTANBUL", "istanbul"], "message"]]);
  });

  it("treats Turkish dotted and dotless i as i both ways", () => {
    expect(fired(lore([entry("city", "İzmir")], "we sail to izmir"))).toEqual([["city", "İzmir", ["izmir"], "message"]]);
    expect(fired(lore([entry("warm", "ılık")], "ILIK su"))).toEqual([["warm", "ılık", ["ILIK"], "message"]]);
  });

  it("matches accented words as whole words without folding their accents away", () => {
    expect(fired(lore([entry("cafe", "café")], "Le Café ouvre."))).toEqual([["cafe", "café", ["Café"], "message"]]);
    expect(fired(lore([entry("cafe", "café")], "cafés"))).toEqual([]);
    expect(fired(lore([entry("year", "año")], "el ano"))).toEqual([]);
    // A key typed decomposed (e + combining accent) matches text typed composed.
    expect(fired(lore([entry("cafe", "cafe\u0301")], "un café"))).toEqual([["cafe", "cafe\u0301", ["café"], "message"]]);
  });

  it("matches CJK keys inside running text, where words have no spaces", () => {
    expect(fired(lore([entry("tokyo", "東京")], "私は東京に行った"))).toEqual([["tokyo", "東京", ["東京"], "message"]]);
    expect(fired(lore([entry("tokyo", "Tokyo")], "東京Tokyo駅"))).toEqual([["tokyo", "Tokyo", ["Tokyo"], "message"]]);
    expect(fired(lore([entry("cat", "ねこ")], "黒いねこがいる"))).toEqual([["cat", "ねこ", ["ねこ"], "message"]]);
  });

  it("keeps whole-word matching for Korean, which is written with spaces", () => {
    expect(fired(lore([entry("king", "왕")], "왕이 온다"))).toEqual([]);
    expect(fired(lore([entry("king", "왕")], "왕 온다"))).toEqual([["king", "왕", ["왕"], "message"]]);
  });

  it("handles characters outside the basic plane at the edges of a key", () => {
    expect(fired(lore([entry("rune", "𝔄rune")], "the 𝔄rune glows"))).toEqual([["rune", "𝔄rune", ["𝔄rune"], "message"]]);
    expect(fired(lore([entry("fire", "fire")], "🔥fire🔥"))).toEqual([["fire", "fire", ["fire"], "message"]]);
  });

  it("runs patterns as written, case-insensitive unless flags say otherwise", () => {
    expect(fired(lore([entry("dragon", "/drag(on|ons)\\b/")], "Two DRAGONS fly"))).toEqual([
      ["dragon", "/drag(on|ons)\\b/", ["DRAGONS"], "message"],
    ]);
    expect(fired(lore([entry("dragon", "/Dragon/u")], "a dragon"))).toEqual([]);
    expect(fired(lore([entry("dragon", "/Dragon/u")], "a Dragon"))).toEqual([["dragon", "/Dragon/u", ["Dragon"], "message"]]);
  });

  it("scans only the end of a very long text with a pattern", () => {
    const long = `marker ${"x ".repeat(MAX_PATTERN_SCAN_CHARACTERS)}`;
    expect(fired(lore([entry("m", "/marker/")], long))).toEqual([]);
    expect(fired(lore([entry("m", "marker")], long))).toEqual([["m", "marker", ["marker"], "message"]]);
  });

  it("scans the last scanDepth exchanges, and says the key was found there", () => {
    const exchanges: [string, string][] = [
      ["I ask about the dragon.", "It sleeps."],
      ["I walk on.", "The road bends toward the tower."],
    ];
    const entries = [entry("dragon", "dragon"), entry("tower", "tower")];
    expect(fired(lore(entries, "I wait.", { exchanges, scanDepth: 1 }))).toEqual([["tower", "tower", ["tower"], "recent exchanges"]]);
    expect(fired(lore(entries, "I wait.", { exchanges, scanDepth: 2 })).map((row) => row[0])).toEqual(["dragon", "tower"]);
    expect(fired(lore(entries, "I wait.", { exchanges, scanDepth: 0 }))).toEqual([]);
  });

  it("prefers the message being sent when a key is both there and in earlier exchanges", () => {
    const result = lore([entry("dragon", "dragon")], "The dragon!", { exchanges: [["dragon?", "A dragon."]] });
    expect(fired(result)).toEqual([["dragon", "dragon", ["dragon"], "message"]]);
  });

  it("ignores disabled entries and entries with no keys", () => {
    expect(fired(lore([entry("a", "dragon", { enabled: false }), entry("b", "")], "dragon"))).toEqual([]);
    expect(lore([entry("a", "", { alwaysOn: true, enabled: false })], "dragon").alwaysOn).toEqual([]);
  });

  it("puts always-on entries apart from triggered ones, whether or not their keys come up", () => {
    const result = lore([entry("rules", "dragon", { alwaysOn: true }), entry("dragon", "dragon")], "dragon");
    expect(result.alwaysOn.map((included) => [included.entry.id, included.firing])).toEqual([["rules", undefined]]);
    expect(fired(result).map((row) => row[0])).toEqual(["dragon"]);
  });

  it("fires nothing for keys that no longer parse, without failing the turn", () => {
    expect(fired(lore([entry("bad", "/(a+)+/")], "aaaa"))).toEqual([]);
  });
});

describe("loreForTurn budget", () => {
  const cost = (id: string) => estimateTokens(loreEntryText(entry(id, ""))) + 1;

  it("renders each entry as its title and content and counts what it costs", () => {
    const result = lore([entry("dragon", "dragon")], "dragon");
    expect(result.triggered[0]?.text).toBe("dragon: All about dragon.");
    expect(result.tokens).toBe(cost("dragon"));
  });

  it("orders by priority and cuts the lowest priorities first when over the budget", () => {
    const entries = [entry("low", "x", { priority: 1 }), entry("high", "x", { priority: 9 }), entry("mid", "x", { priority: 5 })];
    const result = lore(entries, "x", { budgetTokens: cost("high") + cost("mid") });
    expect(result.triggered.map((included) => included.entry.id)).toEqual(["high", "mid"]);
    expect(result.cut.map((cut) => [cut.entry.id, cut.firing?.key, cut.tokens])).toEqual([["low", "x", cost("low")]]);
  });

  it("never lets a lower priority take room a higher one was cut from", () => {
    const big = entry("big", "x", { priority: 9, content: "long ".repeat(100) });
    const result = lore([big, entry("small", "x", { priority: 1 })], "x", { budgetTokens: 20 });
    expect(result.triggered).toEqual([]);
    expect(result.cut.map((cut) => cut.entry.id)).toEqual(["big", "small"]);
  });

  it("gives always-on entries the budget first, then triggered ones", () => {
    const entries = [entry("trig", "x", { priority: 100 }), entry("always", "", { alwaysOn: true })];
    const result = lore(entries, "x", { budgetTokens: cost("always") });
    expect(result.alwaysOn.map((included) => included.entry.id)).toEqual(["always"]);
    expect(result.cut.map((cut) => cut.entry.id)).toEqual(["trig"]);
    expect(result.tokens).toBe(cost("always"));
  });
});
