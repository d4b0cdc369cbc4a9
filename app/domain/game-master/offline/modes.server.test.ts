import { describe, expect, it } from "vitest";
import { narrateTurn } from "./narrator.server.ts";
import { readPrompt } from "./prompt.server.ts";
import { world } from "./story-test-data.ts";
import { renderTurnMessage } from "../turn-message.server.ts";
import { actionInMode } from "../../../lib/action-modes.ts";

/** Issue 35 offline: the composer's modes and the lore a turn fires, as the storyteller tells them. */

const opening = narrateTurn({ world, action: "I'm ready.", previousReplies: [] });
const turn = (action: string, lore: string[] = []) =>
  narrateTurn({ world, action, previousReplies: [opening], previousActions: ["I'm ready."], lore });

describe("the composer's modes", () => {
  it("answers a Say as speech: the player's words quoted once, and someone answering aloud", () => {
    const reply = turn(actionInMode("Nobody leaves this harbor tonight", "say"));
    expect(reply).toContain("You say: “Nobody leaves this harbor tonight.”");
    expect(reply).not.toMatch(/You say,/);
    const prose = reply.split("\n\n").slice(1, 2).join(" ");
    expect(prose.replace("“Nobody leaves this harbor tonight.”", "")).toMatch(/“[^”]+”/);
  });

  it("takes a Do as the player's action, told once in the second person", () => {
    const reply = turn(actionInMode("I light the lamp on the Salt Quay", "do"));
    expect(reply).toContain("You light the lamp on the Salt Quay.");
    expect(reply).not.toMatch(/You say|You you/);
  });

  it("takes a Story line as narration: it happens as written, and someone present takes it in", () => {
    const line = "The fog lifts and a ship's bell rings across the water.";
    const reply = turn(actionInMode(line, "story"));
    const prose = reply.split("\n\n")[1] ?? "";
    expect(prose.startsWith(line)).toBe(true);
    expect(reply).not.toMatch(/You say|You the fog/);
    expect(prose.length).toBeGreaterThan(line.length + 20);
  });

  it("tells a Story line that opens with one of the cast as that person's doing", () => {
    const reply = turn("Oren Dask stumbles in, soaked and grinning.");
    expect(reply.split("\n\n")[1]).toMatch(/^Oren Dask stumbles in, soaked and grinning\./);
  });
});

describe("lore the turn fires", () => {
  const bell = "The Drowned Bell: a bronze bell that rings under the harbor when a ship is lost. Smugglers swear by it.";

  it("reaches the storyteller through the turn's message", () => {
    const read = readPrompt([
      { role: "system", content: "You are the Game Master." },
      { role: "user", content: [{ type: "text", text: renderTurnMessage("I listen for the Drowned Bell.", undefined, [bell]) }] },
    ]);
    expect(read.lore).toEqual([bell]);
    expect(read.action).toBe("I listen for the Drowned Bell.");
  });

  it("is told in the reply, its facts in the entry's own words", () => {
    const reply = turn("I listen for the Drowned Bell.", [bell]);
    expect(reply).toContain("A bronze bell that rings under the harbor when a ship is lost.".slice(2));
    expect(reply).toContain("Drowned Bell");
  });

  it("is told only while no reply in view has told it", () => {
    const first = turn("I listen for the Drowned Bell.", [bell]);
    const again = narrateTurn({
      world,
      action: "I ask about the Drowned Bell again.",
      previousReplies: [opening, first],
      previousActions: ["I'm ready.", "I listen for the Drowned Bell."],
      lore: [bell],
    });
    expect(again).not.toContain("rings under the harbor when a ship is lost");
  });
});

describe("a question nobody can answer", () => {
  it("still gives the player a lead: who might know, and what the world says of them", () => {
    const reply = turn("Oren, who sank the Grey Gull?");
    const answer = reply.split("\n\n")[1] ?? "";
    expect(answer).toMatch(/Ilse Varga|Mirela Stone/);
    expect(answer).toMatch(/counts every ship|Lamp Tower/);
  });

  it("takes a question about the player as about them, not about someone called “Me”", () => {
    const answer = turn("Oren, what are the sailors whispering about me?").split("\n\n")[1] ?? "";
    expect(answer).toContain("Oren Dask");
    expect(answer).not.toMatch(/“Me\b|\bMe\?/);
  });

  it("hears “what would you do in my place?” as a request for advice about a trouble", () => {
    const answer = turn("Mirela, what would you do in my place?").split("\n\n")[1] ?? "";
    expect(answer).toContain("Mirela Stone");
    expect(answer).toMatch(/customs raids|storms|Lamplighters|Salt Quay|Lamp Tower/i);
  });
});
