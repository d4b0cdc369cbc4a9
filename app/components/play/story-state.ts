import type { ActionMode } from "#app/lib/action-modes.ts";
import type { MessageRole } from "#app/lib/constants.ts";
import type { ErrorCode } from "#app/lib/error-codes.ts";
import type { CheckRequest } from "#app/lib/stat-checks.ts";
import type { StoryMemoryView, StoryMessageView, StoryStateView, StoryView, TurnAnnouncement } from "#app/lib/story-view.ts";

/**
 * The play screen as data (story-reducer.ts changes it): the window of the story on screen, this
 * tab's call in flight with its optimistic messages, a reply followed from elsewhere, and the
 * composer. Plain, serialisable values only.
 */

/** A message on screen: a stored one (its view), or one that is only on this screen until the server has it. */
export interface ChatMessage extends Omit<StoryMessageView, "id" | "exchange"> {
  /** React's key: the stored id, or a local one until the server gives it. */
  key: string;
  /** The stored message's id; absent for what is only on this screen. */
  id?: number;
  exchange?: number;
  /** Shown but not part of the story (error notes, a message whose turn failed): never saved. */
  local?: boolean;
}

/** A Game Master call of this tab: a paid one (a turn or a story control), or a free change. */
export type CallKind = "send" | "edit" | "retry" | "continue" | "undo" | "version";

/** A reply being written, followed here: its message, its text before this call, what arrived. */
export interface ReplyStream {
  key: string;
  before: string;
  text: string;
}

export interface StoryCall {
  id: number;
  kind: CallKind;
  /** The exchange it lands on: the next one for a turn, the latest for the others. */
  exchange: number;
  /** The player's message it sends (a turn, an edit). */
  message: string | null;
  /** Its answer has ended (or never came): tokens are no longer taken. */
  ended: boolean;
  reply: ReplyStream | null;
  /** The player's message shown before the server has it (a turn). */
  userKey: string | null;
  /** The latest exchange's messages as they were, so a refusal can put them back (the controls). */
  replaced: ChatMessage[];
  /** Sent from the composer: its text and mode, given back when the server refuses. */
  composed: {
    text: string;
    editing: boolean;
    /** Sent as a Check (a new turn only): the server rolls for it (docs/decisions/061). */
    check?: CheckRequest | null;
    /** A suggested choice picked, not the composer's text: the composer does not take the focus after it (a phone's keyboard stays shut). */
    picked?: boolean;
  } | null;
}

export type PageDirection = "older" | "newer";

export interface StoryScreenState {
  storyId: string | null;
  revision: number;
  /** How many exchanges the story has: the newest one's position. */
  exchanges: number;
  /** The window of the story on screen, oldest first, with this screen's notes after it. */
  messages: ChatMessage[];
  memory: StoryMemoryView;
  /** The stored story's living state; null until the story has one (the game's starting values apply). */
  storyState: StoryStateView | null;
  /** A reply is being written in this story by another tab or a page this one replaced. */
  busyElsewhere: boolean;
  call: StoryCall | null;
  /** The reply being written elsewhere, as this tab follows it. */
  attached: ReplyStream | null;
  /** A newer revision the live channel announced: the story on screen is behind it until reloaded. */
  behind: number | null;
  /** The window reaches the newest exchange (false after jumping to an old match). */
  atLatest: boolean;
  loadingPage: PageDirection | null;
  /** Bumped whenever the window is replaced: pages asked for before it are dropped. */
  windowGeneration: number;
  /** The message Find in story jumped to: `${exchange}-${role}`. */
  highlighted: string | null;
  finding: boolean;
  draft: string;
  /** How the composer's text is sent: Do, Say or Story (app/lib/action-modes.ts). */
  actionMode: ActionMode;
  /** The composer's next message is sent as this Check; null: an ordinary message. */
  check: CheckRequest | null;
  /** The composer replaces the latest exchange (Edit) instead of adding one. */
  editing: boolean;
  saving: boolean;
  restarting: boolean;
  beginningNewStory: boolean;
  /** Whether the player's free openings are not used up (turnCost's input); the server's refusal says when they are. */
  freeOpeningAvailable: boolean;
  /** Bumped when the composer should take the focus. */
  composerFocus: number;
  /** Bumped when the story view should follow the newest text again (the player sent something). */
  follows: number;
  /** The last number handed out to a call or a local message. */
  serial: number;
}

