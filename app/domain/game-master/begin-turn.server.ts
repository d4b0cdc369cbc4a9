import { sql } from "drizzle-orm";
import { preparedQuery } from "../../db/prepared.server.ts";
import type { MessageRole, StoryOperation } from "../../lib/constants.ts";
import { turnPrices } from "../../lib/turn-cost.ts";
import { addressSubject, rateLimitKey, rateLimitResult, type RateLimitResult, type RateLimitRule } from "../rate-limit.server.ts";
import type { Story } from "../stories.server.ts";
import type { StoredConversation } from "./context.server.ts";

/**
 * The start of a Game Master call in one round trip (app/db/functions/begin_turn.sql; with the
 * session read in the same statement, begin_turn_for_session.sql): the player's rate limit counted,
 * their story found (or begun), an abandoned call in it settled, the call priced and paid for under
 * the story's lock (begin_story_operation.sql, by turnPrices' answers: the reply that opens a story
 * is free while the player has free openings left) with the player's message and the reply-to-be
 * stored, and what the model's context is built from read — in one statement and one commit.
 */

/**
 * Who calls: a user whose session was read, or a session token begin_turn_for_session.sql reads
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
  kind: StoryOperation;
  /** The latest exchange as the player saw it (story controls). */
  exchange?: number;
  message?: string;
  leaseSeconds: number;
  chatLimit: RateLimitRule;
  /** Replies refunded for having nothing to read (counted when refunded): at its limit, the player waits. */
  failedReplyLimit: RateLimitRule;
  /** Where the call comes from, for the free openings counted per address. */
  clientAddress: string;
  freeOpenings: FreeOpeningRules;
  /** What of the stored story the context may use at most. */
  maxExchanges: number;
  maxCharacters: number;
  now?: number;
}

