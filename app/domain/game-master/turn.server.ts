import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Logger } from "pino";
import { isDatabaseBusy, retryWhileDatabaseBusy } from "../../db/busy.server.ts";
import { db } from "../../db/database.server.ts";
import { preparedQuery } from "../../db/prepared.server.ts";
import { stories } from "../../db/schema.ts";
import { env } from "../../env.server.ts";
import { trackInFlight } from "../../lib/in-flight.server.ts";
import { creditsSpent, gameMasterFirstToken, gameMasterTurns, type TurnOutcome } from "../../lib/metrics.server.ts";
import { PLAY_TOASTS, RESEND_CONFIRMATION_PATH } from "../../lib/play-texts.ts";
import { continuedReply, replyToContinue } from "../../lib/story-choices.ts";
import type { SessionCaller, SessionUser } from "../auth.server.ts";
import { InsufficientCreditsError } from "../credits.server.ts";
import { BusyError, DomainError, NotFoundError, RateLimitedError, UnauthenticatedError } from "../errors.server.ts";
import { consumeRateLimit, rateLimitedError, type RateLimitRule } from "../rate-limit.server.ts";
import { applyStateChanges, resolveState, type StoryState } from "../../lib/tracked-stats.ts";
import { refuseStoryChange, TURN_LEASE_SECONDS } from "../stories.server.ts";
import { admitGameMasterCall } from "./admission.server.ts";
import { beginTurn, type BegunTurn, type TurnCaller } from "./begin-turn.server.ts";
import { freeOpeningRules, freeOpeningsRefusal } from "./free-openings.server.ts";
import { buildModelContext, type ModelContext } from "./context.server.ts";
import { StateBlockFilter } from "./state-block.server.ts";
import { CONTINUE_INSTRUCTION, type TrackedState } from "./story-brief.server.ts";
import { refreshSummaryAfterTurn } from "./story-summary.server.ts";
import { loadStoryBrief, type PlayableStory } from "./game-source.server.ts";
import type { EventSource } from "../../lib/event-source.server.ts";
import type { TurnAnnouncement } from "../../lib/story-view.ts";
import { closeLiveReply, DONE_LINE, eventLine, openLiveReply } from "./live-replies.server.ts";
import { gameMasterModel } from "./model.server.ts";
import { storyReadLimits } from "./tokens.server.ts";
import { streamReply } from "./reply-stream.server.ts";
import { holdTurnLease } from "./turn-leases.server.ts";

/**
 * A call of the Game Master on a story: a turn (the player's new message), or one of the story
 * controls — Retry (a new version of the latest reply), Continue (the latest reply extended), Edit
 * (the latest exchange replaced). Each costs what turnCost says (app/lib/turn-cost.ts: a credit,
 * and nothing for the reply that opens a story while the player has free openings left), debited
 * in the same statement that stores the player's message and the reply-to-be
 * (app/db/functions/begin_story_operation.sql), before the model is called; the first event
 * says what was charged. The reply streams as server-sent events (`data:
 * {"content": "..."}` lines, then `data: [DONE]`) to every tab watching the story, and is stored
 * once complete. The generation belongs to the server, not to the connection: a player who
 * leaves mid-reply finds it stored, or still being written, when they come back. A model that
 * fails before producing any text costs nothing (the call is undone and its credit refunded);
 * once text was delivered the call is paid for, and what the player saw is what is stored.
 */

/** Messages sent to the player when a call fails (the client shows SPEC's texts). */
export const TURN_ERRORS = {
  refunded: "The Game Master could not answer just now. Your credit was refunded; please try again.",
  interrupted: "The Game Master's reply was interrupted. What arrived has been kept in your story.",
  notStored: "The reply could not be saved to your story, so your credit was refunded. Please try again.",
} as const;

const HEARTBEAT_MS = 15_000;
/** Upstream retries before the first token (connection errors, 429/5xx answers). */
const MAX_RETRIES = 1;

export type StoryCall =
  | { kind: "turn"; message: string }
  | { kind: "edit"; exchange: number; message: string }
  | { kind: "retry"; exchange: number }
  | { kind: "continue"; exchange: number };

export interface StoryCallRequest {
  caller: SessionCaller;
  /** The game of a new turn (its player's latest story), or of the story a control acts on. */
  gameSlug?: string;
  storyId?: string;
  call: StoryCall;
  /** The client's address (clientAddress in app/domain/rate-limit.server.ts), for the free openings counted per address. */
  clientAddress: string;
  logger: Logger;
}

