import { describe, expect, it } from "vitest";
import { loadSeedGames } from "#app/db/seed/seed.server.ts";
import { messageFor } from "./play.ts";
import { BEGIN_MESSAGE, isTurn, sessionSteps, type SessionScript, type Step } from "./session-script.ts";
import { SESSION_SCRIPTS } from "./session-scripts.ts";
import { names, normalized } from "./text.ts";

const seeds = loadSeedGames();
const turnsOf = (steps: Step[]) => steps.filter(isTurn);

describe("sessionSteps", () => {
  it("plays the long session the issue asks for, the same every time, without the same line over and over", () => {
    for (const script of SESSION_SCRIPTS) {
      const steps = sessionSteps(script);
      expect(turnsOf(steps)).toHaveLength(60);
      expect(sessionSteps(script)).toEqual(steps);
      const typed = steps.flatMap((step) => ("text" in step ? [step.text] : []));
      const mostRepeated = Math.max(...[...new Set(typed)].map((text) => typed.filter((other) => other === text).length));
      // A question about a pinned fact is asked again late in the session; nothing typed comes more often.
      expect(mostRepeated, script.game).toBeLessThanOrEqual(3);
    }
  });

  it("covers every part of the script: questions to characters, moves, choices by number and text, pins and recalls, risks, Continue and Retry", () => {
    for (const script of SESSION_SCRIPTS) {
      const steps = sessionSteps(script);
      const kinds = new Set(steps.map((step) => (step.kind === "choose" ? `choose-${step.by}` : step.kind)));
      expect([...kinds].sort(), script.game).toEqual([
        "ask",
        "begin",
        "choose-number",
        "choose-text",
        "continue",
        "move",
        "pin",
        "recall",
        "retry",
        "risky",
        "say",
      ]);
      const asked = new Set(steps.flatMap((step) => (step.kind === "ask" ? [step.to] : [])));
      expect(asked.size, `${script.game} asks most of its cast`).toBeGreaterThanOrEqual(Math.min(8, script.cast.length));
      const visited = new Set(steps.flatMap((step) => (step.kind === "move" ? [step.to] : [])));
      expect(visited.size, `${script.game} goes to most of its places`).toBeGreaterThanOrEqual(Math.min(5, script.places.length));
      // Each pinned fact and the person brought in are asked about twice: soon after, and late.
      for (const memory of [...script.pinned, script.introduced]) {
        expect(steps.filter((step) => step.kind === "recall" && step.text === memory.question)).toHaveLength(2);
      }
    }
  });

  it("stops where it is told, the opening first", () => {
    const [script] = SESSION_SCRIPTS;
    if (!script) throw new Error("No scripts.");
    const steps = sessionSteps(script, 5);
    expect(turnsOf(steps)).toHaveLength(5);
    expect(steps[0]).toEqual({ kind: "begin" });
  });
});

describe("the session scripts", () => {
  it("exist for every seeded game, each with a version", () => {
    expect(SESSION_SCRIPTS.map((script) => script.game).sort()).toEqual(seeds.map((seed) => seed.game.slug).sort());
    for (const script of SESSION_SCRIPTS) expect(script.version).toBeGreaterThanOrEqual(1);
  });

  /** Everything the game tells its Game Master: its prompt and its content. */
  function gameText(script: SessionScript) {
    const seed = seeds.find((candidate) => candidate.game.slug === script.game);
    if (!seed) throw new Error(`No seeded game ${script.game}.`);
    return [seed.game.prompt, ...seed.content.map((section) => section.content)].join("\n").replaceAll("**", "");
  }

  it("address the characters and places their game names", () => {
    for (const script of SESSION_SCRIPTS) {
      const text = gameText(script);
      for (const who of [...script.cast, ...script.places]) expect(names(text, who), `${script.game}: ${who.name}`).toBe(true);
      for (const step of sessionSteps(script)) {
        if ((step.kind === "ask" || step.kind === "risky") && step.to !== undefined) {
          expect(script.cast.map((character) => character.name)).toContain(step.to);
        }
        if (step.kind === "move") expect(script.places.map((place) => place.name)).toContain(step.to);
      }
    }
  });

  it("ask about memories whose answer the question does not already give", () => {
    for (const script of SESSION_SCRIPTS) {
      for (const memory of [...script.pinned, script.introduced]) {
        const question = ` ${normalized(memory.question)} `;
        for (const phrase of memory.expect) expect(question.includes(` ${normalized(phrase)} `), `${script.game}: ${memory.question}`).toBe(false);
        const told = "fact" in memory ? memory.fact : memory.introduction;
        expect(
          memory.expect.some((phrase) => normalized(told).includes(normalized(phrase))),
          `${script.game}: ${told}`,
        ).toBe(true);
      }
    }
  });
});

describe("messageFor", () => {
  const reply = "The tide turns.\n\n1. Go to the **quay**.\n2. Wait for dawn.\n3. Ask Ilse.";

  it("types what the player would: the play screen's first message, a choice's number, a choice's text", () => {
    expect(messageFor({ kind: "begin" }, "")).toBe(BEGIN_MESSAGE);
    expect(messageFor({ kind: "choose", by: "number", choice: 2 }, reply)).toBe("2");
    expect(messageFor({ kind: "choose", by: "text", choice: 1 }, reply)).toBe("Go to the quay.");
    expect(messageFor({ kind: "move", to: "the quay", text: "I go to the quay." }, reply)).toBe("I go to the quay.");
  });

  it("types the number when the reply offered no such choice", () => {
    expect(messageFor({ kind: "choose", by: "text", choice: 5 }, reply)).toBe("5");
    expect(messageFor({ kind: "choose", by: "text", choice: 1 }, "No choices here.")).toBe("1");
  });
});
