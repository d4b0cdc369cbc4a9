import type { StoryMessageView, StoryStateView, StoryView, TurnAnnouncement } from "#app/lib/story-view.ts";
import type { TrackedStat } from "#app/lib/tracked-stats.ts";
import { storyReducer } from "./story-reducer.ts";
import { initialStoryState, type StoryAction, type StoryScreenState } from "./story-state.ts";

/** Stories, announcements and a turn in flight, as the play screen's tests build them. */

export const STORY_ID = "7f1c1a52-8a6e-4a53-9d3a-0d1f4a1c2b3e";
export const AT = "2026-03-01T10:00:00.000Z";
export const GRACE: TrackedStat = { name: "Grace", kind: "number", min: 0, max: 100, start: 75 };

/** Exchange `position`: the player's "Move N." and the reply. */
export function exchange(position: number, reply = `Reply ${position}.`, extra: Partial<StoryMessageView> = {}): StoryMessageView[] {
  const shared = { exchange: position, status: "complete" as const, version: 1, versions: 1, createdAt: AT };
  return [
    { ...shared, id: position * 2 - 1, role: "user", content: `Move ${position}.` },
    { ...shared, id: position * 2, role: "assistant", content: reply, ...extra },
  ];
}

export function exchangesFrom(first: number, last: number) {
  return Array.from({ length: last - first + 1 }, (_, index) => exchange(first + index)).flat();
}

export function stateAt(grace: number): StoryStateView {
  return { stats: [GRACE], values: { Grace: grace }, previous: { Grace: 75 } };
}

/** A story of `exchanges` exchanges as the server shows it: its newest twelve. */
export function storyView(exchanges: number, overrides: Partial<StoryView> = {}): StoryView {
  return {
    id: STORY_ID,
    revision: exchanges,
    exchanges,
    busy: false,
    messages: exchangesFrom(Math.max(1, exchanges - 11), exchanges),
    memory: { pinnedFacts: "", authorNote: "", summary: "" },
    state: null,
    ...overrides,
  };
}

export function announcement(overrides: Partial<TurnAnnouncement> = {}): TurnAnnouncement {
  return {
    storyId: STORY_ID,
    kind: "send",
    exchange: 1,
    messageId: 1,
    replyId: 2,
    version: 1,
    versions: 1,
    replySoFar: "",
    charged: 0,
    ...overrides,
  };
}

export function reduce(state: StoryScreenState, ...actions: StoryAction[]) {
  return actions.reduce(storyReducer, state);
}

/** A story of `exchanges` exchanges with a turn just sent from the composer. */
export function sending(exchanges: number, text = "I open the letter.") {
  const state = reduce(initialStoryState(exchanges ? storyView(exchanges) : null), { type: "draftChanged", text });
  const sent = reduce(state, { type: "submitted", at: AT });
  if (!sent.call) throw new Error("the turn did not start");
  return { before: state, sent, callId: sent.call.id };
}

export const contents = (state: StoryScreenState) => state.messages.map((message) => message.content);