export type StoryAction =
  | { type: "draftChanged"; text: string }
  | { type: "actionModeChosen"; mode: ActionMode }
  | { type: "checkChosen"; check: CheckRequest | null }
  | { type: "editStarted" }
  | { type: "editCancelled" }
  | { type: "findToggled" }
  | { type: "findClosed" }
  /** The composer's text is sent (a new turn, or the Edit of the latest exchange), or a suggested choice (a new turn). */
  | { type: "submitted"; choice?: string; at: string }
  /** Retry, Continue, or Send again (the latest exchange's message, as it was, for a lost reply). */
  | { type: "controlled"; kind: "retry" | "continue" | "sendAgain" }
  /** Undo or a version switch: free, answered with the new revision. */
  | { type: "changeRequested"; kind: "undo" | "version" }
  | { type: "announced"; callId: number; turn: TurnAnnouncement }
  | { type: "token"; callId: number; text: string }
  /** The reply's stream ended: [DONE], an error event, or the connection cut. */
  | { type: "replyEnded"; callId: number; how: "done" | "error" | "cut" }
  /** The call never got an answer (the network failed). */
  | { type: "callFailed"; callId: number }
  | { type: "refused"; callId: number; code: ErrorCode | undefined }
  /** The call is over and the stored story shown: the screen is free again. */
  | { type: "settled"; callId: number }
  | { type: "storyLoaded"; view: StoryView }
  /** The live channel's event of a story of this game, from any tab or device. */
  | { type: "storyChanged"; storyId: string; revision: number }
  | { type: "replyAttached"; turn: TurnAnnouncement }
  | { type: "attachedToken"; text: string }
  | { type: "replyDetached" }
  | { type: "pageRequested"; direction: PageDirection }
  | { type: "pageLoaded"; direction: PageDirection; generation: number; exchanges: number; messages: StoryMessageView[] }
  | { type: "pageFailed"; direction: PageDirection }
  | { type: "jumpRequested" }
  | { type: "jumped"; generation: number; exchanges: number; messages: StoryMessageView[]; match: { exchange: number; role: MessageRole } }
  /** Back to the newest turns (the Latest button, or sending from far back). */
  | { type: "latestRequested" }
  | { type: "memorySaved"; memory: StoryMemoryView }
  | { type: "saveStarted" }
  | { type: "saveFinished" }
  | { type: "restartStarted" }
  | { type: "restartFailed" }
  /** Start Over: the story's messages are gone; the screen shows the welcome again. */
  | { type: "cleared" }
  | { type: "newStoryRequested" }
  | { type: "newStoryFailed" };

const EMPTY_MEMORY: StoryMemoryView = { pinnedFacts: "", authorNote: "", summary: "" };

export function fromView(message: StoryMessageView): ChatMessage {
  return { ...message, key: String(message.id) };
}

export function initialStoryState(story: StoryView | null): StoryScreenState {
  return {
    storyId: story?.id ?? null,
    revision: story?.revision ?? 0,
    exchanges: story?.exchanges ?? 0,
    messages: story?.messages.map(fromView) ?? [],
    memory: story?.memory ?? EMPTY_MEMORY,
    storyState: story?.state ?? null,
    busyElsewhere: story?.busy ?? false,
    call: null,
    attached: null,
    behind: null,
    atLatest: true,
    loadingPage: null,
    windowGeneration: 0,
    highlighted: null,
    finding: false,
    draft: "",
    // As written until the player picks a mode (remembered in their browser, read once the page is React's).
    actionMode: "story",
    check: null,
    editing: false,
    saving: false,
    restarting: false,
    beginningNewStory: false,
    freeOpeningAvailable: true,
    composerFocus: 0,
    follows: 0,
    serial: 0,
  };
}
