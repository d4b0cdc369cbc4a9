import { splitStoryChoices } from "../../../lib/story-choices.ts";
import type { TrackedState } from "../story-brief.server.ts";
import { type PlayerAction, readAction } from "./action.server.ts";
import { choicesFor } from "./choices.server.ts";
import { ADDRESS_LINES, readContinuity, sceneLine } from "./continuity.server.ts";
import { bestMention } from "./mentions.server.ts";
import { introductionToCarry, rememberedAnswer, type StoryMemory } from "./memory.server.ts";
import {
  actParagraphs,
  adviceParagraph,
  aftermathParagraph,
  answerParagraph,
  arrivalParagraph,
  discoveryParagraph,
  loreParagraphOf,
  memoryParagraph,
  nameParagraph,
  narrationParagraph,
  pickChallenge,
  pressureParagraph,
  reactionParagraph,
  recallParagraph,
  restParagraph,
  selfParagraph,
  talkParagraph,
  TROUBLE_EVERY_TURNS,
  troubleOfTheTurn,
} from "./paragraphs.server.ts";
import { CARRY_LEADS, NAME_INVITATION, OPENING_HOOKS } from "./phrases.server.ts";
import { offlineState, stateBlock } from "./state.server.ts";
import { currentStatus, moveStats, renderStatus, showState } from "./stats.server.ts";
import { type Address, called, confidant, fill, nth, pick, Teller } from "./teller.server.ts";
import { declaredName } from "./telling.server.ts";
import { repeatsAClause, sentenceKey, splitSentences, withoutToldSentences } from "./text.server.ts";
import { type Entity, type World } from "./world.server.ts";

/**
 * The offline storyteller's narration: deterministic (the same story and action always give the
 * same reply), built from the game's own world, answering what the player just did or asked,
 * calling the player by their role or the name they gave, never the same paragraph twice in 50
 * turns, and ending with numbered choices.
 *
 * Every paragraph is a sentence of the world (what the content says about a person, a place, a
 * trouble) framed by two phrases (phrases.server.ts): the pair is picked by the story's
 * turn, so the same framing of the same sentence comes back only after 56 turns. The turn is read
 * from the scene line of the latest reply (continuity.server.ts), which is why this holds
 * even when older turns have left the model's context.
 */
export interface TurnInput {
  world: World;
  /** The player's new message. */
  action: string;
  /** The Game Master's earlier replies in this story, oldest first (as far as the context holds them). */
  previousReplies: string[];
  /** The player's earlier messages, oldest first, each before the reply of the same index. */
  previousActions?: string[];
  /** Another answer to the same turn (a retried reply): 0 or absent for the first. */
  variant?: number;
  /** More of the latest reply (Continue): prose only, without the scene line, the status, the prompt or the choices. */
  extending?: boolean;
  /** The game's tracked stats, when it has any: the reply ends with their state block. */
  trackedState?: TrackedState;
  /** Pinned facts and the story so far, as the prompt gives them. */
  memory?: StoryMemory;
  /** The lore entries the turn's words fired ("Title: content"): the reply tells what they say. */
  lore?: readonly string[];
}

// ---------------------------------------------------------------------------------------------
// The reply

/** A choice the last this many replies offered is not offered again: the same options read as a stuck story. */
const RECENT_CHOICE_REPLIES = 5;

function playerAddress(world: World, name: string | undefined): Address {
  const { honorific, vocative } = world.player;
  return { spoken: honorific ?? name ?? "", narrator: name ?? vocative ?? "" };
}