const finishCallQuery = preparedQuery((database) => {
  const p = sql.placeholder;
  return database
    .select({ outcome: sql<"stored" | "reverted" | "interrupted" | "settled">`outcome` })
    .from(
      sql`finish_story_operation(${p("storyId")}::uuid, ${p("turnId")}::uuid, ${p("text")}, ${p("restoreVersion")}::int, ${p("state")}::jsonb)`,
    )
    .prepare("finish_call");
});

/** Finishes a call: its reply and the story state it left stored, or, with no text, the call undone. */
function finishCall(storyId: string, turnId: string, text: string, restoreVersion: number | null, state: StoryState | null = null) {
  return retryWhileDatabaseBusy(async () => {
    const [row] = await finishCallQuery().execute({ storyId, turnId, text, restoreVersion, state: state ? JSON.stringify(state) : null });
    return row?.outcome ?? "settled";
  });
}

/**
 * Replies a player may cause in a window that the model finished with nothing to read — only a
 * state block, an unclosed one, or no text — each refunded like any failed call (issue 31): the
 * player steers the model there as much as the model goes there alone. Counted per player when
 * such a reply is refunded, never on the way to the model; a player at the limit is refused by
 * begin_turn (app/db/functions/begin_turn.sql), in the one round trip before the model.
 */
export const FAILED_REPLY_LIMIT: RateLimitRule = { name: "failed_reply", limit: 5, windowMs: 10 * 60_000 };

/** Why a call that began was undone and refunded, leaving nothing in the story. */
interface Refund {
  /**
   * `empty`: the model finished with nothing the player can read; `failed`: it failed before
   * any; `cancelled`: the server stopped it before any; `not_stored`: its reply could not be stored.
   */
  reason: "empty" | "failed" | "cancelled" | "not_stored";
  failure: unknown;
  durationMs: number;
  /** Whether the model sent any text at all (a state block the player never saw included). */
  modelWrote: boolean;
}

/**
 * A call undone and refunded: the one place where a refunded call's outcome is known (what its
 * model call cost is recorded here, issue 34). Returns the line that ends its reply's stream.
 */
async function refundCall(
  { storyId, turnId, restoreVersion, log }: { storyId: string; turnId: string; restoreVersion: number | null; log: Logger },
  { reason, failure, durationMs, modelWrote }: Refund,
): Promise<Uint8Array> {
  if (reason === "not_stored") log.error({ err: failure }, "the reply could not be stored; call undone and refunded");
  await finishCall(storyId, turnId, "", restoreVersion).catch((error: unknown) => log.error({ err: error }, "the call could not be undone"));
  gameMasterTurns.inc({ outcome: reason === "cancelled" ? "cancelled" : "failed" });
  if (reason === "not_stored") return eventLine({ error: TURN_ERRORS.notStored });
  if (failure) {
    log.warn({ err: failure, durationMs }, "model failed before any text; call undone and refunded");
    return eventLine({ error: TURN_ERRORS.refunded });
  }
  log.warn(
    { durationMs },
    modelWrote
      ? "the model's reply had nothing to read (only a state block); call undone and refunded"
      : "model returned no text; call undone and refunded",
  );
  if (reason === "empty") await countFailedReply(storyId, log);
  // An empty but finished reply ends with [DONE] alone, which the client shows as SPEC's "issue generating a response".
  return DONE_LINE;
}

/** One more empty reply against the player whose story it is (a call by bearer token learns who that is only in SQL). */
async function countFailedReply(storyId: string, log: Logger) {
  try {
    const [owner] = await db().select({ userId: stories.userId }).from(stories).where(eq(stories.id, storyId));
    if (owner) await consumeRateLimit(FAILED_REPLY_LIMIT, owner.userId);
  } catch (error) {
    log.error({ err: error }, "an empty reply could not be counted against its player");
  }
}

/**
 * A call with the rules that come before it: a confirmed email address where the site requires
 * one, at most CHAT_TURNS_PER_MINUTE calls a minute, a playable game, a story not busy with another
 * call, a free opening left or a credit to pay with (free-openings.server.ts). All of it is one
 * round trip (beginTurn); each refusal is a typed error and costs nothing. Returns the reply's
 * event stream.
 */
export async function callGameMaster(request: StoryCallRequest): Promise<EventSource> {
  try {
    return await admitCall(request);
  } catch (error) {
    gameMasterTurns.inc({ outcome: refusalOutcome(error) });
    throw error;
  }
}

