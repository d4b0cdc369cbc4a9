import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { PLAY_TEXTS } from "../../../lib/play-texts.ts";
import { splitStoryChoices } from "../../../lib/story-choices.ts";
import { applyStateChanges, resolveState, type StoryState, type TrackedStat } from "../../../lib/tracked-stats.ts";
import { buildModelContext, type ConversationMessage } from "../context.server.ts";
import { StateBlockFilter } from "../state-block.server.ts";
import {
  isWorldContentType,
  joinSystemPrompt,
  parseSystemPrompt,
  WORLD_CONTENT_TYPES,
  type StoryBrief,
  type WorldSection,
} from "../story-brief.server.ts";
import { midSentence, shortName } from "./names.server.ts";
import { createOfflineStoryteller } from "./storyteller.server.ts";
import { seededRandom } from "./text.server.ts";
import { readWorld, type World } from "./world.server.ts";

/**
 * Stories played through the offline storyteller as the site plays them: each turn's context is
 * built by buildModelContext within the default budget (so a long story reaches the model as its
 * opening and newest turns only), and the reply is the model's. A scripted player makes the moves
 * a new player makes: "2", a choice's text, questions, a name, travel, talk. Used by the
 * storyteller's property tests and by the game page's preview.
 */

/** What a turn sends at the default AI_CONTEXT_TOKENS and AI_MAX_OUTPUT_TOKENS. */
export const DEFAULT_BUDGET = { contextTokens: 8000, maxOutputTokens: 800 };

/** A game as content/games/<slug>/ seeds it, reduced to what its Game Master is told. */
export function briefOf(game: { title: string; prompt: string }, content: { contentType?: string; title: string; content: string }[]): StoryBrief {
  const sections: WorldSection[] = content.flatMap((section) =>
    section.contentType !== undefined && isWorldContentType(section.contentType)
      ? [{ contentType: section.contentType, title: section.title, content: section.content }]
      : [],
  );
  const priority = (section: WorldSection) => WORLD_CONTENT_TYPES.indexOf(section.contentType as (typeof WORLD_CONTENT_TYPES)[number]);
  return { title: game.title, prompt: game.prompt, sections: sections.sort((a, b) => priority(a) - priority(b)) };
}

export interface PlayedTurn {
  message: string;
  /** The reply as the player reads it (without its state block). */
  reply: string;
  /** The reply reached the output cap and was cut. */
  truncated: boolean;
  /** The story's state after the reply, in a game with tracked stats. */
  state?: StoryState;
}

function toPrompt(system: string[], messages: ConversationMessage[]): LanguageModelV4Prompt {
  return [
    ...system.map((content) => ({ role: "system" as const, content })),
    ...messages.map((message) => ({ role: message.role, content: [{ type: "text" as const, text: message.content }] })),
  ];
}

/**
 * One call of the storyteller on a story so far, as a turn makes it (a Continue when `message` is
 * CONTINUE_INSTRUCTION). With `stats`, the reply's state block is taken out and applied, as a turn does.
 */
export async function tellOffline(
  brief: StoryBrief,
  story: PlayedTurn[],
  message: string,
  { seed, stats = [] }: { seed?: number; stats?: TrackedStat[] } = {},
) {
  const messages = story.flatMap((turn): ConversationMessage[] => [
    { role: "user", content: turn.message },
    { role: "assistant", content: turn.reply },
  ]);
  // A Continue sends the reply so far as the last reply, then the instruction, as a turn does.
  const before = resolveState(stats, story.at(-1)?.state);
  const trackedState = stats.length > 0 ? { stats, values: before } : undefined;
  const context = buildModelContext({
    brief,
    conversation: { messages, hasGap: false },
    message,
    budgetTokens: DEFAULT_BUDGET.contextTokens,
    trackedState,
  });
  const model = createOfflineStoryteller({ wordDelayMs: 0 });
  const result = await model.doGenerate({
    prompt: toPrompt(context.system, context.messages),
    maxOutputTokens: DEFAULT_BUDGET.maxOutputTokens,
    seed,
  });
  const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  const truncated = result.finishReason.unified === "length";
  if (!trackedState) return { reply: text, truncated };
  const block = new StateBlockFilter();
  const reply = block.push(text) + block.end();
  return { reply, truncated, state: applyStateChanges(stats, before, block.state()) };
}

/** Plays `turns` turns, asking `next` for each message with the story so far. */
export async function playOffline(
  brief: StoryBrief,
  turns: number,
  next: (story: PlayedTurn[]) => string,
  { stats = [] }: { stats?: TrackedStat[] } = {},
): Promise<PlayedTurn[]> {
  const story: PlayedTurn[] = [];
  for (let turn = 0; turn < turns; turn += 1) {
    const message = next(story);
    story.push({ message, ...(await tellOffline(brief, story, message, { stats })) });
  }
  return story;
}

// ---------------------------------------------------------------------------------------------
// A scripted player

export type Move =
  | { kind: "begin" }
  | { kind: "name"; name: string }
  | { kind: "number"; choice: string }
  | { kind: "choice-text"; choice: string }
  | { kind: "stray-number" }
  | { kind: "question"; subject: string; person: boolean }
  | { kind: "unknown-question"; subject: string }
  | { kind: "advice" }
  | { kind: "self" }
  | { kind: "travel"; place: string }
  | { kind: "talk"; person: string }
  | { kind: "investigate" }
  | { kind: "speech" }
  | { kind: "rest" }
  | { kind: "free" };

export interface ScriptedMessage {
  message: string;
  move: Move;
}

