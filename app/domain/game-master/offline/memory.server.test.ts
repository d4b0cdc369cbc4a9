import { describe, expect, it } from "vitest";
import { PINNED_FACTS_INTRODUCTION, renderTrackedState } from "../story-brief.server.ts";
import { renderTurnMessage, withAuthorNote } from "../turn-message.server.ts";
import { introductionToCarry, rememberedAnswer } from "./memory.server.ts";
import { readPrompt } from "./prompt.server.ts";
import { sentenceKey, withoutToldSentences } from "./text.server.ts";

const memory = {
  pinnedFacts: ["My late mother's jade hairpin is hidden under the third floor tile of the Palace of the Resting Phoenix."],
  storySoFar: "You: I appoint a young scribe named Ouyang Min to keep my private ledger. Madam Lin bows.",
};

describe("the offline storyteller's memory", () => {
  it("answers a question about a pinned fact with the fact, told to the player", () => {
    expect(rememberedAnswer("Where did I hide my late mother's jade hairpin?", memory, [])).toBe(
      "Your late mother's jade hairpin is hidden under the third floor tile of the Palace of the Resting Phoenix.",
    );
  });

  it("finds what the player said in the story so far when the turn itself has left the context", () => {
    expect(rememberedAnswer("What is the name of the scribe who keeps my private ledger?", memory, [])).toContain("Ouyang Min");
  });

  it("does not take a question about a named person for a memory of them", () => {
    expect(rememberedAnswer("Can I trust Censor Fang Yu?", memory, ["I ask Censor Fang Yu about the memorial."])).toBeUndefined();
  });
});

describe("reading the prompt", () => {
  const trackedStateOf = (grace: number) => ({
    stats: [{ name: "Grace", kind: "number" as const, min: 0, max: 100, start: 50 }],
    values: { Grace: grace },
  });
  const trackedState = renderTrackedState(trackedStateOf(61));
  const facts = `${PINNED_FACTS_INTRODUCTION}\n\n<pinned_facts>\n- The seal is false.\n</pinned_facts>`;

  it("reads the player's words from a turn's message that brings up lore, with its state and note", () => {
    const message = renderTurnMessage(withAuthorNote("I bow.", "Keep it short."), trackedStateOf(61), ["Vask: the dragon sleeps."]);
    const read = readPrompt([
      { role: "system", content: "# Game\n\nBe a narrator." },
      { role: "user", content: [{ type: "text", text: message }] },
    ]);
    expect(read).toMatchObject({ action: "I bow.", previousActions: [], trackedState: { values: { Grace: 61 } } });
  });

  it("reads the same from the last user message when the system prompt is split in two", () => {
    const read = readPrompt([
      { role: "system", content: "# Game\n\nBe a narrator." },
      { role: "system", content: facts },
      { role: "user", content: [{ type: "text", text: "I wait." }] },
      { role: "assistant", content: [{ type: "text", text: "You wait." }] },
      { role: "user", content: [{ type: "text", text: `${trackedState}\n\n${withAuthorNote("I bow.", "Keep it short.")}` }] },
    ]);
    expect(read).toMatchObject({
      action: "I bow.",
      previousActions: ["I wait."],
      previousReplies: ["You wait."],
      pinnedFacts: ["The seal is false."],
      trackedState: { values: { Grace: 61 } },
    });
  });
});

describe("leaving out what the story has told", () => {
  const told = new Set([sentenceKey("Make of that what you will."), sentenceKey("The longer it waits, the more it will cost.")]);

  it("drops a told sentence of narration or of a speech, and keeps the speech's marks paired", () => {
    expect(withoutToldSentences("The bell rings. The longer it waits, the more it will cost.", told, () => false)).toBe("The bell rings.");
    expect(withoutToldSentences("Ilse nods. “The ships are late. Make of that what you will.”", told, () => false)).toBe(
      "Ilse nods. “The ships are late.”",
    );
  });

  it("keeps what carries the turn, and sentences too short to read as a formula", () => {
    expect(withoutToldSentences("Make of that what you will.", told, (sentence) => sentence.startsWith("Make"))).toBe(
      "Make of that what you will.",
    );
    expect(withoutToldSentences("Not yet.", new Set([sentenceKey("Not yet.")]), () => false)).toBe("Not yet.");
  });
});

describe("carrying someone the player brought in", () => {
  const introduction = "I appoint a young scribe named Ouyang Min to keep my private ledger.";
  const replies = (count: number) => Array.from({ length: count }, (_, index) => `Turn ${index}.`);

  it("carries the line only when it is about to leave what the storyteller sees", () => {
    const noMemory = { pinnedFacts: [], storySoFar: "" };
    expect(introductionToCarry(noMemory, ["I wait.", "I bow.", introduction], replies(3))).toBeUndefined();
    expect(introductionToCarry(noMemory, [introduction, "I wait."], replies(2))).toBe(
      "You appoint a young scribe named Ouyang Min to keep your private ledger.",
    );
  });

  it("finds the carried line again in a reply, and answers from it", () => {
    const carried = ["Turn 0.", "One thing, at least, is settled. You appoint a young scribe named Ouyang Min to keep your private ledger."];
    const noMemory = { pinnedFacts: [], storySoFar: "" };
    expect(rememberedAnswer("What is the name of the scribe who keeps my private ledger?", noMemory, [], carried)).toContain("Ouyang Min");
    const underALead = ["Turn 0.", "Your orders stand: you appoint a young scribe named Ouyang Min to keep your private ledger."];
    expect(rememberedAnswer("Who keeps my private ledger, the scribe?", noMemory, [], underALead)).toBe(
      "You appoint a young scribe named Ouyang Min to keep your private ledger.",
    );
  });

  it("carries it again once the newest three exchanges no longer hold it, under a lead of the moment", () => {
    const noMemory = { pinnedFacts: [], storySoFar: "" };
    const carried = "Your orders stand: you appoint a young scribe named Ouyang Min to keep your private ledger.";
    expect(introductionToCarry(noMemory, ["Begin.", "I bow.", "I wait.", "I rest."], ["Opening.", carried, "Turn 2.", "Turn 3."])).toBeUndefined();
    expect(
      introductionToCarry(noMemory, ["Begin.", "I bow.", "I wait.", "I rest.", "I sing."], ["Opening.", carried, "Turn 2.", "Turn 3.", "Turn 4."]),
    ).toBe("You appoint a young scribe named Ouyang Min to keep your private ledger.");
  });
});