/** How a call that threw before its reply began is counted: a refusal by its kind, or a failure. */
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

async function admitCall(request: StoryCallRequest) {
  if (request.caller.kind === "user") refuseUnconfirmedEmail(request.caller.user);
  const release = admitGameMasterCall(env().GAME_MASTER_MAX_STREAMS);
  try {
    return await beginCall(request, release);
  } catch (error) {
    release();
    throw error;
  }
}

async function beginCall(request: StoryCallRequest, release: () => void): Promise<EventSource> {
  const { caller, gameSlug, storyId, call, logger } = request;
  const config = env();
  const freeOpenings = freeOpeningRules(config);
  const turnId = randomUUID();
  // The game's brief comes from memory (read again only after an admin's change), while the
  // database begins the call.
  const [begun, namedGame] = await Promise.all([
    beginTurn({
      caller: turnCaller(caller),
      gameSlug,
      storyId,
      turnId,
      kind: call.kind,
      exchange: "exchange" in call ? call.exchange : undefined,
      message: "message" in call ? call.message : undefined,
      leaseSeconds: TURN_LEASE_SECONDS,
      chatLimit: { name: "chat", limit: config.CHAT_TURNS_PER_MINUTE, windowMs: 60_000 },
      failedReplyLimit: FAILED_REPLY_LIMIT,
      clientAddress: request.clientAddress,
      freeOpenings,
      ...storyReadLimits(config.AI_CONTEXT_TOKENS),
    }),
    gameSlug ? loadStoryBrief(gameSlug) : undefined,
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
      return beginCall({ ...request, caller: { kind: "user", user } }, release);
    }
    default:
      refuseStoryChange(begun.outcome);
  }
  const game = namedGame ?? (await loadStoryBrief(begun.story.gameSlug));
  if (!game) {
    // The game was retired while the call began.
    await finishCall(begun.story.id, turnId, "", begun.previousVersion);
    throw new NotFoundError(PLAY_TOASTS.gameNotFound.description);
  }
  return startCall({ turnId, begun, game, call, logger, release });
}

