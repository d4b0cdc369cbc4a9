import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import { retryWhileDatabaseBusy } from "../../db/busy.server.ts";
import { db } from "../../db/database.server.ts";
import { env } from "../../env.server.ts";
import { CREDITS_PER_MESSAGE } from "../../lib/constants.ts";
import { trackInFlight } from "../../lib/in-flight.server.ts";
import { PLAY_TOASTS, RESEND_CONFIRMATION_PATH, STORY_REFUSALS } from "../../lib/play-texts.ts";
import type { SessionUser } from "../auth.server.ts";
import { InsufficientCreditsError } from "../credits.server.ts";
import { DomainError, NotFoundError } from "../errors.server.ts";
import { enforceRateLimit } from "../rate-limit.server.ts";
import { latestStoryStates, loadStoryContext } from "../game-messages.server.ts";
import { applyStateChanges, resolveState, type StoryState } from "../../lib/tracked-stats.ts";
import {
  findOrBeginStory,
  findStory,
  refuseStoryChange,
  renewTurnLease,
  settleAbandonedTurn,
  TURN_HEARTBEAT_MS,
  TURN_LEASE_SECONDS,
  type Story,
} from "../stories.server.ts";
import { buildModelContext, type ModelContext } from "./context.server.ts";
import { StateBlockFilter } from "./state-block.server.ts";
import { CONTINUE_INSTRUCTION, type TrackedState } from "./story-brief.server.ts";
import { refreshSummaryAfterTurn } from "./story-summary.server.ts";
import { loadStoryBrief, type PlayableStory } from "./game-source.server.ts";
import type { TurnAnnouncement } from "../../lib/story-view.ts";
import { closeLiveReply, DONE_LINE, eventLine, openLiveReply } from "./live-replies.server.ts";
import { gameMasterModel } from "./model.server.ts";
import { mostCharactersWithin } from "./tokens.server.ts";
import { streamReply } from "./reply-stream.server.ts";

/**
 * A call of the Game Master on a story: a turn (the player's new message), or one of the story
 * controls — Retry (a new version of the latest reply), Continue (the latest reply extended), Edit
 * (the latest exchange replaced). Each costs one credit, debited in the same statement that
 * stores the player's message and the reply-to-be (migration 0006), before the model is called;
 * the reply that opens a story is free. The reply streams as server-sent events (`data:
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
/** Stories a player may open (their free first reply) in a minute: enough to start over, too few to farm. */
export const OPENINGS_PER_MINUTE = 3;

/**
 * What a call reads of the stored story at most: enough exchanges to fill any budget with short
 * turns, and no more characters than the budget could hold.
 */
function storyReadLimits(budgetTokens: number) {
  return { maxExchanges: Math.min(1000, Math.max(20, Math.ceil(budgetTokens / 50))), maxCharacters: mostCharactersWithin(budgetTokens) };
}

export type StoryCall =
  | { kind: "turn"; message: string }
  | { kind: "edit"; exchange: number; message: string }
  | { kind: "retry"; exchange: number }
  | { kind: "continue"; exchange: number };

export interface StoryCallRequest {
  user: SessionUser;
  /** The game of a new turn (its player's latest story), or of the story a control acts on. */
  gameSlug?: string;
  storyId?: string;
  call: StoryCall;
  logger: Logger;
}

/** What begin_story_operation answers (migration 0006). */
const beginColumns = {
  outcome: sql<"started" | "missing" | "busy" | "stale" | "insufficient">`outcome`,
  messageId: sql<number | null>`message_id`.mapWith(Number),
  replyId: sql<number>`reply_id`.mapWith(Number),
  exchange: sql<number>`exchange`,
  version: sql<number>`version`,
  versions: sql<number>`versions`,
  previousVersion: sql<number | null>`previous_version`,
  playerText: sql<string | null>`player_text`,
  replySoFar: sql<string | null>`reply_so_far`,
};

/** Finishes a call: its reply and the story state it left stored, or, with no text, the call undone. */
function finishCall(storyId: string, turnId: string, text: string, restoreVersion: number | null, state: StoryState | null = null) {
  return retryWhileDatabaseBusy(async () => {
    const [row] = await db()
      .select({ outcome: sql<"stored" | "reverted" | "settled">`outcome` })
      .from(
        sql`finish_story_operation(${storyId}::uuid, ${turnId}::uuid, ${text}, ${restoreVersion}::int, ${state ? JSON.stringify(state) : null}::jsonb)`,
      );
    return row?.outcome ?? "settled";
  });
}

