import type { StoryView } from "#app/lib/story-view.ts";
import { loadedRange } from "./story-selectors.ts";
import { fromView, type StoryAction, type StoryScreenState } from "./story-state.ts";

/**
 * The transitions of the story as stored and of the window on screen: the stored story shown
 * (after every call, and when another tab or device changed it), older and newer pages loaded as
 * the reader scrolls, a jump to a match of Find in story, and back to the newest turns.
 */

export type WindowAction = Extract<
  StoryAction,
  { type: "storyLoaded" | "storyChanged" | "pageRequested" | "pageLoaded" | "pageFailed" | "jumpRequested" | "jumped" | "latestRequested" }
>;

/** The most exchanges on screen at once: reading further back (or forward) lets the far end go, so the page stays light. */
export const MAX_WINDOW_EXCHANGES = 120;

export function windowReducer(state: StoryScreenState, action: WindowAction): StoryScreenState {
  switch (action.type) {
    case "storyLoaded":
      return storyLoaded(state, action.view);
    case "storyChanged":
      // This tab's own call shows the stored story when it ends.
      if (state.call) return state;
      // A screen whose story has not begun follows the one begun in its game elsewhere, and sends
      // its turns there (the next exchange, at its price), not into a story it never showed.
      if (state.storyId === null) return { ...state, storyId: action.storyId, behind: action.revision };
      if (action.storyId !== state.storyId) return state;
      if (action.revision <= Math.max(state.revision, state.behind ?? 0)) return state;
      return { ...state, behind: action.revision };
    case "pageRequested": {
      if (state.loadingPage) return state;
      const nothingThere = action.direction === "older" ? loadedRange(state).first <= 1 : state.atLatest;
      return nothingThere ? state : { ...state, loadingPage: action.direction };
    }
    case "pageLoaded":
      return pageLoaded(state, action);
    case "pageFailed":
      return { ...state, loadingPage: null };
    case "jumpRequested":
      return { ...state, windowGeneration: state.windowGeneration + 1 };
    case "jumped": {
      if (action.generation !== state.windowGeneration) return state;
      const messages = action.messages.map(fromView);
      return {
        ...state,
        exchanges: action.exchanges,
        messages,
        atLatest: (messages.at(-1)?.exchange ?? 0) >= action.exchanges,
        highlighted: `${action.match.exchange}-${action.match.role}`,
      };
    }
    case "latestRequested": {
      const following = { ...state, highlighted: null, follows: state.follows + 1 };
      if (state.atLatest) return following;
      // The newest window replaces the old one when the stored story comes.
      return { ...following, atLatest: true, messages: [], windowGeneration: state.windowGeneration + 1 };
    }
  }
}

/**
 * Shows the stored story's newest window after the older pages already loaded; notes that were
 * only on this screen stay after it. A reader far back in the story keeps their place.
 */
function storyLoaded(state: StoryScreenState, view: StoryView): StoryScreenState {
  // An answer older than the story on screen, unless this tab's call needs its own story back.
  if (view.revision < state.revision && !state.call) return state;
  const updated: StoryScreenState = {
    ...state,
    storyId: view.id,
    revision: view.revision,
    exchanges: view.exchanges,
    busyElsewhere: view.busy,
    memory: view.memory,
    storyState: view.state,
    behind: state.behind !== null && state.behind > view.revision ? state.behind : null,
  };
  if (!state.atLatest) return updated;
  const newest = view.messages[0]?.exchange ?? view.exchanges + 1;
  return {
    ...updated,
    messages: [
      ...state.messages.filter((message) => !message.local && message.exchange !== undefined && message.exchange < newest),
      ...view.messages.map(fromView),
      ...state.messages.filter((message) => message.local),
    ],
  };
}

function pageLoaded(state: StoryScreenState, action: Extract<StoryAction, { type: "pageLoaded" }>): StoryScreenState {
  const done = { ...state, loadingPage: null };
  // A page asked for before the window was replaced (a jump, back to the latest) belongs to no window now.
  if (action.generation !== state.windowGeneration || state.loadingPage !== action.direction) return done;
  const page = action.messages.map(fromView);
  const { first, last } = loadedRange(state);
  if (action.direction === "older") {
    const keepThrough = (page[0]?.exchange ?? first) + MAX_WINDOW_EXCHANGES - 1;
    return {
      ...done,
      exchanges: action.exchanges,
      atLatest: state.atLatest && last <= keepThrough,
      messages: [
        ...page.filter((message) => (message.exchange ?? 0) < first),
        ...state.messages.filter((message) => message.exchange === undefined || message.exchange <= keepThrough),
      ],
    };
  }
  const reached = page.at(-1)?.exchange ?? last;
  const keepFrom = reached - MAX_WINDOW_EXCHANGES + 1;
  return {
    ...done,
    exchanges: action.exchanges,
    atLatest: page.length === 0 || reached >= action.exchanges,
    messages: [
      ...state.messages.filter((message) => (message.exchange ?? 0) >= keepFrom),
      ...page.filter((message) => (message.exchange ?? 0) > last),
    ],
  };
}