function openingParagraphs(teller: Teller, action: PlayerAction): string[] {
  const { world } = teller;
  const paragraphs: string[] = [];
  if (world.opening) paragraphs.push(world.opening);
  else if (action.kind === "ready")
    paragraphs.push("Your story begins here. The world is quiet, for now, and waiting to see what you will make of it.");
  if (world.openingBeats.length > 1) {
    const beats = world.openingBeats.map((beat, index, all) => {
      if (index !== all.length - 1) return beat;
      // "And the boy tugs the curtain…"; a name keeps its capital ("And Mistress Perrine slips you a note…").
      const common = /^(The|A|An|Someone|Somebody|Everyone|Nobody|One|Two|Three|Four)\b/.test(beat);
      return `And ${common ? beat.charAt(0).toLowerCase() + beat.slice(1) : beat}`;
    });
    paragraphs.push(beats.join(" "));
  }
  if (action.kind === "ready" || action.kind === "name") {
    // With the opening's own events told, the player's confidant steps in; otherwise the first of the cast.
    const person = confidant(world);
    const hook = person ? fill(pick(teller.random, OPENING_HOOKS), { who: called(person) }) : "";
    const invitation = world.player.nameInvitation && action.kind !== "name" ? `${world.player.nameInvitation} ${NAME_INVITATION}` : "";
    const both = [hook, invitation].filter(Boolean).join(" ");
    if (both) paragraphs.push(both);
  }
  return paragraphs;
}

function bodyParagraphs(
  teller: Teller,
  action: PlayerAction,
  remembered: string | undefined,
): { paragraphs: string[]; focus: Entity | undefined } {
  const { world, story } = teller;
  const paragraphs: string[] = [];
  if (action.name) paragraphs.push(nameParagraph(teller, action.name));
  if (remembered !== undefined) {
    const speaker = action.person ?? confidant(world);
    paragraphs.push(memoryParagraph(teller, action, remembered, speaker));
    return { paragraphs, focus: speaker };
  }
  const subjectEntity = action.subject !== undefined ? bestMention(world, action.subject) : undefined;
  const helper = confidant(world);
  switch (action.kind) {
    case "ready":
    case "name":
      return { paragraphs, focus: helper };
    case "self": {
      const paragraph = selfParagraph(teller, helper, action.name ?? teller.story.playerName);
      paragraphs.push(paragraph ?? actParagraphs(teller, action)[0] ?? "");
      return { paragraphs, focus: helper };
    }
    case "question": {
      const speaker = action.person ?? confidant(world, subjectEntity);
      paragraphs.push(answerParagraph(teller, action, subjectEntity, speaker));
      return { paragraphs, focus: speaker };
    }
    case "recall":
      paragraphs.push(recallParagraph(teller, action, subjectEntity));
      return { paragraphs, focus: subjectEntity && world.people.includes(subjectEntity) ? subjectEntity : undefined };
    case "advice": {
      const speaker = action.person ?? helper;
      paragraphs.push(adviceParagraph(teller, action, speaker));
      return { paragraphs, focus: speaker };
    }
    case "travel": {
      const place = action.place ?? story.place;
      if (place) paragraphs.push(arrivalParagraph(teller, action, place));
      else paragraphs.push(...actParagraphs(teller, action));
      return { paragraphs, focus: undefined };
    }
    case "talk": {
      const person = action.person ?? helper;
      if (person) paragraphs.push(talkParagraph(teller, action, person));
      else paragraphs.push(...actParagraphs(teller, action));
      return { paragraphs, focus: person };
    }
    case "investigate":
      paragraphs.push(discoveryParagraph(teller, action));
      return { paragraphs, focus: action.person };
    case "rest":
      paragraphs.push(restParagraph(teller, action));
      return { paragraphs, focus: undefined };
    case "wait":
    case "hesitate":
      paragraphs.push(reactionParagraph(teller, action, "wait"));
      return { paragraphs, focus: undefined };
    case "speech":
      paragraphs.push(reactionParagraph(teller, action, "speech"));
      return { paragraphs, focus: action.person };
    case "narration":
      paragraphs.push(narrationParagraph(teller, action));
      return { paragraphs, focus: action.person };
    case "challenge":
    case "act":
      paragraphs.push(...actParagraphs(teller, action));
      return { paragraphs, focus: action.person };
  }
}