/** Whether this call writes the reply that opens the story (free, and limited per minute instead). */
function opensStory(story: Story, call: StoryCall) {
  return call.kind === "turn" ? story.exchanges === 0 : call.kind !== "continue" && story.exchanges === 1;
}

/**
 * A call with the rules that come before it: a confirmed email address where the site requires
 * one, at most CHAT_TURNS_PER_MINUTE calls (and OPENINGS_PER_MINUTE free openings) a minute, a
 * playable game, a story not busy with another call. Each refusal is a typed error and costs
 * nothing. Returns the reply's event stream.
 */
export async function callGameMaster({ user, gameSlug, storyId, call, logger }: StoryCallRequest): Promise<ReadableStream<Uint8Array>> {
  const config = env();
  if (config.REQUIRE_EMAIL_VERIFICATION && !user.emailVerified) {
    throw new DomainError(
      "email_not_confirmed",
      `Please confirm your email address before playing. Open the link we sent you, or ask for a new one at ${RESEND_CONFIRMATION_PATH}.`,
      { details: { resendUrl: RESEND_CONFIRMATION_PATH } },
    );
  }
  // The story and its game, read while the rate limit is checked: a new turn names its game
  // (whose latest story it continues, begun if there is none), a control its story.
  const storyAndGame = async (): Promise<[Story, PlayableStory | undefined]> => {
    if (storyId) {
      const found = await findStory(user.id, storyId);
      // A turn that names its game and its story: the story must be of that game.
      if (gameSlug && found.gameSlug !== gameSlug) throw new NotFoundError(STORY_REFUSALS.missing);
      return [found, await loadStoryBrief(found.gameSlug)];
    }
    const game = await loadStoryBrief(gameSlug ?? "");
    if (!game) throw new NotFoundError(PLAY_TOASTS.gameNotFound.description);
    return [await findOrBeginStory(user.id, game.slug), game];
  };
  const [, [found, game]] = await Promise.all([
    enforceRateLimit(
      { name: "chat", limit: config.CHAT_TURNS_PER_MINUTE, windowMs: 60_000 },
      user.id,
      () =>
        `You are sending messages faster than the Game Master can answer: at most ${config.CHAT_TURNS_PER_MINUTE} a minute. Please wait a moment.`,
    ),
    storyAndGame(),
  ]);
  if (!game) throw new NotFoundError(PLAY_TOASTS.gameNotFound.description);
  const story = await settleAbandonedTurn(found);
  if (opensStory(story, call)) {
    await enforceRateLimit(
      { name: "opening", limit: OPENINGS_PER_MINUTE, windowMs: 60_000 },
      user.id,
      () => `You have begun ${OPENINGS_PER_MINUTE} stories in the last minute. Please wait a moment before beginning another.`,
    );
  }
  return startCall({ userId: user.id, story, game, call, logger });
}

