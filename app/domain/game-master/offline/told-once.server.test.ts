import { describe, expect, it } from "vitest";
import { extractiveSummary } from "../story-summary.server.ts";
import { readContinuity, sceneLine } from "./continuity.server.ts";
import { answerTo, introductionToCarry } from "./memory.server.ts";
import { narrateTurn } from "./narrator.server.ts";
import { troubleOfTheTurn } from "./paragraphs.server.ts";
import { world } from "./story-test-data.ts";
import { offeredAt, Teller } from "./teller.server.ts";

/**
 * Issue 33's repetition goals: what the offline storyteller tells once in a story, although it sees
 * only the opening and the newest replies of it.
 */

const opening = narrateTurn({ world, action: "I'm ready.", previousReplies: [] });

/** The reply to `action` at `turn`, with the turns between the opening and the last one out of view. */
function lateTurn(turn: number, action: string) {
  const last = `${sceneLine(world, turn - 1, world.places[0])}\n\nThe fog thickens.`;
  return narrateTurn({ world, action, previousReplies: [opening, last], previousActions: ["I'm ready.", "I wait."] });
}

describe("a fact nobody asked for", () => {
  it("has one chance of three turns in sixty", () => {
    for (const sentence of world.knowledge) {
      const turns = Array.from({ length: 60 }, (_, index) => 17 + index).filter((turn) => offeredAt(sentence, turn));
      expect(turns).toHaveLength(3);
      expect((turns.at(-1) ?? 0) - (turns[0] ?? 0)).toBe(2);
    }
  });

  it("is told on arrival only in its chance once earlier replies are out of view", () => {
    const told = Array.from({ length: 60 }, (_, index) => 20 + index).filter((turn) =>
      lateTurn(turn, "I walk to the Lamp Tower.").includes("whose keeper sees every ship"),
    );
    expect(told.length).toBeGreaterThan(0);
    expect((told.at(-1) ?? 0) - (told[0] ?? 0)).toBeLessThan(3);
  });

  it("is not told when a visible reply has eight of its words in a row, in whatever sentence", () => {
    const earlier = `${sceneLine(world, 0, world.places[0])}\n\nMirela says the Lamp Tower is the lighthouse whose keeper sees every ship, they say.`;
    const reply = narrateTurn({
      world,
      action: "I walk to the Lamp Tower.",
      previousReplies: [opening, earlier],
      previousActions: ["I'm ready."],
    });
    expect(reply).toContain("the Lamp Tower");
    expect(reply).not.toContain("The Lamp Tower is the lighthouse");
  });
});

describe("a trouble the story brings up", () => {
  const story = readContinuity({ world, previousActions: [], previousReplies: [], declaredName: () => undefined });
  const teller = () => new Teller(world, { ...story, turn: 30 }, { spoken: "", narrator: "" }, 0, "trouble");

  it("is told with its sentence the first time round, and by name alone once every sentence has been told", () => {
    expect(troubleOfTheTurn(teller(), 0, undefined)).toMatch(/search a warehouse at dawn|close the harbor for days/);
    const again = troubleOfTheTurn(teller(), 10, undefined) ?? "";
    expect(again).toMatch(/customs raids|storms/);
    expect(again).not.toMatch(/search a warehouse at dawn|close the harbor for days/);
  });
});

describe("a remembered fact asked about", () => {
  it("is answered with what the question asks after", () => {
    expect(answerTo("Where do I keep my grandmother's locket?", "You keep your grandmother's locket sewn into the lining of your bag.")).toBe(
      "Sewn into the lining of your bag.",
    );
    expect(answerTo("What is my legal name?", "Your stage name is Ava Lark, but your legal name is Agatha Larkin.")).toBe("Agatha Larkin.");
    expect(answerTo("How much does Censor Fang Yu owe me?", "Censor Fang Yu secretly owes you seventeen hundred taels.")).toBe(
      "Seventeen hundred taels.",
    );
    expect(answerTo("What is the name of the scribe who keeps my ledger?", "You appoint a scribe named Ouyang Min to keep your ledger.")).toBe(
      "Ouyang Min.",
    );
  });

  it("is told whole when the rest adds nothing the question lacks, or is a clause of its own", () => {
    const brooch = "Returning the ruby brooch cancels your debt to the Vey Bank.";
    expect(answerTo("What must I return to cancel our debt to the Vey Bank?", brooch)).toBe(brooch);
    const will = "Your mother's second will is hidden behind the loose brick.";
    expect(answerTo("What do I know of my mother?", will)).toBe(will);
  });

  it("is answered that way in the reply, by the one asked", () => {
    const memory = { pinnedFacts: ["My late mother's jade hairpin is hidden under the third floor tile."], storySoFar: "" };
    const reply = narrateTurn({ world, action: "Oren, where did I hide my late mother's jade hairpin?", previousReplies: [opening], memory });
    expect(reply).toMatch(/“Hidden under the third floor tile,” (?:says Oren Dask|Oren Dask answers|Oren Dask reminds you)\./);
  });
});

describe("someone the player brought into the story", () => {
  const introduction = "I appoint a young scribe named Ouyang Min to keep my private ledger.";

  it("is told again while only the turns out of view hold them, and no longer once the summary does", () => {
    const noSummary = { pinnedFacts: [], storySoFar: "" };
    const outOfView = {
      actions: ["Begin.", "I bow.", "I wait.", "I rest.", "I sing."],
      replies: ["Opening.", "Turn 2.", "Turn 3.", "Turn 4.", "Turn 5."],
    };
    const carried = "Your orders stand: you appoint a young scribe named Ouyang Min to keep your private ledger.";
    expect(introductionToCarry(noSummary, outOfView.actions, ["Opening.", carried, ...outOfView.replies.slice(2)])).toBe(
      "You appoint a young scribe named Ouyang Min to keep your private ledger.",
    );
    const summarised = { pinnedFacts: [], storySoFar: `You: ${introduction} Madam Lin bows.` };
    expect(introductionToCarry(summarised, outOfView.actions, ["Opening.", carried, ...outOfView.replies.slice(2)])).toBeUndefined();
  });

  it("stays in the offline summary when older detail gives way", () => {
    const exchanges = Array.from({ length: 60 }, (_, index) =>
      index === 3
        ? { role: "user" as const, content: introduction }
        : {
            role: index % 2 === 0 ? ("user" as const) : ("assistant" as const),
            content: `Exchange ${index} goes on at some length, as exchanges do in a long story.`,
          },
    );
    const summary = extractiveSummary("", exchanges);
    expect(summary.length).toBeLessThanOrEqual(2400);
    expect(summary).toContain(`You: ${introduction}`);
    expect(summary).toContain("Exchange 59");
    expect(summary).not.toContain("Exchange 2 ");
  });
});
