import { describe, expect, it } from "vitest";
import { findUnsafeText } from "./text.ts";

describe("findUnsafeText", () => {
  it("passes ordinary text, emoji and every script", () => {
    expect(findUnsafeText("Empress Wu 武则天 bows 🙇‍♀️ — «oui»")).toBeUndefined();
    expect(findUnsafeText({ message: "hello", list: ["a", "b"], nested: { n: 1, ok: true, none: null } })).toBeUndefined();
  });

  it("finds a NUL byte and says where", () => {
    expect(findUnsafeText("a\0b")).toBe("");
    expect(findUnsafeText({ message: "hi\u0000" })).toBe("message");
    expect(findUnsafeText({ sections: [{ title: "ok" }, { title: "x\0" }] })).toBe("sections.1.title");
  });

  it("finds unpaired surrogates, high or low, but not a surrogate pair", () => {
    expect(findUnsafeText("\uD83D")).toBe("");
    expect(findUnsafeText("x\uDE00y")).toBe("");
    expect(findUnsafeText("\uD83D\uDE00")).toBeUndefined();
  });

  it("looks at keys as well as values", () => {
    expect(findUnsafeText({ "bad\0key": "fine" })).toBe("");
    expect(findUnsafeText({ outer: { "\uD800": 1 } })).toBe("outer");
  });
});