async function startCall({
  userId,
  story,
  game,
  call,
  logger,
}: {
  userId: string;
  story: Story;
  game: PlayableStory;
  call: StoryCall;
  logger: Logger;
}): Promise<ReadableStream<Uint8Array>> {
  const config = env();
  const turnId = randomUUID();
  const log = logger.child({ turnId, game: game.slug, storyId: story.id, call: call.kind });

  const [begun] = await db()
    .select(beginColumns)
    .from(
      sql`begin_story_operation(${story.id}::uuid, ${userId}, ${turnId}::uuid, ${call.kind}, ${"exchange" in call ? call.exchange : null}::int, ${
        "message" in call ? call.message : null
      }, ${CREDITS_PER_MESSAGE}::int, ${TURN_LEASE_SECONDS}::int)`,
    );
  if (!begun) throw new Error("A story call returned nothing.");
  if (begun.outcome === "insufficient") throw new InsufficientCreditsError();
  if (begun.outcome !== "started") refuseStoryChange(begun.outcome);
  const { exchange, replyId, previousVersion: restoreVersion } = begun;

  let context: ModelContext | undefined;
  let keptFrom = 0;
  let trackedState: TrackedState | undefined;
  try {
    const [stored, states] = await Promise.all([
      loadStoryContext(story.id, exchange, storyReadLimits(config.AI_CONTEXT_TOKENS)),
      // The state this reply starts from: the previous exchange's, or for Continue the reply's own.
      game.trackedStats.length > 0 ? latestStoryStates(story.id, call.kind === "continue" ? exchange : exchange - 1, 1) : undefined,
    ]);
    if (states) trackedState = { stats: game.trackedStats, values: resolveState(game.trackedStats, states[0]) };
    const playerText = begun.playerText ?? "";
    context =
      call.kind === "continue"
        ? buildModelContext({
            brief: game,
            conversation: {
              ...stored,
              messages: [...stored.messages, { role: "user", content: playerText }, { role: "assistant", content: begun.replySoFar ?? "" }],
            },
            message: CONTINUE_INSTRUCTION,
            budgetTokens: config.AI_CONTEXT_TOKENS,
            memory: story,
            trackedState,
          })
        : buildModelContext({
            brief: game,
            conversation: stored,
            message: playerText,
            budgetTokens: config.AI_CONTEXT_TOKENS,
            memory: story,
            trackedState,
          });
    // Exchanges the model no longer sees are folded into the story so far, after this turn.
    keptFrom = exchange - context.keptTurns;
  } catch (error) {
    await finishCall(story.id, turnId, "", restoreVersion);
    throw error;
  }

  const announcement: TurnAnnouncement = {
    storyId: story.id,
    kind: call.kind,
    exchange,
    messageId: begun.messageId,
    replyId,
    version: begun.version,
    versions: begun.versions,
    replySoFar: begun.replySoFar ?? "",
  };
  const live = openLiveReply(announcement);
  const stream = live.watch();

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
    const lease = setInterval(() => {
      renewTurnLease(story.id, turnId).catch((error: unknown) => log.warn({ err: error }, "the turn's lease could not be renewed"));
    }, TURN_HEARTBEAT_MS);
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
      const parts = await startReply(AbortSignal.any([stop.signal, silence.signal]));
      for await (const part of parts) {
        silenceTimer.refresh();
        if (part.type === "text-delta" && part.delta) {
          firstTokenMs ??= performance.now() - startedAt;
          const prose = stateBlock ? stateBlock.push(part.delta) : part.delta;
          if (prose) live.append(prose);
        } else if (part.type === "error") {
          throw part.error;
        } else if (part.type === "finish" && part.finishReason.unified === "error") {
          throw new Error("The model reported an error at the end of its reply.");
        }
      }
    } catch (error) {
      failure = error;
    } finally {
      clearInterval(heartbeat);
      clearInterval(lease);
      clearTimeout(silenceTimer);
    }
    const heldBack = stateBlock?.end();
    if (heldBack) live.append(heldBack);
    // A block that is missing or unreadable leaves the state as it was.
    const state = trackedState && stateBlock ? applyStateChanges(trackedState.stats, trackedState.values, stateBlock.state()) : null;

    const durationMs = Math.round(performance.now() - startedAt);
    const reply = live.text;
    if (!reply.trim()) {
      // Nothing reached the player: the call is undone and free. An empty but successful reply
      // ends with [DONE] alone, which the client shows as SPEC's "issue generating a response".
      await finishCall(story.id, turnId, "", restoreVersion).catch((error: unknown) => log.error({ err: error }, "the call could not be undone"));
      if (failure) log.warn({ err: failure, durationMs }, "model failed before any text; call undone and refunded");
      else log.warn({ durationMs }, "model returned no text; call undone and refunded");
      closeLiveReply(live, failure ? eventLine({ error: TURN_ERRORS.refunded }) : DONE_LINE);
      return;
    }

    let stored = true;
    try {
      const finished = await finishCall(story.id, turnId, reply, restoreVersion, state);
      if (finished === "settled") throw new Error("The call was settled elsewhere before its reply could be stored.");
    } catch (error) {
      // What is not in the story was not bought: the call is undone, and the player told.
      stored = false;
      log.error({ err: error }, "the reply could not be stored; call undone and refunded");
      await finishCall(story.id, turnId, "", restoreVersion).catch((undoError: unknown) =>
        log.error({ err: undoError }, "the call could not be undone"),
      );
    }
    if (stored && call.kind === "turn") refreshSummaryAfterTurn(story, keptFrom, log);
    if (failure) log.warn({ err: failure, durationMs, characters: reply.length }, "reply interrupted after text");
    else log.info({ durationMs, firstTokenMs: Math.round(firstTokenMs ?? 0), characters: reply.length }, "call complete");
    closeLiveReply(
      live,
      !stored ? eventLine({ error: TURN_ERRORS.notStored }) : failure ? eventLine({ error: TURN_ERRORS.interrupted }) : DONE_LINE,
    );
  })().catch((error: unknown) => log.error({ err: error }, "call failed"));
  trackInFlight(generation, () => stop.abort(new Error("The server is shutting down.")));
  return stream;
}