/** Every sentence of the replies the storyteller can see, as sentenceKey reads it. */
function toldSentences(previousReplies: readonly string[]) {
  return new Set(previousReplies.flatMap((reply) => splitSentences(splitStoryChoices(reply).body).map(sentenceKey)));
}

export function narrateTurn({
  world,
  action: message,
  previousReplies,
  previousActions = [],
  variant = 0,
  extending = false,
  trackedState,
  memory,
  lore = [],
}: TurnInput): string {
  const story = readContinuity({ world, previousActions, previousReplies, declaredName: (text) => declaredName(text, world) });
  // Continue extends the latest reply: the same turn, the same scene.
  if (extending) story.turn = Math.max(0, story.turn - 1);
  const firstTurn = story.turn === 0 && !extending;
  const action = readAction(world, message, { lastChoices: extending ? [] : story.lastChoices, firstTurn });
  const playerName = action.name ?? story.playerName;
  const address = playerAddress(world, playerName);
  const seed = `${world.title}\n${story.turn}\n${message}\n${(previousReplies.at(-1) ?? "").slice(-400)}\n${variant}\n${extending ? "more" : ""}`;
  const teller = new Teller(world, story, address, variant, seed);

  if (extending) {
    // More of the same moment: what else happened, seen from elsewhere, and what still presses.
    const more = [aftermathParagraph(teller, `more\n${message}\n${previousReplies.at(-1)?.length ?? 0}`)];
    const challenge = pickChallenge(teller);
    if (challenge) more.push(pressureParagraph(teller, challenge));
    const reply = previousReplies.at(-1) ?? "";
    const told = toldSentences(previousReplies);
    const paragraphs = more
      .filter((paragraph): paragraph is string => paragraph !== undefined && !repeatsAClause(paragraph, reply))
      .map((paragraph) => withoutToldSentences(paragraph, told, () => false))
      .filter(Boolean);
    if (paragraphs.length === 0) paragraphs.push(actParagraphs(teller, { ...action, told: undefined })[0] ?? "");
    if (trackedState) paragraphs.push(stateBlock(offlineState({ trackedState, action, status: undefined, quiet: true, random: teller.random })));
    return paragraphs.join("\n\n");
  }

  const place = action.kind === "travel" && action.place ? action.place : story.place;
  teller.story.place = place;
  const paragraphs: string[] = [];
  if (!firstTurn) paragraphs.push(sceneLine(world, story.turn, place));
  if (firstTurn) paragraphs.push(...openingParagraphs(teller, action));
  const asksAboutThemselves = ["question", "recall", "advice"].includes(action.kind) && /\b(?:I|my|me|mine)\b/i.test(action.text);
  const remembered = asksAboutThemselves && memory ? rememberedAnswer(action.text, memory, previousActions, previousReplies) : undefined;
  const body = bodyParagraphs(teller, action, remembered);
  if (firstTurn && action.kind !== "ready" && action.kind !== "name" && body.paragraphs[0]) {
    body.paragraphs[0] = `You begin as you mean to go on. ${body.paragraphs[0]}`;
  }
  // Lore the player's words brought up is true in this story, and the reply says so: part of the answer.
  const loreParagraph = firstTurn ? undefined : loreParagraphOf(teller, lore, body.focus);
  if (loreParagraph && !repeatsAClause(loreParagraph, body.paragraphs.join("\n"))) body.paragraphs.push(loreParagraph);
  paragraphs.push(...body.paragraphs);

  // Now and then the wider world intrudes: a trouble that will not wait, or what others make of it.
  const quiet = ["question", "recall", "self", "ready", "name"].includes(action.kind);
  // Troubles come up on a schedule of their own (troubleOfTheTurn), so one said in a turn that has
  // left the context is not said again until every other has had its turn.
  const roll = teller.random();
  const troubleTurn = story.turn % TROUBLE_EVERY_TURNS === 0;
  if (!firstTurn && !quiet && !troubleTurn && roll < 0.4) {
    const aftermath = aftermathParagraph(teller, action.text);
    if (aftermath && !repeatsAClause(aftermath, paragraphs.join("\n"))) paragraphs.push(aftermath);
  } else if (firstTurn || (!quiet && troubleTurn)) {
    const challenge = firstTurn ? pickChallenge(teller) : undefined;
    const pressure = firstTurn
      ? challenge && pressureParagraph(teller, challenge)
      : troubleOfTheTurn(teller, Math.floor(story.turn / TROUBLE_EVERY_TURNS), action.challenge);
    if (pressure && !repeatsAClause(pressure, paragraphs.join("\n"))) paragraphs.push(pressure);
  }

  // What the story has told already is not told again: a formula or a fact said in a visible reply is left out.
  const told = toldSentences(previousReplies);
  const focusName = body.focus ? called(body.focus) : undefined;
  const answering = ["question", "recall", "self", "advice"].includes(action.kind);
  const carriesTheTurn = (sentence: string) =>
    (focusName !== undefined && sentence.includes(focusName)) || (action.told?.includes(sentence) ?? false);
  // The body answers what the player asked even if it was said before; what else happens is left out whole once any of it is stale.
  const storyStart = firstTurn ? paragraphs.length : 1;
  const bodyEnd = answering ? storyStart + body.paragraphs.length : storyStart;
  const fresh = paragraphs.slice(storyStart).flatMap((paragraph, index) => {
    if (storyStart + index < bodyEnd) return [paragraph];
    const left = withoutToldSentences(paragraph, told, carriesTheTurn);
    const isBody = index < body.paragraphs.length;
    return left && (isBody || left === paragraph) ? [left] : [];
  });
  paragraphs.splice(storyStart, paragraphs.length - storyStart, ...(fresh.length > 0 ? fresh : paragraphs.slice(storyStart, storyStart + 1)));

  // Someone the player brought into the story stays in it: their words come back before they leave the context.
  const carried = memory && !firstTurn ? introductionToCarry(memory, previousActions, previousReplies) : undefined;
  // Carries come every four turns or so: the lead is counted so that consecutive ones differ.
  if (carried && !repeatsAClause(carried, paragraphs.join("\n"))) {
    const line = `${carried.charAt(0).toLowerCase()}${carried.slice(1)}`;
    const first = story.turn + Math.floor(story.turn / 4);
    // A lead naming the place is passed over when the reply already says it the same way.
    const told = CARRY_LEADS.map((_, index) => `${fill(nth(CARRY_LEADS, first + index) ?? "", teller.values({}))} ${line}`).find(
      (candidate) => !repeatsAClause(candidate, paragraphs.join("\n")),
    );
    if (told) paragraphs.push(told);
  }

  // One source for the status line and the State panel: the tracked state, moved once.
  const status = currentStatus(world, previousReplies, story.turn);
  const before = trackedState?.values ?? {};
  const stats = trackedState?.stats ?? [];
  const shown = status && showState({ status, changes: status.stats.map(() => 0) }, stats, before, before);
  const moved = shown && (firstTurn || quiet ? shown : moveStats(shown.status, action, teller.random));
  const after =
    trackedState &&
    offlineState({
      trackedState,
      action,
      status: moved && { line: moved.status, changes: moved.changes },
      quiet: firstTurn || quiet,
      random: teller.random,
    });
  const final = moved && showState(moved, stats, before, after ?? before);
  if (final) paragraphs.push(renderStatus(final.status, final.changes));

  const addressLine = fill(nth(ADDRESS_LINES, story.turn + variant) ?? "", { address: address.narrator });
  paragraphs.push(addressLine);
  const focus = body.focus ?? action.person;
  paragraphs.push(
    choicesFor(
      teller,
      focus && world.people.includes(focus) ? focus : undefined,
      previousReplies.slice(-RECENT_CHOICE_REPLIES).flatMap((reply) => splitStoryChoices(reply).choices),
    )
      .map((choice, index) => `${index + 1}. ${choice}`)
      .join("\n"),
  );
  if (after) paragraphs.push(stateBlock(after));
  return paragraphs.join("\n\n");
}
