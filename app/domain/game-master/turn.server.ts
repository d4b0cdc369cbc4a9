import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import { isDatabaseBusy } from "../../db/busy.server.ts";
import { preparedQuery } from "../../db/prepared.server.ts";
import { env } from "../../env.server.ts";
import type { EventSource } from "../../lib/event-source.server.ts";
import { gameMasterTurns, type TurnOutcome } from "../../lib/metrics.server.ts";
import { PLAY_TOASTS, RESEND_CONFIRMATION_PATH } from "../../lib/play-texts.ts";
import { turnPrices } from "../../lib/turn-cost.ts";
import type { SessionCaller, SessionUser } from "../auth.server.ts";
import { InsufficientCreditsError } from "../credits.server.ts";
import { BusyError, DomainError, NotFoundError, RateLimitedError, UnauthenticatedError } from "../errors.server.ts";
import { addressSubject, rateLimitedError, rateLimitResult } from "../rate-limit.server.ts";
import { refuseStoryChange, TURN_LEASE_SECONDS } from "../stories.server.ts";
import { liveStreamsReady, type StreamOwner } from "../realtime.server.ts";
import { storiesKeptMessage } from "../story-library.server.ts";
import { admitTurn } from "./admission.server.ts";
import {
  beginTurnColumns,
  sessionOwner,
  storedConversation,
  type BeginTurnOutcome,
  type BegunTurn,
  type BeginTurnRequest,
  type Turn,
  type TurnCaller,
} from "./begun-turn.server.ts";
import { freeOpeningRules, freeOpeningsRefusal } from "./free-openings.server.ts";
import { loadBegunStoryBrief, loadStoryBrief, loadWorldVersionBrief } from "./game-source.server.ts";
import { watchLiveReply } from "./live-replies.server.ts";
import { FAILED_REPLY_LIMIT, finishTurn, writeReply } from "./reply-writer.server.ts";
import { checkedStat } from "./stat-checks.server.ts";
import { storyReadLimits } from "./tokens.server.ts";

/**
 * A turn of the Game Master on a story (docs/glossary.md): the player's new message (`send`), or
 * one of the story controls — Retry (a new version of the latest reply), Continue (the latest reply
 * extended), Edit (the latest exchange replaced). Each costs what turnCost says
 * (app/lib/turn-cost.ts: a credit, and nothing for the reply that opens a story while the player
 * has free openings left), debited by begin_turn (app/db/functions/begin_turn.sql), the one
 * statement that also counts the rate limit, stores the player's message, reserves the reply's id and
 * reads the model's context, before the model is called. The reply is then written by
 * reply-writer.server.ts; its first event says what was charged.
 */

export interface TurnRequest {
  caller: SessionCaller;
  /** The game of a new turn (its player's latest story), or of the story a control acts on. */
  gameSlug?: string;
  storyId?: string;
  turn: Turn;
  /** The client's address (clientAddress in app/domain/rate-limit.server.ts), for the free openings counted per address. */
  clientAddress: string;
  logger: Logger;
}

/**
 * A turn with the rules that come before it: a confirmed email address where the site requires
 * one, at most CHAT_TURNS_PER_MINUTE turns a minute, a playable game, a story not busy with another
 * turn, a free opening left or a credit to pay with (free-openings.server.ts). All of it is one
 * round trip (beginTurn); each refusal is a typed error and costs nothing. Returns the reply's
 * event stream.
 */
export async function takeTurn(request: TurnRequest): Promise<EventSource> {
  try {
    return await takeAdmittedTurn(request);
  } catch (error) {
    gameMasterTurns.inc({ outcome: refusalOutcome(error) });
    throw error;
  }
}

/** How a turn that threw before its reply began is counted: a refusal by its kind, or a failure. */
function refusalOutcome(error: unknown): TurnOutcome {
  if (error instanceof BusyError || isDatabaseBusy(error)) return "refused_busy";
  if (error instanceof RateLimitedError) return "refused_rate_limited";
  if (error instanceof InsufficientCreditsError || (error instanceof DomainError && error.code === "free_openings_used")) {
    return "insufficient_credits";
  }
  return error instanceof DomainError ? "refused" : "failed";
}

function emailNotConfirmedError() {
  return new DomainError(
    "email_not_confirmed",
    `Please confirm your email address before playing. Open the link we sent you, or ask for a new one at ${RESEND_CONFIRMATION_PATH}.`,
    { details: { resendUrl: RESEND_CONFIRMATION_PATH } },
  );
}

