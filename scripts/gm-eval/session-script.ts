import { PLAY_TEXTS } from "#app/lib/play-texts.ts";

/**
 * A scripted session of one seeded game, played by `npm run gm:eval` (issue 33): who and what the
 * game names (so the metrics can tell whether the reply answered the right person or reached the
 * right place), a hand-written opening, and the parts a long session is generated from.
 * A script's `version` goes up whenever its steps change: a scorecard names the versions it
 * played, and figures from different versions are not compared.
 */

export interface Character {
  /** As the game's prompt names them: "Marquis Mu Tieyan". */
  name: string;
  /** Other ways a reply may name them ("Marquis Mu", "the Marquis"); the longest match wins. */
  aliases: string[];
  /** Where the game says so: a reply calling them "their" is broken text. */
  pronoun?: "she" | "he";
  /** How the player speaks to them in generated questions ("Marquis Mu"); their name when unset. */
  address?: string;
}

export interface Place {
  /** As the player says it: "the Palace of the Resting Phoenix". */
  name: string;
  aliases: string[];
}

/** A fact the player pins to the story's memory, and how they later ask about it. */
export interface PinnedFact {
  fact: string;
  question: string;
  /** Any of these in the reply's prose means the fact came back. */
  expect: string[];
}

/** A person the player brings into the story in a message (not pinned), and how they later ask about them. */
export interface IntroducedPerson {
  introduction: string;
  question: string;
  expect: string[];
}

/**
 * One thing the player does. A turn sends a message (`begin`, the opening scene, is free; the rest
 * cost a credit); `pin` saves memory; `continue` and `retry` are the story controls, acting on the
 * latest reply (a credit each) rather than adding an exchange.
 */
export type Step =
  | { kind: "begin" }
  /** Anything the player types that no metric probes. */
  | { kind: "say"; text: string }
  /** Words to a named character: that character should answer. */
  | { kind: "ask"; to: string; text: string }
  /** Going to a named place: the reply's scene should be there. */
  | { kind: "move"; to: string; text: string }
  /** One of the latest reply's choices, typed as its number or as its text. */
  | { kind: "choose"; by: "number" | "text"; choice: number }
  /** A fact saved to the story's memory (PUT /api/stories/{id}/memory), not a turn. */
  | { kind: "pin"; fact: string }
  /** A question about something pinned or said earlier: the reply should bring it back. */
  | { kind: "recall"; text: string; expect: string[] }
  /** A dangerous action, optionally against a named character (who should then answer). */
  | { kind: "risky"; text: string; to?: string }
  /** Continue: the latest reply extended. */
  | { kind: "continue" }
  /** Retry: a new version of the latest reply. */
  | { kind: "retry" };

/** The steps that act on the story without a message of their own. */
export type StoryAction = Extract<Step, { kind: "pin" | "continue" | "retry" }>;
export type TurnStep = Exclude<Step, StoryAction>;

export function isTurn(step: Step): step is TurnStep {
  return step.kind !== "pin" && step.kind !== "continue" && step.kind !== "retry";
}

export interface SessionScript {
  game: string;
  version: number;
  cast: Character[];
  places: Place[];
  /** The session's hand-written beginning, played as written. */
  opening: Step[];
  /** The parts the rest of the session is generated from. */
  questions: string[];
  moves: string[];
  actions: string[];
  risks: { text: string; to?: string }[];
  pinned: PinnedFact[];
  introduced: IntroducedPerson;
}

/** Questions any game's characters can be asked ({name}: how the player addresses them). */
export const COMMON_QUESTIONS = [
  "{name}, what do you make of all this?",
  "I ask {name} for advice on what to do next.",
  "{name}, is there something you have not told me?",
  'I turn to {name}: "Speak plainly. What do you want from me?"',
  "{name}, who here can I trust?",
  "I ask {name} what news there is today.",
  "{name}, what would you do in my place?",
];

/** Ways of going somewhere ({place}: the place as the player says it). */
export const COMMON_MOVES = ["I go to {place}.", "I make my way to {place}.", "I head to {place} at once.", "I set off for {place}."];

/** Turns a session plays when not told otherwise: the "long session of 50+ turns". */
export const DEFAULT_SESSION_TURNS = 60;

