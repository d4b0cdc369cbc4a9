import { isPending, latestAction } from "./story-selectors.ts";
import { callReducer } from "./story-calls.ts";
import type { StoryAction, StoryScreenState } from "./story-state.ts";
import { windowReducer } from "./story-window.ts";

/**
 * The play screen's one way to change: every event — the player's, the server's, another tab's —
 * is an action, and this pure function is all that turns one state into the next. No React, no
 * fetch: story-client.ts talks to the server and dispatches; the components read the state
 * (story-state.ts) through StoryProvider. An action that does not apply returns the same state.
 * Calls are story-calls.ts's, the window on screen story-window.ts's; the rest is the screen's own.
 */
export function storyReducer(state: StoryScreenState, action: StoryAction): StoryScreenState {
  switch (action.type) {
    case "submitted":
    case "controlled":
    case "changeRequested":
    case "announced":
    case "token":
    case "replyEnded":
    case "callFailed":
    case "refused":
    case "settled":
    case "replyAttached":
    case "attachedToken":
    case "replyDetached":
      return callReducer(state, action);
    case "storyLoaded":
    case "storyChanged":
    case "pageRequested":
    case "pageLoaded":
    case "pageFailed":
    case "jumpRequested":
    case "jumped":
    case "latestRequested":
      return windowReducer(state, action);
    case "draftChanged":
      return { ...state, draft: action.text };
    case "actionModeChosen":
      return { ...state, actionMode: action.mode };
    case "checkChosen":
      return { ...state, check: action.check };
    case "editStarted": {
      const sent = latestAction(state);
      if (!sent || isPending(state)) return state;
      return { ...state, draft: sent.content, editing: true, composerFocus: state.composerFocus + 1 };
    }
    case "editCancelled":
      return { ...state, editing: false, draft: "" };
    case "findToggled":
      return { ...state, finding: !state.finding };
    case "findClosed":
      return { ...state, finding: false };
    case "memorySaved":
      return { ...state, memory: action.memory };
    case "saveStarted":
      return { ...state, saving: true };
    case "saveFinished":
      return { ...state, saving: false };
    case "restartStarted":
      return { ...state, restarting: true };
    case "restartFailed":
      return { ...state, restarting: false };
    case "cleared":
      return { ...state, restarting: false, messages: [], exchanges: 0, storyState: null, draft: "", editing: false, highlighted: null };
    case "newStoryRequested":
      return { ...state, beginningNewStory: true };
    case "newStoryFailed":
      return { ...state, beginningNewStory: false };
  }
}
