import { describe, expect, it } from "vitest";
import { StateBlockFilter } from "./state-block.server.ts";

/** What the player is shown of a reply streamed in these tokens, and the block it carried. */
function stream(tokens: string[]) {
  const filter = new StateBlockFilter();
  const shown = tokens.map((token) => filter.push(token)).join("") + filter.end();
  return { shown, state: filter.state() };
}

describe("StateBlockFilter", () => {
  const reply = 'The court bows.\n\n1. Smile\n2. Frown\n\n<state>{"Favour": 42, "Rank": "Consort"}</state>\n';

  it("takes the block out of the reply and reads it", () => {
    expect(stream([reply])).toEqual({ shown: "The court bows.\n\n1. Smile\n2. Frown", state: { Favour: 42, Rank: "Consort" } });
  });

  it("never shows any part of a block split across tokens, wherever the split falls", () => {
    for (let size = 1; size <= 9; size += 1) {
      const tokens = reply.match(new RegExp(`[\\s\\S]{1,${size}}`, "g")) ?? [];
      const filter = new StateBlockFilter();
      const pieces = tokens.map((token) => filter.push(token));
      pieces.push(filter.end());
      for (const piece of pieces) expect(piece).not.toMatch(/[<{}]|state|Favour/);
      expect(pieces.join("")).toBe("The court bows.\n\n1. Smile\n2. Frown");
      expect(filter.state()).toEqual({ Favour: 42, Rank: "Consort" });
    }
  });

  it("passes prose through as it comes, holding back only white space and what may begin a tag", () => {
    const filter = new StateBlockFilter();
    expect(filter.push("The court ")).toBe("The court");
    expect(filter.push("bows. <")).toBe(" bows.");
    expect(filter.push("3 you")).toBe(" <3 you");
    expect(filter.end()).toBe("");
  });

  it("reads a block in any case, and keeps prose that follows it", () => {
    expect(stream(["Before.\n<STATE>", '{"a":1}', "</State>\n\nAfter."])).toEqual({ shown: "Before.\n\nAfter.", state: { a: 1 } });
  });

  it("hides a garbled or unclosed block, and reads it as no state", () => {
    expect(stream(["Prose. <state>{Favour: up}</state>"])).toEqual({ shown: "Prose.", state: undefined });
    expect(stream(["Prose. <state>", '{"Favour": 4'])).toEqual({ shown: "Prose.", state: undefined });
  });

  it("reads the newest of several blocks, and a block in a code fence", () => {
    expect(stream(['A <state>{"a":1}</state> B <state>```json\n{"a":2}\n```</state>'])).toEqual({ shown: "A B", state: { a: 2 } });
  });

  it("passes a reply without a block through exactly as written", () => {
    expect(stream(["Just ", "a reply ", "< and > signs.  \n"])).toEqual({ shown: "Just a reply < and > signs.  \n", state: undefined });
  });

  describe("in any script: text whose lower case is longer or shorter than itself, emoji, combining marks", () => {
    const dotted = "İ"; // U+0130: lower-cases to two UTF-16 units ("i" and a combining dot)
    const cases = [
      {
        name: "12 dotted capitals before the block",
        reply: `${dotted.repeat(12)} sarayda. <state>{"Grace": 70}</state>`,
        shown: `${dotted.repeat(12)} sarayda.`,
        state: { Grace: 70 },
      },
      {
        name: "27 dotted capitals before the block, and prose after it",
        reply: `${dotted.repeat(27)}.\n\n<state>{"Grace": 71}</state>\n\nSonra.`,
        shown: `${dotted.repeat(27)}.\n\nSonra.`,
        state: { Grace: 71 },
      },
      {
        name: "Turkish prose with a value that holds a dotted capital",
        reply: 'Sultan İbrahim içeri girer. İKBAL bekler.\n\n<STATE>{"Unvan": "İkbal", "Grace": 75}</State>\n',
        shown: "Sultan İbrahim içeri girer. İKBAL bekler.",
        state: { Unvan: "İkbal", Grace: 75 },
      },
      {
        name: "German sharp s, small and capital",
        reply: 'Die Straße ist GROẞ.\n<sTaTe>{"Titel": "Großfürstin ẞ"}</STATE>',
        shown: "Die Straße ist GROẞ.",
        state: { Titel: "Großfürstin ẞ" },
      },
      {
        name: "emoji, with joiners and skin tones",
        reply: 'The court 👑 bows 👩‍👩‍👧 👋🏽.\n<state>{"Mood": "😊👍🏿"}</state>',
        shown: "The court 👑 bows 👩‍👩‍👧 👋🏽.",
        state: { Mood: "😊👍🏿" },
      },
      {
        name: "combining marks",
        reply: 'Cafe\u0301 noir, e\u0301\u0300\u0323.\n<state>{"Name": "Zoe\u0308", "Mark": "a\u030A"}</state>',
        shown: "Cafe\u0301 noir, e\u0301\u0300\u0323.",
        state: { Name: "Zoe\u0308", Mark: "a\u030A" },
      },
      {
        name: "dotted capitals inside the tags' neighbourhood and in the block",
        reply: `${dotted}<State>{"a": "${dotted}${dotted}"}</sTaTe>${dotted} sonra ${dotted}.`,
        shown: `${dotted}${dotted} sonra ${dotted}.`,
        state: { a: `${dotted}${dotted}` },
      },
    ];

    it("takes no letter outside ASCII for one of the tag's, however it changes case", () => {
      // "ſ" (long s) upper-cases to "S", "K" (the Kelvin sign) lower-cases to "k".
      const reply = 'Prose <ſtate>{"a": 1}</ſtate> and <STATE\u212A>.';
      expect(stream([reply])).toEqual({ shown: reply, state: undefined });
    });

    it.each(cases)("$name: read whole, the prose and the state are right", ({ reply, shown, state }) => {
      expect(stream([reply])).toEqual({ shown, state });
    });

    it.each(cases)("$name: split anywhere, into two tokens or many, the same prose and the same state", ({ reply, shown, state }) => {
      const splits: string[][] = [];
      for (let at = 0; at <= reply.length; at += 1) splits.push([reply.slice(0, at), reply.slice(at)]);
      for (let size = 1; size <= 9; size += 1) splits.push(reply.match(new RegExp(`[\\s\\S]{1,${size}}`, "g")) ?? []);
      for (const tokens of splits) {
        const filter = new StateBlockFilter();
        const pieces = tokens.map((token) => filter.push(token));
        pieces.push(filter.end());
        expect(pieces.join(""), JSON.stringify(tokens)).toBe(shown);
        for (const piece of pieces) expect(piece, JSON.stringify(tokens)).not.toMatch(/[<{}]|state/i);
        expect(filter.state(), JSON.stringify(tokens)).toEqual(state);
      }
    });
  });
});
