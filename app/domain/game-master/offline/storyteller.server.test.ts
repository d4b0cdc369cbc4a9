import { describe, expect, it } from "vitest";
import { narrateTurn } from "./narrator.server.ts";
import { createOfflineStoryteller, outcomeIn } from "./storyteller.server.ts";
import { parseStatusLine } from "./status-line.server.ts";
import { brief, choicesOf, world } from "./story-test-data.ts";
import { streamReply } from "../reply-stream.server.ts";
import { StateBlockFilter } from "../state-block.server.ts";
import { joinSystemPrompt, parseSystemPrompt, renderSystemPrompt, type TrackedState } from "../story-brief.server.ts";
import { readTurnMessage, renderTurnMessage } from "../turn-message.server.ts";

describe("the offline storyteller model", () => {
  const system = renderSystemPrompt(brief, brief.sections);

  /** The reply as a turn reads it (streamReply): its text pieces, finish reason, and the error that ended it. */
  async function tell(action: string, options: { wordDelayMs?: number; maxOutputTokens?: number; abortAfterPieces?: number } = {}) {
    const controller = new AbortController();
    const readReply = await streamReply({
      model: createOfflineStoryteller({ wordDelayMs: options.wordDelayMs ?? 0 }),
      system,
      messages: [{ role: "user", content: action }],
      maxOutputTokens: options.maxOutputTokens ?? 4_000,
      maxRetries: 0,
      abortSignal: controller.signal,
    });
    const pieces: string[] = [];
    let finishReason: string | undefined;
    let failure: unknown;
    try {
      ({ finishReason } = await readReply((delta) => {
        pieces.push(delta);
        if (pieces.length === options.abortAfterPieces) controller.abort(new Error("the player left"));
      }));
    } catch (error) {
      failure = error;
    }
    return { pieces, text: pieces.join(""), finishReason, failure };
  }

  it("tells a failed check as failure and a passed one as success, before the rest of its reply", async () => {
    const check = {
      stat: "Cunning",
      value: 30,
      min: 0,
      max: 100,
      modifier: -2,
      die: 9,
      total: 7,
      difficulty: "normal",
      target: 15,
      success: false,
    } as const;
    const failed = await tell(renderTurnMessage("I slip past the guard.", undefined, [], check));
    expect(failed.text.startsWith("Your Cunning fails you (7 against 15): it does not work.\n\n")).toBe(true);
    const passed = await tell(renderTurnMessage("I slip past the guard.", undefined, [], { ...check, die: 19, total: 17, success: true }));
    expect(passed.text.startsWith("Your Cunning carries you through (17 against 15): it works.\n\n")).toBe(true);
    // The narration's own outcome ("It works, mostly…") never contradicts the roll.
    const ownOutcome = outcomeIn(narrateTurn({ world, action: "I slip past the guard.", previousReplies: [] }));
    expect(ownOutcome).toBeDefined();
    expect(failed.text).not.toContain(ownOutcome);
    expect(outcomeIn(failed.text)).toBeUndefined();
  });

  it("streams its reply word by word, reassembling exactly", async () => {
    const { pieces, text, finishReason } = await tell("I light a lantern.");
    const expected = narrateTurn({ world, action: "I light a lantern.", previousReplies: [] });
    expect(text).toBe(expected);
    expect(pieces.length).toBeGreaterThan(expected.split(" ").length / 2);
    expect(finishReason).toBe("stop");
  });

  it("respects the reply cap", async () => {
    const { text, finishReason } = await tell("Go.", { maxOutputTokens: 20 });
    expect(text.length).toBeLessThan(100);
    expect(finishReason).toBe("length");
  });

  it("stops when aborted", async () => {
    const { pieces, finishReason, failure } = await tell("Go.", { wordDelayMs: 20, abortAfterPieces: 2 });
    expect(pieces).toHaveLength(2);
    expect(finishReason).toBeUndefined();
    expect(failure).toEqual(new Error("the player left"));
  });
});