const SPEECHES = [
  "“We will see,” I say quietly.",
  "“Nobody leaves until I have an answer,” I say.",
  "“I am listening. Go on.”",
  "“Thank you. I will remember this.”",
  "“Enough. I have heard all I need to hear.”",
];

const FREE_ACTIONS = [
  "I order that the doors be closed and nobody disturb us.",
  "I write a short letter and seal it myself.",
  "Quietly, I count who is missing from the room.",
  "I smile and say nothing, and let them wonder.",
  "I give away the small silver bracelet I am wearing to the youngest servant.",
];

const INVESTIGATIONS = [
  "I look around carefully.",
  "I search the room for anything out of place.",
  "I study the faces around me.",
  "I examine the letters on the table.",
];

/**
 * A player who makes every kind of move: they ask who they are on their third message and again
 * on their 151st, and `introduction` is how they give their name on their fourth ("My name is
 * Lin Mei."). Deterministic for a seed.
 */
export function scriptedPlayer(world: World, { seed, introduction, name }: { seed: number; introduction: string; name: string }) {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => {
    const item = items[Math.floor(random() * items.length)];
    if (item === undefined) throw new RangeError("pick() needs at least one item.");
    return item;
  };
  const people = world.people.map((person) => shortName(person.name));
  const places = world.places.map((place) => midSentence(place.name));
  const terms = [...world.facts, ...world.challenges, ...world.groups]
    .map((entity) => midSentence(entity.name))
    .filter((term) => /^[A-Z]|^the /.test(term));

  return (story: PlayedTurn[]): ScriptedMessage => {
    const turn = story.length;
    if (turn === 0) return { message: PLAY_TEXTS.beginChoice, move: { kind: "begin" } };
    if (turn === 2) return { message: "Who am I?", move: { kind: "self" } };
    if (turn === 3) return { message: introduction, move: { kind: "name", name } };
    if (turn === 150) return { message: "Remind me who I am.", move: { kind: "self" } };
    const choices = splitStoryChoices(story.at(-1)?.reply ?? "").choices;
    const roll = random();
    if (roll < 0.22 && choices.length > 0) {
      const index = Math.floor(random() * choices.length);
      const typed = pick([`${index + 1}`, `${index + 1}.`, ` ${index + 1} `]);
      return { message: typed, move: { kind: "number", choice: choices[index] ?? "" } };
    }
    if (roll < 0.36 && choices.length > 0) {
      const choice = pick(choices);
      return { message: choice, move: { kind: "choice-text", choice } };
    }
    if (roll < 0.38) return { message: pick(["7", "9", "0"]), move: { kind: "stray-number" } };
    if (roll < 0.46 && people.length > 0) {
      const person = pick(people);
      return {
        message: pick([`Who is ${person}?`, `Tell me about ${person}.`, `Can I trust ${person}?`, `What does ${person} want?`]),
        move: { kind: "question", subject: person, person: true },
      };
    }
    if (roll < 0.52 && places.length > 0) {
      const place = pick(places);
      return { message: pick([`Where is ${place}?`, `What is ${place}?`]), move: { kind: "question", subject: place, person: false } };
    }
    if (roll < 0.58 && terms.length > 0) {
      const term = pick(terms);
      return {
        message: pick([`What do I know about ${term}?`, `Tell me about ${term}.`, `What is ${term}?`]),
        move: { kind: "question", subject: term, person: false },
      };
    }
    if (roll < 0.6) return { message: "Who is Zhang Weiming?", move: { kind: "unknown-question", subject: "Zhang Weiming" } };
    if (roll < 0.62) return { message: pick(["What should I do?", "Why is everyone so tense?"]), move: { kind: "advice" } };
    if (roll < 0.7 && places.length > 0) {
      const place = pick(places);
      return { message: pick([`I go to ${place}.`, `I walk to ${place}.`, `Go to ${place}.`]), move: { kind: "travel", place } };
    }
    if (roll < 0.78 && people.length > 0) {
      const person = pick(people);
      return {
        message: pick([
          `I invite ${person} to walk with me.`,
          `I thank ${person} for their help.`,
          `I confront ${person} about the rumours.`,
          `Summon ${person}.`,
        ]),
        move: { kind: "talk", person },
      };
    }
    if (roll < 0.83) return { message: pick(INVESTIGATIONS), move: { kind: "investigate" } };
    if (roll < 0.88) return { message: pick(SPEECHES), move: { kind: "speech" } };
    if (roll < 0.92) return { message: pick(["I rest until morning.", "I sleep.", "I meditate for a while."]), move: { kind: "rest" } };
    return { message: pick(FREE_ACTIONS), move: { kind: "free" } };
  };
}

/** The world as the storyteller sees it at the default budget: the sections that fit its share of the context. */
export function worldInContext(brief: StoryBrief): World {
  const { system } = buildModelContext({
    brief,
    conversation: { messages: [], hasGap: false },
    message: "",
    budgetTokens: DEFAULT_BUDGET.contextTokens,
  });
  return readWorld(parseSystemPrompt(joinSystemPrompt(system)));
}

/** Plays a scripted player's story; the player asks about what the storyteller can know. */
export async function playScripted(
  brief: StoryBrief,
  turns: number,
  player: { seed: number; introduction: string; name: string },
  { stats = [] }: { stats?: TrackedStat[] } = {},
) {
  const world = worldInContext(brief);
  const next = scriptedPlayer(world, player);
  const moves: Move[] = [];
  const story = await playOffline(
    brief,
    turns,
    (sofar) => {
      const scripted = next(sofar);
      moves.push(scripted.move);
      return scripted.message;
    },
    { stats },
  );
  return { world, story, moves };
}