/** Where the site requires a confirmed address, a user whose session was read is refused at once. */
function refuseUnconfirmedEmail(user: SessionUser) {
  if (env().REQUIRE_EMAIL_VERIFICATION && !user.emailVerified) throw emailNotConfirmedError();
}

/** Who begin_turn is for: the user, or the session token it reads in the same statement. */
function turnCaller(caller: SessionCaller): TurnCaller {
  return caller.kind === "user"
    ? { userId: caller.user.id }
    : { sessionToken: caller.token, renewalDueUntil: caller.renewalDueUntil, requireVerified: env().REQUIRE_EMAIL_VERIFICATION };
}

async function takeAdmittedTurn(request: TurnRequest) {
  if (request.caller.kind === "user") refuseUnconfirmedEmail(request.caller.user);
  const release = admitTurn(env().GAME_MASTER_MAX_STREAMS);
  try {
    return await startTurn(request, release);
  } catch (error) {
    release();
    throw error;
  }
}

async function startTurn(request: TurnRequest, release: () => void): Promise<EventSource> {
  const { caller, gameSlug, storyId, turn, logger } = request;
  const config = env();
  const freeOpenings = freeOpeningRules(config);
  const turnId = randomUUID();
  await liveStreamsReady();
  // A Check on a game's stats is refused before anything is counted or paid (a draft world, not
  // kept in memory, is checked once its turn began, below).
  const check = turn.kind === "send" ? turn.check : undefined;
  const checkedGame = check && gameSlug ? await loadStoryBrief(gameSlug) : undefined;
  if (check && checkedGame) checkedStat(checkedGame.trackedStats, check);
  // The game's brief comes from memory (read again only after an admin's change), while the
  // database begins the turn.
  const [begun, namedGame] = await Promise.all([
    beginTurn({
      caller: turnCaller(caller),
      gameSlug,
      storyId,
      turnId,
      kind: turn.kind,
      exchange: "exchange" in turn ? turn.exchange : undefined,
      message: "message" in turn ? turn.message : undefined,
      leaseSeconds: TURN_LEASE_SECONDS,
      chatLimit: { name: "chat", limit: config.CHAT_TURNS_PER_MINUTE, windowMs: 60_000 },
      failedReplyLimit: FAILED_REPLY_LIMIT,
      clientAddress: request.clientAddress,
      freeOpenings,
      ...storyReadLimits(config.AI_CONTEXT_TOKENS),
      maxStories: config.STORIES_PER_PLAYER,
    }),
    checkedGame ?? (gameSlug ? loadStoryBrief(gameSlug) : undefined),
  ]);
  switch (begun.outcome) {
    case "started":
      break;
    case "rate_limited":
      throw rateLimitedError(
        begun.limit,
        () =>
          `You are sending messages faster than the Game Master can answer: at most ${config.CHAT_TURNS_PER_MINUTE} a minute. Please wait a moment.`,
      );
    case "failed_replies_limited":
      throw rateLimitedError(
        begun.limit,
        (wait) =>
          `The Game Master's last ${FAILED_REPLY_LIMIT.limit} replies to you came back with nothing to read (your credits were refunded). Please try again in ${wait}, perhaps with a different message.`,
      );
    case "game_missing":
      throw new NotFoundError(PLAY_TOASTS.gameNotFound.description);
    case "stories_limited":
      throw new DomainError("rate_limited", storiesKeptMessage(config.STORIES_PER_PLAYER));
    case "insufficient":
      throw begun.freeOpenings
        ? freeOpeningsRefusal(begun.freeOpenings.usedUp, begun.freeOpenings.retryAt, freeOpenings)
        : new InsufficientCreditsError();
    case "no_session":
      throw new UnauthenticatedError();
    case "email_not_confirmed":
      throw emailNotConfirmedError();
    case "session_renewal": {
      // The session is due for its renewal (or expired): better-auth reads it, and writes.
      const user = caller.kind === "token" ? await caller.readUser() : null;
      if (!user) throw new UnauthenticatedError();
      refuseUnconfirmedEmail(user);
      return startTurn({ ...request, caller: { kind: "user", user } }, release);
    }
    default:
      refuseStoryChange(begun.outcome);
  }
  // A story of another player's world plays the version it began with (docs/decisions/065).
  const { gameSlug: playedSlug, worldVersion } = begun.story;
  const game =
    worldVersion !== null ? await loadWorldVersionBrief(playedSlug, worldVersion) : (namedGame ?? (await loadBegunStoryBrief(playedSlug)));
  if (!game) {
    // The game was retired while the turn began.
    await finishTurn(begun.story.id, turnId, "", begun.previousVersion);
    throw new NotFoundError(PLAY_TOASTS.gameNotFound.description);
  }
  if (check && !checkedGame) {
    try {
      checkedStat(game.trackedStats, check);
    } catch (error) {
      await finishTurn(begun.story.id, turnId, "", begun.previousVersion);
      throw error;
    }
  }
  const live = writeReply({ turnId, begun, game, turn, logger, release });
  // The reply is the player's whatever happens; its stream to this tab ends with the session.
  return watchLiveReply(live, streamOwner(caller, begun), "turn");
}