/** Positions the long part of a session repeats: each ten turns ask, choose, act, travel and take risks. */
const PATTERN = ["ask", "number", "action", "move", "ask", "text", "risk-or-action", "ask", "recall-or-number", "action"] as const;

function greatestCommonDivisor(a: number, b: number): number {
  return b === 0 ? a : greatestCommonDivisor(b, a % b);
}

/**
 * The nth item of a list, walking it with a stride so neighbours differ and combinations do not
 * repeat soon; the stride grows until it shares no divisor with the list's length, so the walk
 * visits every item.
 */
function pick<T>(items: readonly T[], n: number, stride = 1): T {
  let step = stride;
  while (items.length > 1 && greatestCommonDivisor(step, items.length) !== 1) step += 1;
  const item = items[(n * step) % items.length];
  if (item === undefined) throw new Error("A session script's list is empty.");
  return item;
}

/** "{name}, what do you want?" with a character's name in it. */
function fill(template: string, values: { name?: string; place?: string }) {
  return template.replace(/\{(name|place)\}/g, (_match, key: "name" | "place") => {
    const value = values[key];
    if (value === undefined) throw new Error(`The template "${template}" needs {${key}}.`);
    return value;
  });
}

/**
 * The steps of a session of `turns` turns (pins and story controls are not turns): the opening as written, then steps
 * generated from the script's parts, the same every time. The pinned facts and the person brought
 * in are asked about again late in the session, when the turns that said them may have left the
 * model's context.
 */
export function sessionSteps(script: SessionScript, turns = DEFAULT_SESSION_TURNS): Step[] {
  const steps: Step[] = [];
  let played = 0;
  const add = (step: Step) => {
    steps.push(step);
    if (isTurn(step)) played += 1;
  };
  for (const step of script.opening) {
    if (played >= turns) break;
    add(step);
  }
  const recalls = [...script.pinned, script.introduced].map(recall);
  const counters = { ask: 0, move: 0, action: 0, risk: 0, recall: 0, choice: 0 };
  for (let position = 0; played < turns; position += 1) {
    const slot = PATTERN[position % PATTERN.length] ?? "action";
    const round = Math.floor(position / PATTERN.length);
    if (slot === "ask") {
      const n = counters.ask++;
      const character = pick(script.cast, n, 3);
      add({ kind: "ask", to: character.name, text: fill(pick(script.questions, n, 5), { name: addressOf(character) }) });
    } else if (slot === "move") {
      const n = counters.move++;
      const place = pick(script.places, n, 2);
      add({ kind: "move", to: place.name, text: fill(pick(script.moves, n), { place: place.name }) });
    } else if (slot === "number" || slot === "text") {
      add({ kind: "choose", by: slot, choice: 1 + (counters.choice++ % 3) });
    } else if (slot === "risk-or-action" && round % 2 === 1) {
      const risk = pick(script.risks, counters.risk++);
      add(risk.to === undefined ? { kind: "risky", text: risk.text } : { kind: "risky", text: risk.text, to: risk.to });
    } else if (slot === "recall-or-number" && round >= 1 && counters.recall < recalls.length) {
      add(recalls[counters.recall++] ?? { kind: "choose", by: "number", choice: 1 });
    } else if (slot === "recall-or-number") {
      add({ kind: "choose", by: "number", choice: 1 + (counters.choice++ % 3) });
    } else {
      add({ kind: "say", text: pick(script.actions, counters.action++, 7) });
    }
  }
  return steps;
}

function addressOf(character: Character) {
  return character.address ?? character.name;
}

/** The opening every session starts with: the play screen's own first message. */
export const BEGIN: Step = { kind: "begin" };

/** Saving a fact to the story's memory. */
export function pin(fact: PinnedFact): Step {
  return { kind: "pin", fact: fact.fact };
}

/** Bringing a person into the story in a message. */
export function introduce(person: IntroducedPerson): Step {
  return { kind: "say", text: person.introduction };
}

/** Asking about a pinned fact, or about a person brought in earlier. */
export function recall(memory: PinnedFact | IntroducedPerson): Step {
  return { kind: "recall", text: memory.question, expect: memory.expect };
}
export const BEGIN_MESSAGE = PLAY_TEXTS.beginChoice;
