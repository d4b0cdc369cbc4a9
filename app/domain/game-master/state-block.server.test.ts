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
});