/** A call that began: its story, its operation, the story it continues and the state it starts from. */
export interface BegunTurn {
  outcome: "started";
  story: Pick<Story, "id" | "gameSlug" | "exchanges" | "pinnedFacts" | "authorNote" | "summary" | "summaryThrough">;
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
  /** The credits begin_story_operation debited for the call, as it reports them. */
  charged: number;
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
  /** Not paid for: `freeOpenings` says which allowance was used up when the call would have been a free opening. */
  | { outcome: "insufficient"; freeOpenings: { usedUp: FreeOpeningsUsedUp; retryAt: Date | null } | null }
  | { outcome: "game_missing" | "missing" | "busy" | "stale" | "lost" }
  | { outcome: "no_session" | "session_renewal" | "email_not_confirmed" };

const columns = {
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
};

const beginTurnQuery = preparedQuery((database) => {
  const p = sql.placeholder;
  return database
    .select(columns)
    .from(
      sql`begin_turn(${p("userId")}, ${p("gameSlug")}, ${p("storyId")}::uuid, ${p("turnId")}::uuid, ${p("kind")}, ${p("exchange")}::int, ${p("message")},
        ${p("cost")}::int, ${p("leaseSeconds")}::int, ${p("now")}::bigint, ${p("windowMs")}::int, ${p("chatKey")}, ${p("chatLimit")}::int,
        ${p("failedReplyKey")}, ${p("failedReplyLimit")}::int, ${p("failedReplyWindowMs")}::int,
        ${p("freeOpeningCost")}::int, ${p("clientAddress")}, ${p("freeOpeningsPerMinute")}::int, ${p("freeOpeningsPerDay")}::int,
        ${p("freeOpeningsPerAddressPerDay")}::int, ${p("freeOpeningsBeforeConfirmation")}::int, ${p("maxExchanges")}::int, ${p("maxCharacters")}::int)`,
    )
    .prepare("begin_turn");
});

const beginTurnForSessionQuery = preparedQuery((database) => {
  const p = sql.placeholder;
  return database
    .select(columns)
    .from(
      sql`begin_turn_for_session(${p("sessionToken")}, ${p("renewalDueUntil")}::timestamptz, ${p("requireVerified")}::boolean,
        ${p("gameSlug")}, ${p("storyId")}::uuid, ${p("turnId")}::uuid, ${p("kind")}, ${p("exchange")}::int, ${p("message")},
        ${p("cost")}::int, ${p("leaseSeconds")}::int, ${p("now")}::bigint, ${p("windowMs")}::int, ${p("chatLimitName")}, ${p("chatLimit")}::int,
        ${p("failedReplyLimitName")}, ${p("failedReplyLimit")}::int, ${p("failedReplyWindowMs")}::int,
        ${p("freeOpeningCost")}::int, ${p("clientAddress")}, ${p("freeOpeningsPerMinute")}::int, ${p("freeOpeningsPerDay")}::int,
        ${p("freeOpeningsPerAddressPerDay")}::int, ${p("freeOpeningsBeforeConfirmation")}::int, ${p("maxExchanges")}::int, ${p("maxCharacters")}::int)`,
    )
    .prepare("begin_turn_for_session");
});

function executeBeginTurn({ caller, ...request }: BeginTurnRequest, now: number) {
  const { chatLimit, failedReplyLimit, freeOpenings } = request;
  // The one pricing rule's answers; the database applies the one that fits the exchange it finds.
  const prices = turnPrices(request.kind);
  const parameters = {
    gameSlug: request.gameSlug ?? null,
    storyId: request.storyId ?? null,
    turnId: request.turnId,
    kind: request.kind,
    exchange: request.exchange ?? null,
    message: request.message ?? null,
    cost: prices.otherwise,
    freeOpeningCost: prices.freeOpening,
    leaseSeconds: request.leaseSeconds,
    now,
    windowMs: chatLimit.windowMs,
    chatLimit: chatLimit.limit,
    failedReplyLimit: failedReplyLimit.limit,
    failedReplyWindowMs: failedReplyLimit.windowMs,
    clientAddress: addressSubject(request.clientAddress),
    freeOpeningsPerMinute: freeOpenings.perMinute,
    freeOpeningsPerDay: freeOpenings.perDay,
    freeOpeningsPerAddressPerDay: freeOpenings.perAddressPerDay,
    freeOpeningsBeforeConfirmation: freeOpenings.beforeConfirmation,
    maxExchanges: request.maxExchanges,
    maxCharacters: request.maxCharacters,
  };
  if ("userId" in caller) {
    return beginTurnQuery().execute({
      ...parameters,
      userId: caller.userId,
      chatKey: rateLimitKey(chatLimit, caller.userId),
      failedReplyKey: rateLimitKey(failedReplyLimit, caller.userId),
    });
  }
  // begin_turn_for_session makes the limits' keys from their names as rateLimitKey does.
  return beginTurnForSessionQuery().execute({
    ...parameters,
    sessionToken: caller.sessionToken,
    renewalDueUntil: caller.renewalDueUntil.toISOString(),
    requireVerified: caller.requireVerified,
    chatLimitName: chatLimit.name,
    failedReplyLimitName: failedReplyLimit.name,
  });
}

export async function beginTurn(request: BeginTurnRequest): Promise<BeginTurnOutcome> {
  const { chatLimit, failedReplyLimit, now = Date.now() } = request;
  const [row] = await executeBeginTurn(request, now);
  if (!row) throw new Error("begin_turn returned nothing.");
  switch (row.outcome) {
    case "rate_limited":
    case "failed_replies_limited":
      return {
        outcome: row.outcome,
        limit: rateLimitResult(
          row.outcome === "rate_limited" ? chatLimit : failedReplyLimit,
          {
            count: row.limitCount ?? 0,
            windowStartedAt: row.limitWindowStartedAt,
          },
          now,
        ),
      };
    case "insufficient":
      return {
        outcome: row.outcome,
        freeOpenings: row.freeOpeningsUsedUp ? { usedUp: row.freeOpeningsUsedUp, retryAt: row.freeOpeningsRetryAt } : null,
      };
    case "started":
      return {
        outcome: "started",
        story: {
          id: row.storyId,
          gameSlug: row.gameSlug,
          exchanges: row.exchanges,
          pinnedFacts: row.pinnedFacts,
          authorNote: row.authorNote,
          summary: row.summary,
          summaryThrough: row.summaryThrough,
        },
        messageId: row.messageId,
        replyId: row.replyId,
        exchange: row.exchange,
        version: row.version,
        versions: row.versions,
        previousVersion: row.previousVersion,
        playerText: row.playerText ?? "",
        replySoFar: row.replySoFar ?? "",
        conversation: storedConversation(row.opening, row.recent, row.exchange),
        state: row.state,
        charged: row.charged,
      };
    default:
      return { outcome: row.outcome };
  }
}

/** story_context's rows: one JSON array of [exchange, role, content] each. */
type MessageTuples = [exchange: number, role: MessageRole, content: string][];

/**
 * The conversation a call about exchange `before` continues, from story_context's opening and
 * newest exchanges: the opening where the newest do not already hold it, and no reply whose
 * player's message the character budget cut off (it would read as the answer to another).
 */
function storedConversation(openingJson: string | null, recentJson: string | null, before: number): StoredConversation {
  const opening = withoutInterrupted(JSON.parse(openingJson ?? "[]") as MessageTuples).messages;
  const { messages: recent, unanswered } = withoutInterrupted(JSON.parse(recentJson ?? "[]") as MessageTuples);
  const firstAction = recent.findIndex(([, role]) => role === "user");
  const kept = firstAction < 0 ? [] : recent.slice(firstAction);
  const oldestKept = kept[0]?.[0] ?? before;
  const head = opening.filter(([exchange]) => exchange < oldestKept);
  return {
    messages: [...head, ...kept].map(([, role, content]) => ({ role, content })),
    hasGap: oldestKept > 2,
    unanswered,
  };
}

/**
 * An exchange whose reply was interrupted (its instance died: finish_story_operation.sql) has the
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
