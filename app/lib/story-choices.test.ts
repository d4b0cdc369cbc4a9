import { describe, expect, it } from "vitest";
import { plainChoice, splitStoryChoices } from "./story-choices.ts";

describe("splitStoryChoices", () => {
  it("takes the numbered list a reply ends with", () => {
    const reply = "The tide turns.\n\n**What do you do?**\n\n1. Go to the **quay**.\n2) Wait for *dawn*\n3. Ask [Ilse](https://example.com)\n";
    expect(splitStoryChoices(reply)).toEqual({
      body: "The tide turns.\n\n**What do you do?**",
      choices: ["Go to the quay.", "Wait for dawn", "Ask Ilse"],
    });
  });

  it("ignores lists that are not at the end, not numbered from 1, or a single item", () => {
    for (const reply of [
      "1. One\n2. Two\n\nAnd then the story goes on.",
      "Steps:\n2. Two\n3. Three",
      "Only:\n1. One",
      "1. One\n3. Three",
      "No list at all.",
    ]) {
      expect(splitStoryChoices(reply)).toEqual({ body: reply, choices: [] });
    }
  });
});

describe("plainChoice", () => {
  it("keeps what a player would type", () => {
    expect(plainChoice("**Bold** and _quiet_ `code`")).toBe("Bold and quiet code");
    expect(plainChoice("Don't_touch snake_case")).toBe("Don't_touch snake_case");
  });
});
