import type { TurnKind } from "#app/lib/constants.ts";
import { actionInMode } from "#app/lib/action-modes.ts";
import { chosenAction, splitStoryChoices } from "#app/lib/story-choices.ts";
import type { StoryStateView } from "#app/lib/story-view.ts";
import { startingState, type TrackedStat } from "#app/lib/tracked-stats.ts";
import { turnCost } from "#app/lib/turn-cost.ts";
import type { ChatMessage, ReplyStream, StoryScreenState } from "./story-state.ts";

/** What the screen derives from its state: pure, so the reducer and the components agree. */

/** A call of this tab is running, or a reply is being written elsewhere: the story waits. */
export function isPending(state: StoryScreenState) {
  return state.call !== null || state.busyElsewhere;
}

/** The reply being written right now, here or in another tab. */
export function replyBeingWritten(state: StoryScreenState): ReplyStream | null {
  if (state.call) return state.call.ended ? null : state.call.reply;
  return state.attached;
}

/** The message being written right now, here or in another tab. */
export function streamingKey(state: StoryScreenState): string | null {
  return replyBeingWritten(state)?.key ?? null;
}

/** The story as stored, without this screen's notes (what Save Chat saves). */
export function storyMessages(state: StoryScreenState) {
  return state.messages.filter((message) => !message.local);
}

export function latestReply(state: StoryScreenState): ChatMessage | undefined {
  return state.messages.findLast((message) => !message.local && message.role === "assistant" && message.exchange === state.exchanges);
}

/** The player's message of the latest exchange. */
export function latestAction(state: StoryScreenState): ChatMessage | undefined {
  return state.messages.findLast((message) => !message.local && message.role === "user" && message.exchange === state.exchanges);
}

/** The numbered choices the latest reply ends with, offered while nothing is being written. */
export function latestChoices(state: StoryScreenState): string[] {
  const reply = latestReply(state);
  return reply && !isPending(state) ? splitStoryChoices(reply.content).choices : [];
}

/**
 * What the composer's text is sent as: a suggested choice's text when it names one (its number,
 * its words); otherwise rewritten by the Do / Say / Story mode. An Edit sends what the box holds,
 * which is the message as it was sent, already in its mode.
 */
export function composedMessage(state: StoryScreenState): string {
  const choices = latestChoices(state);
  const chosen = chosenAction(state.draft, choices);
  return state.editing || choices.includes(chosen) ? chosen : actionInMode(chosen, state.actionMode);
}

/** The first and last exchanges on screen (first past the end, last 0, when none are). */
export function loadedRange(state: StoryScreenState) {
  return {
    first: state.messages.find((message) => message.exchange !== undefined)?.exchange ?? state.exchanges + 1,
    last: state.messages.findLast((message) => message.exchange !== undefined)?.exchange ?? 0,
  };
}

export function hasOlder(state: StoryScreenState) {
  return loadedRange(state).first > 1;
}

/** What a call of this kind would cost now: a turn lands on the next exchange, the controls on the latest. */
export function priceOf(state: StoryScreenState, kind: TurnKind): number {
  const exchange = kind === "send" ? state.exchanges + 1 : state.exchanges;
  return turnCost({ kind, exchange, freeOpeningAvailable: state.freeOpeningAvailable });
}

/** A new turn costs more than the player has: the composer is closed. */
export function outOfCredits(state: StoryScreenState, credits: number) {
  return credits < priceOf(state, "send");
}

/**
 * The State panel's contents: the stored story's state, or, before the story has one (a new
 * story, after Start Over), the game's starting values. Null in a game that tracks nothing.
 */
export function shownStoryState(state: StoryScreenState, stats: TrackedStat[]): StoryStateView | null {
  if (state.storyState) return state.storyState;
  if (stats.length === 0) return null;
  const start = startingState(stats);
  return { stats, values: start, previous: start };
}

/** The controls under a message: only the latest exchange has any, and none while the story waits. */
export type MessageControls =
  | { kind: "edit" }
  /** A reply lost with its server: send the message again, or take it back. */
  | { kind: "lost"; message: string | null }
  | { kind: "reply"; version: number; versions: number };

export function controlsFor(state: StoryScreenState, message: ChatMessage): MessageControls | null {
  if (isPending(state) || message.local || message.exchange !== state.exchanges || !state.storyId) return null;
  if (message === latestAction(state)) return { kind: "edit" };
  if (message !== latestReply(state)) return null;
  if (message.status === "interrupted") return { kind: "lost", message: latestAction(state)?.content ?? null };
  return { kind: "reply", version: message.version, versions: message.versions };
}
