import { describe, expect, it } from "vitest";
import { speakableText } from "./speakable-text.ts";

describe("speakableText", () => {
  it("announces the closing choices by number, in words, without their Markdown", () => {
    const reply =
      "The gate creaks open.\n\n**What do you do?**\n\n1. Enter the **courtyard**\n2. Wait for *dawn*.\n3) Ask [Ilse](https://example.com/ilse)";
    expect(speakableText(reply)).toBe(
      "The gate creaks open.\n\nWhat do you do?\n\nChoice 1: Enter the courtyard.\n\nChoice 2: Wait for dawn.\n\nChoice 3: Ask Ilse.",
    );
  });

  it("drops headings, quotes, list markers, rules, code marks, tags and pictures' addresses", () => {
    const reply = [
      "## The Hall of Kings",
      "",
      "> Carved in stone: `no king rules alone`",
      "",
      "---",
      "",
      "- a sword",
      "- a shield",
      "* a lamp",
      "",
      "![A torn map](https://example.com/map.png) <br> ~~old~~ news | indeed",
    ].join("\n");
    expect(speakableText(reply)).toBe(
      "The Hall of Kings\n\nCarved in stone: no king rules alone\n\na sword. a shield. a lamp\n\nA torn map old news indeed",
    );
  });

  it("keeps numbers that are part of the story, and a single numbered line that is not a list of choices", () => {
    expect(speakableText("You count 3 guards and 12 arrows.")).toBe("You count 3 guards and 12 arrows.");
    expect(speakableText("Your options:\n1. Run")).toBe("Your options: Run");
  });

  it("has nothing to read in a reply of marks only", () => {
    expect(speakableText("***\n\n---")).toBe("");
  });
});
