import { storyReducer } from "./story-reducer.ts";
import { initialStoryState, type StoryAction, type StoryScreenState } from "./story-state.ts";
import type { StoryView } from "#app/lib/story-view.ts";

/**
 * The screen's state in one place outside React, so story-client.ts can read what its last action
 * did (the call it started, the window it asked for) and React reads it with useSyncExternalStore.
 */
export interface StoryStore {
  getState: () => StoryScreenState;
  /** Applies the action; false when the reducer ignored it (the state is the same object). */
  dispatch: (action: StoryAction) => boolean;
  subscribe: (listener: () => void) => () => void;
}

export function createStoryStore(story: StoryView | null): StoryStore {
  let state = initialStoryState(story);
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    dispatch: (action) => {
      const next = storyReducer(state, action);
      if (next === state) return false;
      state = next;
      for (const listener of listeners) listener();
      return true;
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
