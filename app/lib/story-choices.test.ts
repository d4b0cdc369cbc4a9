import { describe, expect, it } from "vitest";
import { chosenAction, continuedReply, plainChoice, replyToContinue, splitStoryChoices } from "./story-choices.ts";

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

describe("chosenAction", () => {
  const choices = ["Go to the quay.", "Wait for dawn", "Ask Ilse"];

  it("turns a choice's number, or its exact text in any case, into the choice", () => {
    expect(chosenAction("2", choices)).toBe("Wait for dawn");
    expect(chosenAction(" 3. ", choices)).toBe("Ask Ilse");
    expect(chosenAction("1)", choices)).toBe("Go to the quay.");
    expect(chosenAction("wait for DAWN", choices)).toBe("Wait for dawn");
  });

  it("keeps anything else as typed", () => {
    expect(chosenAction("4", choices)).toBe("4");
    expect(chosenAction("0", choices)).toBe("0");
    expect(chosenAction("2 and then 3", choices)).toBe("2 and then 3");
    expect(chosenAction("2", [])).toBe("2");
  });
});

describe("continuedReply", () => {
  const reply = "The hall falls silent.\n\nYour move, Your Majesty.\n\n1. Summon the **Regent**.\n2. Wait.";

  it("puts the continuation before the choices the reply ended with, so they stay its last part", () => {
    const continued = continuedReply(reply, "\n\nA bell rings somewhere below.");
    expect(continued).toBe(
      "The hall falls silent.\n\nYour move, Your Majesty.\n\nA bell rings somewhere below.\n\n1. Summon the **Regent**.\n2. Wait.",
    );
    expect(splitStoryChoices(continued).choices).toEqual(["Summon the Regent.", "Wait."]);
    expect(chosenAction("2", splitStoryChoices(continued).choices)).toBe("Wait.");
  });

  it("offers the continuation's own choices when it ends with some", () => {
    const continued = continuedReply(reply, " The doors open.\n\n1. Bow.\n2. Stand.\n3. Leave.");
    expect(continued).toBe("The hall falls silent.\n\nYour move, Your Majesty. The doors open.\n\n1. Bow.\n2. Stand.\n3. Leave.");
    expect(splitStoryChoices(continued).choices).toEqual(["Bow.", "Stand.", "Leave."]);
  });

  it("keeps the short paragraph that introduces the choices with them, and goes on from the story before it", () => {
    const introduced = "The hall falls silent.\n\n**What do you do, Your Majesty?** Choose a path:\n\n1. Bow.\n2. Leave.";
    expect(replyToContinue(introduced)).toBe("The hall falls silent.");
    expect(continuedReply(introduced, "\n\nA bell rings.")).toBe(
      "The hall falls silent.\n\nA bell rings.\n\n**What do you do, Your Majesty?** Choose a path:\n\n1. Bow.\n2. Leave.",
    );
    // A closing paragraph of story, not a question to the player, stays where it was.
    expect(replyToContinue("The hall falls silent.\n\nThe doors open.\n\n1. Bow.\n2. Leave.")).toBe("The hall falls silent.\n\nThe doors open.");
  });

  it("appends to a reply without choices", () => {
    expect(continuedReply("The tide turns.", " And then the bell rang.")).toBe("The tide turns. And then the bell rang.");
  });
});
