import type { StoryState, TrackedStat } from "#app/lib/tracked-stats.ts";
import type { Character, Place, Step } from "./session-script.ts";
import type { PlayedSession, PlayedTurn } from "./transcript.ts";

/**
 * A small harbour game for the metrics' tests: hand-written transcripts of it, good and bad, are
 * what each metric is checked on (the seeded games' replies change as the storyteller does).
 */

export const HARBOUR_CAST: Character[] = [
  { name: "Harbormaster Ilse Varga", aliases: ["Ilse Varga", "the Harbormaster"], pronoun: "she", address: "Harbormaster" },
  { name: "Captain Oren Dask", aliases: ["Oren Dask", "the Captain"], pronoun: "he", address: "Captain Dask" },
  { name: "Madam Lin Cuiwei", aliases: ["Madam Lin"], pronoun: "she" },
];

export const HARBOUR_PLACES: Place[] = [
  { name: "the Salt Quay", aliases: ["Salt Quay"] },
  { name: "the Lamp Tower", aliases: ["Lamp Tower"] },
];

export const HARBOUR_STATS: TrackedStat[] = [
  { name: "Coin", kind: "number", min: 0, max: 1000, start: 40 },
  { name: "Favour", kind: "number", min: 0, max: 100, start: 55 },
  { name: "Standing", kind: "text", start: "Stranger" },
  { name: "Friends", kind: "list", start: [] },
];

export interface TurnDraft {
  step?: Step;
  message?: string;
  reply: string;
  state?: StoryState;
  firstTokenMs?: number;
  replyMs?: number;
  error?: string;
}

/** A session of the harbour game from hand-written turns (a plain "say" step unless a turn names its step). */
export function harbourSession(turns: TurnDraft[], game = "lantern-harbour"): PlayedSession {
  return {
    game,
    title: "Lantern Harbour",
    scriptVersion: 1,
    cast: HARBOUR_CAST,
    places: HARBOUR_PLACES,
    stats: HARBOUR_STATS,
    turns: turns.map((draft, index): PlayedTurn => ({
      number: index + 1,
      step: draft.step ?? { kind: "say", text: draft.message ?? "I look around." },
      message: draft.message ?? (draft.step && "text" in draft.step ? draft.step.text : "I look around."),
      reply: draft.reply,
      ...(draft.state ? { state: draft.state } : {}),
      ...(draft.firstTokenMs === undefined ? {} : { firstTokenMs: draft.firstTokenMs }),
      ...(draft.replyMs === undefined ? {} : { replyMs: draft.replyMs }),
      ...(draft.error === undefined ? {} : { error: draft.error }),
    })),
  };
}

/** Three choices a reply ends with, different for each `seed`. */
export function choicesFor(seed: string) {
  return `\n\n1. Follow the ${seed} trail to the water.\n2. Ask about the ${seed} at the tavern.\n3. Write down what the ${seed} means.`;
}
