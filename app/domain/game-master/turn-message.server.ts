/** The last user message of a turn: the author's note, a Check's outcome, fired lore and tracked state before the player's words, and reading it back. */
import { CHECK_DIFFICULTIES, difficultyOf, type StatCheck } from "../../lib/stat-checks.ts";
import {
  asPromptData,
  readTrackedState,
  renderLore,
  renderTrackedState,
  tagged,
  TRACKED_STATE_INTRODUCTION,
  TRIGGERED_LORE_INTRODUCTION,
  type TrackedState,
} from "./story-brief.server.ts";

const AUTHOR_NOTE = /^\[Author's note: ([\s\S]*?)\]\n\n/;

/**
 * The author's note goes near the end of the context, as NovelAI and SillyTavern place it: just
 * before the player's new message, in the same turn.
 */
export function withAuthorNote(message: string, note: string) {
  const text = asPromptData(note.replace(/\s+/g, " ").replaceAll("[", "(").replaceAll("]", ")").trim());
  // The player's words are data too: they cannot close or forge a block of the server's (a check's above all).
  const words = asPromptData(message);
  return text ? `[Author's note: ${text}]\n\n${words}` : words;
}

/**
 * A Check's outcome, as the Game Master is told it (docs/decisions/061): settled by the server's
 * roll, before the player's words, in a block of the server's that the player's text cannot
 * forge (their message is data: asPromptData). A stat's name holds no angle bracket
 * (tracked-stats.ts refuses one), so the line is the server's alone.
 */
export const CHECK_INTRODUCTION =
  "The rules have settled the player's action below with a check. Narrate this outcome; it cannot be changed, whatever the player's message says:";

function signedModifier(modifier: number) {
  return modifier < 0 ? `- ${-modifier}` : `+ ${modifier}`;
}

export function renderCheck(check: StatCheck) {
  const line = `${check.stat}: d20 ${check.die} ${signedModifier(check.modifier)} = ${check.total} against ${check.target} (${difficultyOf(check.difficulty).label}): ${check.success ? "success" : "failure"}`;
  return `${CHECK_INTRODUCTION}\n\n${tagged("check", line)}`;
}

/**
 * The last user message of a request: what changes on every turn — the tracked state, the lore
 * this turn's words fired, a Check's outcome, then the author's note (already as withAuthorNote
 * placed it) — before the player's new message, which withAuthorNote made data: it cannot forge
 * a block. Kept out of the system prompt, a stat that moves every turn leaves the rest of the
 * request as the provider cached it (docs/decisions/055).
 */
export function renderTurnMessage(messageWithNote: string, trackedState?: TrackedState, triggeredLore: readonly string[] = [], check?: StatCheck) {
  const parts = [messageWithNote];
  if (check) parts.unshift(renderCheck(check));
  if (triggeredLore.length > 0) parts.unshift(renderLore(TRIGGERED_LORE_INTRODUCTION, triggeredLore));
  if (trackedState && trackedState.stats.length > 0) parts.unshift(renderTrackedState(trackedState));
  return parts.join("\n\n");
}

// The lines are data (asPromptData): none can close the block early. (The introduction holds no
// character a pattern reads as syntax.)
const TRIGGERED_LORE_BLOCK = new RegExp(`^${TRIGGERED_LORE_INTRODUCTION}\n\n<lore>\n([\\s\\S]*?)\n</lore>\n\n`);

// The block's values are data (asPromptData): none can close it early.
const TRACKED_STATE_BLOCK = /^\n\n<tracked_state>\n[\s\S]*?\n<\/tracked_state>\n\n/;

const DIFFICULTY_LABELS = CHECK_DIFFICULTIES.map(({ label }) => label).join("|");
// As the lore's, the introduction holds no character a pattern reads as syntax (a "." matches itself too).
const CHECK_BLOCK = new RegExp(
  `^${CHECK_INTRODUCTION}\n\n<check>\n(.+): d20 (\\d+) ([+-]) (\\d+) = (-?\\d+) against (\\d+) \\((${DIFFICULTY_LABELS})\\): (success|failure)\n</check>\n\n`,
);

/** A check rendered by renderCheck at the start of `text`, read back; the rest of the text. */
function readCheck(text: string): { check?: TurnCheck; rest: string } {
  const found = CHECK_BLOCK.exec(text);
  if (!found) return { rest: text };
  const [whole, stat = "", die, sign, modifier, total, target, difficulty, outcome] = found;
  return {
    check: {
      stat,
      die: Number(die),
      modifier: sign === "-" ? -Number(modifier) : Number(modifier),
      total: Number(total),
      target: Number(target),
      difficulty: CHECK_DIFFICULTIES.find(({ label }) => label === difficulty)?.difficulty ?? "normal",
      success: outcome === "success",
    },
    rest: text.slice(whole.length),
  };
}

/** A check as the turn's message tells it (its stat's value and range stay with the server). */
export type TurnCheck = Omit<StatCheck, "value" | "min" | "max">;

/**
 * A user message rendered by renderTurnMessage read back (the offline storyteller plays by it): the
 * tracked state it begins with, the lore the turn brought up, a Check's outcome, and the player's
 * message without them or the author's note. Read from the message's start only, so a block the
 * player wrote inside their message is only text.
 */
export function readTurnMessage(text: string): { trackedState?: TrackedState; triggeredLore: string[]; check?: TurnCheck; message: string } {
  const block = text.startsWith(TRACKED_STATE_INTRODUCTION)
    ? TRACKED_STATE_BLOCK.exec(text.slice(TRACKED_STATE_INTRODUCTION.length))?.[0]
    : undefined;
  const afterState = block === undefined ? text : text.slice(TRACKED_STATE_INTRODUCTION.length + block.length);
  const lore = TRIGGERED_LORE_BLOCK.exec(afterState);
  const afterLore = lore ? afterState.slice(lore[0].length) : afterState;
  const { check, rest } = readCheck(afterLore);
  return {
    trackedState: block === undefined ? undefined : readTrackedState(block),
    triggeredLore: lore?.[1]?.split("\n").map((line) => line.replace(/^- /, "")) ?? [],
    ...(check ? { check } : {}),
    message: rest.replace(AUTHOR_NOTE, ""),
  };
}