/** Whose the turn is: the session read before it, or the one begin_turn read. */
function streamOwner(caller: SessionCaller, begun: BegunTurn): StreamOwner {
  if (caller.kind === "user") return { userId: caller.user.id, session: caller.user.session };
  if (!begun.owner) throw new Error("begin_turn read a session and began a turn without answering it.");
  return begun.owner;
}

const beginTurnQuery = preparedQuery((database) => {
  const p = sql.placeholder;
  return database
    .select(beginTurnColumns)
    .from(
      sql`begin_turn(${p("userId")}, ${p("sessionToken")}, ${p("renewalDueUntil")}::timestamptz, ${p("requireVerified")}::boolean,
        ${p("gameSlug")}, ${p("storyId")}::uuid, ${p("turnId")}::uuid, ${p("kind")}, ${p("exchange")}::int, ${p("message")},
        ${p("cost")}::int, ${p("leaseSeconds")}::int, ${p("now")}::bigint, ${p("windowMs")}::int, ${p("chatLimitName")}, ${p("chatLimit")}::int,
        ${p("failedReplyLimitName")}, ${p("failedReplyLimit")}::int, ${p("failedReplyWindowMs")}::int,
        ${p("freeOpeningCost")}::int, ${p("clientAddress")}, ${p("freeOpeningsPerMinute")}::int, ${p("freeOpeningsPerDay")}::int,
        ${p("freeOpeningsPerAddressPerDay")}::int, ${p("freeOpeningsBeforeConfirmation")}::int, ${p("maxExchanges")}::int, ${p("maxCharacters")}::int, ${p("maxStories")}::int)`,
    )
    .prepare("begin_turn");
});

/** begin_turn's row, and whose turn it is when begin_turn read the session. */
async function executeBeginTurn({ caller, ...request }: BeginTurnRequest, now: number) {
  const { chatLimit, failedReplyLimit, freeOpenings } = request;
  // The one pricing rule's answers; the database applies the one that fits the exchange it finds.
  const prices = turnPrices(request.kind);
  const [row] = await beginTurnQuery().execute({
    ...("userId" in caller
      ? { userId: caller.userId, sessionToken: null, renewalDueUntil: null, requireVerified: false }
      : {
          userId: null,
          sessionToken: caller.sessionToken,
          renewalDueUntil: caller.renewalDueUntil.toISOString(),
          requireVerified: caller.requireVerified,
        }),
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
    // begin_turn makes the limits' keys from their names and the user's id as rateLimitKey does.
    chatLimitName: chatLimit.name,
    chatLimit: chatLimit.limit,
    failedReplyLimitName: failedReplyLimit.name,
    failedReplyLimit: failedReplyLimit.limit,
    failedReplyWindowMs: failedReplyLimit.windowMs,
    clientAddress: addressSubject(request.clientAddress),
    freeOpeningsPerMinute: freeOpenings.perMinute,
    freeOpeningsPerDay: freeOpenings.perDay,
    freeOpeningsPerAddressPerDay: freeOpenings.perAddressPerDay,
    freeOpeningsBeforeConfirmation: freeOpenings.beforeConfirmation,
    maxExchanges: request.maxExchanges,
    maxCharacters: request.maxCharacters,
    maxStories: request.maxStories,
  });
  return { row, owner: row ? sessionOwner(row) : null };
}

export async function beginTurn(request: BeginTurnRequest): Promise<BeginTurnOutcome> {
  const { chatLimit, failedReplyLimit, now = Date.now() } = request;
  const { row, owner } = await executeBeginTurn(request, now);
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
          worldVersion: row.worldVersion,
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
        lore: row.lore,
        owner,
        playerRoll: row.playerRoll,
      };
    default:
      return { outcome: row.outcome };
  }
}
