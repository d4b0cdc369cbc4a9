import { sql } from "drizzle-orm";
import type { MessageRole, TurnKind } from "../../lib/constants.ts";
import type { CheckRequest, StatCheck } from "../../lib/stat-checks.ts";
import type { RateLimitResult, RateLimitRule } from "../rate-limit.server.ts";
import type { StreamOwner } from "../realtime.server.ts";
import type { Story } from "../stories.server.ts";
import type { ContextLore, StoredConversation } from "./context.server.ts";

/**
 * What begin_turn (app/db/functions/begin_turn.sql, which reads the caller's session in the same
 * statement when given its token) is asked and answers, for turn.server.ts: the turn's kinds, who
 * takes it, the outcomes, and the conversation the model's context is built from.
 */

export type Turn =
  /** `check`: the message is sent as a Check, which the server rolls (docs/decisions/061). */
  | { kind: "send"; message: string; check?: CheckRequest }
  | { kind: "edit"; exchange: number; message: string }
  | { kind: "retry"; exchange: number }
  | { kind: "continue"; exchange: number };

/**
 * Who takes the turn: a user whose session was read, or a session token begin_turn.sql reads
 * in the same statement, valid while it expires after `renewalDueUntil` (later, it is
 * better-auth's to read) and, with `requireVerified`, of a confirmed email address.
 */
export type TurnCaller = { userId: string } | { sessionToken: string; renewalDueUntil: Date; requireVerified: boolean };

export interface BeginTurnRequest {
  caller: TurnCaller;
  /** The game of a new turn (its player's latest story, begun if there is none); with storyId, the game that story must be of. */
  gameSlug?: string;
  storyId?: string;
  turnId: string;
  kind: TurnKind;
  /** The latest exchange as the player saw it (story controls). */
  exchange?: number;
  message?: string;
  leaseSeconds: number;
  chatLimit: RateLimitRule;
  /** Replies refunded for having nothing to read (counted when refunded): at its limit, the player waits. */
  failedReplyLimit: RateLimitRule;
  /** Where the turn comes from, for the free openings counted per address. */
  clientAddress: string;
  freeOpenings: FreeOpeningRules;
  /** What of the stored story the context may use at most. */
  maxExchanges: number;
  maxCharacters: number;
  /** The stories a player may keep: a turn that would begin one more is refused. */
  maxStories: number;
  now?: number;
}

/** A turn that began: its story, its operation, the story it continues and the state it starts from. */
export interface BegunTurn {
  outcome: "started";
  story: Pick<Story, "id" | "gameSlug" | "exchanges" | "pinnedFacts" | "authorNote" | "summary" | "summaryThrough" | "worldVersion">;
  messageId: number | null;
  replyId: number;
  exchange: number;
  version: number;
  versions: number;
  /** The version a failed Retry goes back to. */
  previousVersion: number | null;
  playerText: string;
  replySoFar: string;
  conversation: StoredConversation;
  /** The stored state the reply starts from (unchecked: the game's stats may have changed since). */
  state: unknown;
  /** The credits begin_turn debited for the turn, as it reports them. */
  charged: number;
  /** The game's and the story's lorebooks, as story_lore.sql reads them for the turn's context. */
  lore: ContextLore;
  /** Whose turn it is, when begin_turn.sql read the session: the turn's stream ends with it. */
  owner: StreamOwner | null;
  /** The Check the exchange's player message was sent with (a Retry, Continue or Edit keeps it); null for none yet. */
  playerRoll: StatCheck | null;
}

/** How many free openings a player gets (docs/decisions/041; the FREE_OPENINGS_* settings). */
export interface FreeOpeningRules {
  perMinute: number;
  perDay: number;
  perAddressPerDay: number;
  /** In all, until the account's email address is confirmed. */
  beforeConfirmation: number;
}

/** Which free openings' allowance is used up: the one that lasts longest, when several are. */
export type FreeOpeningsUsedUp = "unconfirmed" | "day" | "address" | "minute";

export type BeginTurnOutcome =
  | BegunTurn
  | { outcome: "rate_limited" | "failed_replies_limited"; limit: RateLimitResult }
  /** Not paid for: `freeOpenings` says which allowance was used up when the turn would have been a free opening. */
  | { outcome: "insufficient"; freeOpenings: { usedUp: FreeOpeningsUsedUp; retryAt: Date | null } | null }
  | { outcome: "game_missing" | "stories_limited" | "missing" | "busy" | "stale" | "lost" }
  | { outcome: "no_session" | "session_renewal" | "email_not_confirmed" };

