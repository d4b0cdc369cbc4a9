import type { MessageRole, MessageStatus, TurnKind } from "./constants.ts";
import type { ReplyRatingView } from "./reply-ratings.ts";
import type { StatCheck } from "./stat-checks.ts";
import type { StoryState, TrackedStat } from "./tracked-stats.ts";

/**
 * A story as the play screen holds it: a window of its newest exchanges (older ones load on
 * demand), its revision (what other tabs compare), and whether a Game Master call is in flight.
 */

export interface StoryMessageView {
  id: number;
  /** The exchange's position in the story, from 1; a player's message and its reply share it. */
  exchange: number;
  role: MessageRole;
  content: string;
  /** "streaming" while the reply is being written. */
  status: MessageStatus;
  /** The version of a reply on screen, of `versions` (Retry adds versions). */
  version: number;
  versions: number;
  /** ISO time. */
  createdAt: string;
  /** A reply's rating by its player (Good reply / Bad reply), of the version shown; null or absent when not rated. */
  rating?: ReplyRatingView | null;
  /** A player's message sent as a Check: the server's roll and what it decided; null or absent otherwise. */
  roll?: StatCheck | null;
}

/** The first event of a reply's stream: which reply it is, so a page can place it before any text arrives. */
export interface TurnAnnouncement {
  storyId: string;
  kind: TurnKind;
  exchange: number;
  messageId: number | null;
  replyId: number;
  version: number;
  versions: number;
  /** The text a Continue goes on from: the reply before this call, without the choices it ended with (they come back after). */
  replySoFar: string;
  /** The credits the call cost, as the database debited them (app/db/functions/begin_turn.sql). */
  charged: number;
}

export interface StoryView {
  id: string;
  revision: number;
  /** How many exchanges the story has: the newest one's position. */
  exchanges: number;
  /** A Game Master call is being written in this story (in this tab or another). */
  busy: boolean;
  /** The newest exchanges, in story order. */
  messages: StoryMessageView[];
  /** What the Game Master is always given about this story, as the player sees and edits it. */
  memory: StoryMemoryView;
  /** The game's tracked stats and where this story stands on them; null in a game that tracks none. */
  state: StoryStateView | null;
}

export interface StoryStateView {
  stats: TrackedStat[];
  values: StoryState;
  /** The state before the latest reply (the starting values before the first): what moved is highlighted. */
  previous: StoryState;
}

export interface StoryMemoryView {
  /** One a line: names, vows, relationships. */
  pinnedFacts: string;
  /** Style and direction, placed near the end of the model's context. */
  authorNote: string;
  /** A rolling summary the server keeps as the story outgrows the context; the player may correct it. */
  summary: string;
}

/** How long each part of the memory may be. */
export const MAX_MEMORY_LENGTH = 4000;

/** Exchanges the play page opens with: a screenful and a little more, however long the story. */
export const STORY_OPENING_EXCHANGES = 12;

/** Exchanges in each page loaded as the reader scrolls (or around a match of Find in story). */
export const STORY_PAGE_EXCHANGES = 30;

/** Find in story: the server marks the words found in a match's snippet between these. */
export const MATCH_START = "⟦";
export const MATCH_END = "⟧";

/** The longest title a player may give a story. */
export const MAX_TITLE_LENGTH = 120;

/** Export: the files a story downloads as (GET /api/stories/{id}/export?format=). */
export const STORY_EXPORT_FORMATS = [
  { format: "markdown", label: "Markdown" },
  { format: "json", label: "JSON" },
] as const;

export type StoryExportFormat = (typeof STORY_EXPORT_FORMATS)[number]["format"];