describe("the offline storyteller's state block", () => {
  const trackedState: TrackedState = {
    stats: [
      { name: "Favour", kind: "number", min: 0, max: 100, start: 55 },
      { name: "Suspicion", kind: "number", min: 0, max: 100, start: 10 },
      { name: "Standing", kind: "number", min: 0, max: 100, start: 50 },
      { name: "Allies", kind: "list", start: [] },
      { name: "Title", kind: "text", start: "Deputy" },
    ],
    values: { Favour: 55, Suspicion: 10, Standing: 50, Allies: [], Title: "Deputy" },
  };
  const opening = narrateTurn({ world, action: "I'm ready.", previousReplies: [], trackedState });
  const turn = (action: string) => narrateTurn({ world, action, previousReplies: [opening], previousActions: ["I'm ready."], trackedState });

  function blockOf(reply: string) {
    const filter = new StateBlockFilter();
    const prose = filter.push(reply) + filter.end();
    return { prose, state: filter.state() as Record<string, unknown> };
  }

  it("ends every reply with the state, which the server takes out whole", () => {
    const { prose, state } = blockOf(opening);
    expect(state).toEqual(trackedState.values);
    expect(prose).not.toMatch(/<state>|Suspicion":/);
    expect(choicesOf(prose).length).toBeGreaterThanOrEqual(3);
  });

  it("moves stats the way the action leans, agreeing with the status line it shows", () => {
    const { prose, state } = blockOf(turn("I thank Ilse Varga and help her count the ships."));
    const line = parseStatusLine(prose);
    expect(state.Favour).toBe(line?.stats.find((stat) => stat.label === "Favour")?.value);
    expect(state.Suspicion).toBe(line?.stats.find((stat) => stat.label === "Suspicion")?.value);
    expect(state.Standing).toBeGreaterThan(50);
    expect(state.Allies).toEqual(["Ilse Varga"]);
    expect(state.Title).toBe("Deputy");
    expect(blockOf(turn("I threaten Oren Dask and seize his crates.")).state.Standing).toBeLessThan(50);
  });

  it("shows the tracked value in the status line where the game starts a stat elsewhere than its prompt's example", () => {
    // The prompt's status line says Favour 55; this game starts its stories at 40.
    const elsewhere: TrackedState = { ...trackedState, values: { ...trackedState.values, Favour: 40 } };
    const first = narrateTurn({ world, action: "I'm ready.", previousReplies: [], trackedState: elsewhere });
    expect(blockOf(first).state.Favour).toBe(40);
    const reply = narrateTurn({
      world,
      action: "I thank Ilse Varga and help her count the ships.",
      previousReplies: [opening],
      previousActions: ["I'm ready."],
      trackedState: elsewhere,
    });
    const line = parseStatusLine(blockOf(reply).prose)?.stats.find((stat) => stat.label === "Favour");
    expect(line?.value).toBe(blockOf(reply).state.Favour);
    expect(Math.abs(Number(blockOf(reply).state.Favour) - 40)).toBeLessThanOrEqual(4);
  });

  it("reads the stats from the turn's message a real model gets, and needs none", () => {
    const system = joinSystemPrompt(renderSystemPrompt(brief, brief.sections));
    expect(readTurnMessage(renderTurnMessage("I'm ready.", trackedState))).toEqual({
      message: "I'm ready.",
      triggeredLore: [],
      trackedState: {
        stats: trackedState.stats.map((stat) => ({ ...stat, start: stat.kind === "number" ? stat.min : stat.kind === "list" ? [] : "" })),
        values: trackedState.values,
      },
    });
    expect(parseSystemPrompt(system).prompt).toBe(brief.prompt);
    expect(narrateTurn({ world, action: "I'm ready.", previousReplies: [] })).not.toContain("<state>");
  });
});