export const beginTurnColumns = {
  outcome: sql<BeginTurnOutcome["outcome"]>`outcome`,
  limitCount: sql<number | null>`limit_count`,
  limitWindowStartedAt: sql<number | null>`limit_window_started_at`.mapWith(Number),
  freeOpeningsUsedUp: sql<FreeOpeningsUsedUp | null>`free_openings_used_up`,
  freeOpeningsRetryAt: sql<Date | null>`free_openings_retry_at`.mapWith((value: string | Date) => new Date(value)),
  storyId: sql<string>`story_id`,
  gameSlug: sql<string>`game_slug`,
  exchanges: sql<number>`exchanges`,
  pinnedFacts: sql<string>`pinned_facts`,
  authorNote: sql<string>`author_note`,
  summary: sql<string>`summary`,
  summaryThrough: sql<number>`summary_through`,
  messageId: sql<number | null>`message_id`.mapWith(Number),
  replyId: sql<number>`reply_id`.mapWith(Number),
  exchange: sql<number>`exchange`,
  version: sql<number>`version`,
  versions: sql<number>`versions`,
  previousVersion: sql<number | null>`previous_version`,
  charged: sql<number>`charged`,
  playerText: sql<string | null>`player_text`,
  replySoFar: sql<string | null>`reply_so_far`,
  opening: sql<string | null>`opening`,
  recent: sql<string | null>`recent`,
  state: sql<unknown>`state`,
  lore: sql<ContextLore>`lore`,
  playerRoll: sql<StatCheck | null>`player_roll`,
  worldVersion: sql<number | null>`world_version`,
  /** The session begin_turn read, when it was given its token. */
  callerId: sql<string | null>`caller_id`,
  callerSessionId: sql<string | null>`caller_session_id`,
  callerSessionExpiresAt: sql<Date | null>`caller_session_expires_at`.mapWith((value: string | Date | null) =>
    value === null ? null : new Date(value),
  ),
};

type BeginTurnRow = { [Column in keyof typeof beginTurnColumns]: (typeof beginTurnColumns)[Column]["_"]["type"] };

/** The session a begin_turn row read, if it did. */
export function sessionOwner(row: Pick<BeginTurnRow, "callerId" | "callerSessionId" | "callerSessionExpiresAt">): StreamOwner | null {
  const { callerId, callerSessionId, callerSessionExpiresAt } = row;
  return callerId && callerSessionId && callerSessionExpiresAt
    ? { userId: callerId, session: { id: callerSessionId, expiresAt: callerSessionExpiresAt } }
    : null;
}

/** story_context's rows: one JSON array of [exchange, role, content] each. */
type MessageTuples = [exchange: number, role: MessageRole, content: string][];

/**
 * The conversation a turn about exchange `before` continues, from story_context's opening and
 * newest exchanges: the opening where the newest do not already hold it, and no reply whose
 * player's message the character budget cut off (it would read as the answer to another).
 */
export function storedConversation(openingJson: string | null, recentJson: string | null, before: number): StoredConversation {
  const opening = withoutInterrupted(JSON.parse(openingJson ?? "[]") as MessageTuples).messages;
  const { messages: recent, unanswered } = withoutInterrupted(JSON.parse(recentJson ?? "[]") as MessageTuples);
  const firstAction = recent.findIndex(([, role]) => role === "user");
  const kept = firstAction < 0 ? [] : recent.slice(firstAction);
  const oldestKept = kept[0]?.[0] ?? before;
  const head = opening.filter(([exchange]) => exchange < oldestKept);
  return {
    messages: [...head, ...kept].map(([exchange, role, content]) => ({ role, content, exchange })),
    hasGap: oldestKept > 2,
    unanswered,
  };
}

/**
 * An exchange whose reply was interrupted (its instance died: finish_turn.sql) has the
 * player's message and no reply: the model is not shown it, as an exchange it never answered.
 * Returns the rest, and how many were left out.
 */
function withoutInterrupted(messages: MessageTuples): { messages: MessageTuples; unanswered: number } {
  const unanswered = new Set(messages.filter(([, role, content]) => role === "assistant" && content === "").map(([exchange]) => exchange));
  return {
    messages: unanswered.size === 0 ? messages : messages.filter(([exchange]) => !unanswered.has(exchange)),
    unanswered: unanswered.size,
  };
}