function startCall({
  turnId,
  begun,
  game,
  call,
  logger,
  release,
}: {
  turnId: string;
  begun: BegunTurn;
  game: PlayableStory;
  call: StoryCall;
  logger: Logger;
  /** Gives the call's place at the door back, when its reply has ended. */
  release: () => void;
}): EventSource {
  const config = env();
  const { story, exchange, replyId, previousVersion: restoreVersion } = begun;
  const log = logger.child({ turnId, game: game.slug, storyId: story.id, call: call.kind });

  const trackedState: TrackedState | undefined =
    game.trackedStats.length > 0 ? { stats: game.trackedStats, values: resolveState(game.trackedStats, begun.state) } : undefined;
  const stored = begun.conversation;
  // Continue goes on from the reply's text; the choices it ended with come back after (continuedReply).
  const replySoFar = call.kind === "continue" ? replyToContinue(begun.replySoFar) : begun.replySoFar;
  let context: ModelContext | undefined;
  try {
    context =
      call.kind === "continue"
        ? buildModelContext({
            brief: game,
            conversation: {
              ...stored,
              messages: [...stored.messages, { role: "user", content: begun.playerText }, { role: "assistant", content: replySoFar }],
            },
            message: CONTINUE_INSTRUCTION,
            budgetTokens: config.AI_CONTEXT_TOKENS,
            memory: story,
            trackedState,
          })
        : buildModelContext({
            brief: game,
            conversation: stored,
            message: begun.playerText,
            budgetTokens: config.AI_CONTEXT_TOKENS,
            memory: story,
            trackedState,
          });
  } catch (error) {
    void finishCall(story.id, turnId, "", restoreVersion).catch((undoError: unknown) =>
      log.error({ err: undoError }, "the call could not be undone"),
    );
    throw error;
  }
  // Exchanges the model no longer sees are folded into the story so far, after this turn.
  // (Those left out because their reply was interrupted were not dropped for the budget.)
  const keptFrom = exchange - context.keptTurns - (stored.unanswered ?? 0);

  const announcement: TurnAnnouncement = {
    storyId: story.id,
    kind: call.kind,
    exchange,
    messageId: begun.messageId,
    replyId,
    version: begun.version,
    versions: begun.versions,
    replySoFar,
    charged: begun.charged,
  };
  const live = openLiveReply(announcement);

  // The context (up to AI_CONTEXT_TOKENS of story) is handed to the model once and not kept while
  // the reply streams: with a thousand replies streaming, kept contexts were most of the memory.
  const startReply = (abortSignal: AbortSignal) => {
    if (!context) throw new Error("A call starts its reply once.");
    const { system, messages } = context;
    context = undefined;
    return streamReply({
      model: gameMasterModel(),
      system,
      messages,
      maxOutputTokens: config.AI_MAX_OUTPUT_TOKENS,
      maxRetries: MAX_RETRIES,
      abortSignal,
      // A retried reply is asked for anew: a model that would answer the same prompt the same way
      // (the offline storyteller) varies with the version.
      seed: call.kind === "retry" ? announcement.version : undefined,
    });
  };

  const stop = new AbortController();
  const generation = (async () => {
    const startedAt = performance.now();
    let firstTokenMs: number | undefined;
    let failure: unknown;
    const heartbeat = setInterval(() => live.heartbeat(), HEARTBEAT_MS);
    const releaseLease = holdTurnLease(turnId);
    // A model that does not start answering, or falls silent, for AI_TIMEOUT_MS has failed. (The
    // SDK's own first-chunk timeout only starts once response headers arrive.)
    const silence = new AbortController();
    const silenceTimer = setTimeout(
      () => silence.abort(new Error(`The model sent nothing for ${config.AI_TIMEOUT_MS} ms.`)),
      config.AI_TIMEOUT_MS,
    );
    // In a game with tracked stats the reply ends with a state block, which no one is shown.
    const stateBlock = trackedState ? new StateBlockFilter() : undefined;
    try {
      const readReply = await startReply(AbortSignal.any([stop.signal, silence.signal]));
      await readReply((delta) => {
        silenceTimer.refresh();
        firstTokenMs ??= performance.now() - startedAt;
        const prose = stateBlock ? stateBlock.push(delta) : delta;
        if (prose) live.append(prose);
      });
    } catch (error) {
      failure = error;
    } finally {
      clearInterval(heartbeat);
      releaseLease();
      clearTimeout(silenceTimer);
    }
    const heldBack = stateBlock?.end();
    if (heldBack) live.append(heldBack);
    // A block that is missing or unreadable leaves the state as it was.
    const state = trackedState && stateBlock ? applyStateChanges(trackedState.stats, trackedState.values, stateBlock.state()) : null;

    const durationMs = Math.round(performance.now() - startedAt);
    if (firstTokenMs !== undefined) gameMasterFirstToken.observe(firstTokenMs / 1000);
    const cancelled = stop.signal.aborted;
    const reply = live.text;
    const undo = { storyId: story.id, turnId, restoreVersion, log };
    if (!reply.trim()) {
      // Nothing reached the player: the call is undone and free.
      const reason = cancelled ? "cancelled" : failure ? "failed" : "empty";
      closeLiveReply(live, await refundCall(undo, { reason, failure, durationMs, modelWrote: firstTokenMs !== undefined }));
      return;
    }

    try {
      const text = call.kind === "continue" ? continuedReply(begun.replySoFar, reply) : reply;
      const finished = await finishCall(story.id, turnId, text, restoreVersion, state);
      if (finished === "settled") throw new Error("The call was settled elsewhere before its reply could be stored.");
    } catch (error) {
      // What is not in the story was not bought: the call is undone, and the player told.
      closeLiveReply(live, await refundCall(undo, { reason: "not_stored", failure: error, durationMs, modelWrote: true }));
      return;
    }
    gameMasterTurns.inc({ outcome: cancelled ? "cancelled" : failure ? "interrupted" : "completed" });
    creditsSpent.inc(begun.charged);
    if (call.kind === "turn") refreshSummaryAfterTurn(story, { keptFrom, latest: exchange }, log);
    if (failure) log.warn({ err: failure, durationMs, characters: reply.length }, "reply interrupted after text");
    else log.info({ durationMs, firstTokenMs: Math.round(firstTokenMs ?? 0), characters: reply.length }, "call complete");
    closeLiveReply(live, failure ? eventLine({ error: TURN_ERRORS.interrupted }) : DONE_LINE);
  })()
    .catch((error: unknown) => log.error({ err: error }, "call failed"))
    .finally(release);
  trackInFlight(generation, () => stop.abort(new Error("The server is shutting down.")));
  return live;
}
