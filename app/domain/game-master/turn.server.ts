import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { retryWhileDatabaseBusy } from "../../db/busy.server.ts";
import { env } from "../../env.server.ts";
import { CREDITS_PER_MESSAGE } from "../../lib/constants.ts";
import { trackInFlight } from "../../lib/in-flight.server.ts";
import { PLAY_TOASTS, RESEND_CONFIRMATION_PATH } from "../../lib/play-texts.ts";
import type { SessionUser } from "../auth.server.ts";
import { applyCreditChange } from "../credits.server.ts";
import { DomainError, NotFoundError } from "../errors.server.ts";
import { enforceRateLimit } from "../rate-limit.server.ts";
import { loadStoredConversation, storeExchange } from "../game-messages.server.ts";
import { buildModelContext, type ModelContext } from "./context.server.ts";
import { loadStoryBrief, type PlayableStory } from "./game-source.server.ts";
import { gameMasterModel } from "./model.server.ts";
import { mostCharactersWithin } from "./tokens.server.ts";
import { streamReply } from "./reply-stream.server.ts";

/**
 * One Game Master turn: one credit is debited before the model is called; the reply streams to
 * the player as server-sent events (`data: {"content": "..."}` lines, then `data: [DONE]`) and is
 * stored with the player's message once complete. The generation belongs to the server, not to
 * the connection: a player who leaves mid-reply still finds it stored. A model that fails before
 * producing any text costs nothing (the credit is refunded under the same reference); once text
 * was delivered the turn is paid for, and what the player saw is what is stored.
 */

export interface TurnRequest {
  userId: string;
  /** The game with its prompt and world content, as loadStoryBrief gives it. */
  game: PlayableStory;
  /** The player's message, already trimmed and validated. */
  message: string;
  logger: Logger;
}

/** Messages sent to the player when a turn fails (the client shows SPEC's texts). */
export const TURN_ERRORS = {
  refunded: "The Game Master could not answer just now. Your credit was refunded; please try again.",
  interrupted: "The Game Master's reply was interrupted. What arrived has been kept in your story.",
  notStored: "The reply could not be saved to your story, so your credit was refunded. Please try again.",
} as const;

const HEARTBEAT_MS = 15_000;
/** Upstream retries before the first token (connection errors, 429/5xx answers). */
const MAX_RETRIES = 1;

const encoder = new TextEncoder();

function event(payload: unknown) {
  return encoder.encode(`data: ${JSON.stringify(payload)}\n\n`);
}

const DONE = encoder.encode("data: [DONE]\n\n");
const HEARTBEAT = encoder.encode(": keep-alive\n\n");

/**
 * What a turn reads of the stored story at most: enough messages to fill any budget with short
 * turns, and no more characters than the budget could hold.
 */
function storyReadLimits(budgetTokens: number) {
  return { maxMessages: Math.min(2000, Math.max(40, Math.ceil(budgetTokens / 25))), maxCharacters: mostCharactersWithin(budgetTokens) };
}

export interface PlayRequest {
  user: SessionUser;
  gameSlug: string;
  /** The player's message, already trimmed and validated. */
  message: string;
  logger: Logger;
}

/**
 * A player's turn, with the rules that come before it: a confirmed email address where the site
 * requires one, at most CHAT_TURNS_PER_MINUTE turns a minute, a playable game. Each refusal is a
 * typed error and costs nothing.
 */
export async function playTurn({ user, gameSlug, message, logger }: PlayRequest): Promise<ReadableStream<Uint8Array>> {
  const config = env();
  if (config.REQUIRE_EMAIL_VERIFICATION && !user.emailVerified) {
    throw new DomainError(
      "email_not_confirmed",
      `Please confirm your email address before playing. Open the link we sent you, or ask for a new one at ${RESEND_CONFIRMATION_PATH}.`,
      { details: { resendUrl: RESEND_CONFIRMATION_PATH } },
    );
  }
  // Independent reads, in parallel: each turn waits on the database several times already.
  const [, game] = await Promise.all([
    enforceRateLimit(
      { name: "chat", limit: config.CHAT_TURNS_PER_MINUTE, windowMs: 60_000 },
      user.id,
      () =>
        `You are sending messages faster than the Game Master can answer: at most ${config.CHAT_TURNS_PER_MINUTE} a minute. Please wait a moment.`,
    ),
    loadStoryBrief(gameSlug),
  ]);
  if (!game) throw new NotFoundError(PLAY_TOASTS.gameNotFound.description);
  return startTurn({ userId: user.id, game, message, logger });
}

/**
 * Debits the turn's credit (throws InsufficientCreditsError, changing nothing, when the balance
 * is short), builds the model's context and starts the reply. Returns the event stream.
 */
export async function startTurn({ userId, game, message, logger }: TurnRequest): Promise<ReadableStream<Uint8Array>> {
  const config = env();
  const turnId = randomUUID();
  const reference = `turn:${turnId}`;
  const sentAt = new Date();
  const log = logger.child({ turnId, game: game.slug });

  const refund = () => retryWhileDatabaseBusy(() => applyCreditChange({ userId, delta: CREDITS_PER_MESSAGE, reason: "refund", reference }));
  // The story is read while the credit is debited; the model is called only once both are done.
  const [debit, story] = await Promise.allSettled([
    applyCreditChange({ userId, delta: -CREDITS_PER_MESSAGE, reason: "chat_message", reference }),
    loadStoredConversation(userId, game.slug, storyReadLimits(config.AI_CONTEXT_TOKENS)),
  ]);
  if (debit.status === "rejected") throw debit.reason;
  let context: ModelContext | undefined;
  try {
    if (story.status === "rejected") throw story.reason;
    context = buildModelContext({ brief: game, conversation: story.value, message, budgetTokens: config.AI_CONTEXT_TOKENS });
  } catch (error) {
    await refund();
    throw error;
  }
  // The context (up to AI_CONTEXT_TOKENS of story) is handed to the model once and not kept while
  // the reply streams: with a thousand replies streaming, kept contexts were most of the memory.
  const startReply = (abortSignal: AbortSignal) => {
    if (!context) throw new Error("A turn starts its reply once.");
    const { system, messages } = context;
    context = undefined;
    return streamReply({
      model: gameMasterModel(),
      system,
      messages,
      maxOutputTokens: config.AI_MAX_OUTPUT_TOKENS,
      maxRetries: MAX_RETRIES,
      abortSignal,
    });
  };

  let player: ReadableStreamDefaultController<Uint8Array> | undefined;
  let playerLeft = false;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      player = controller;
    },
    cancel() {
      playerLeft = true;
    },
  });
  const send = (chunk: Uint8Array) => {
    if (playerLeft || !player) return;
    try {
      player.enqueue(chunk);
    } catch {
      playerLeft = true;
    }
  };
  const finish = () => {
    if (playerLeft || !player) return;
    try {
      player.close();
    } catch {
      // Already closed by a cancel racing this call.
    }
  };

  const stop = new AbortController();
  const generation = (async () => {
    const startedAt = performance.now();
    let reply = "";
    let firstTokenMs: number | undefined;
    let failure: unknown;
    const heartbeat = setInterval(() => send(HEARTBEAT), HEARTBEAT_MS);
    // A model that does not start answering, or falls silent, for AI_TIMEOUT_MS has failed. (The
    // SDK's own first-chunk timeout only starts once response headers arrive.)
    const silence = new AbortController();
    const silenceTimer = setTimeout(
      () => silence.abort(new Error(`The model sent nothing for ${config.AI_TIMEOUT_MS} ms.`)),
      config.AI_TIMEOUT_MS,
    );
    // Text that arrived together (one network read from the model, or everything that queued
    // while the server was busy) goes to the player in one event: one write instead of one per
    // token, so a loaded server spends less per token the more it is loaded.
    let unsent = "";
    let flushScheduled = false;
    const flushText = () => {
      flushScheduled = false;
      if (!unsent) return;
      send(event({ content: unsent }));
      unsent = "";
    };
    try {
      const parts = await startReply(AbortSignal.any([stop.signal, silence.signal]));
      for await (const part of parts) {
        silenceTimer.refresh();
        if (part.type === "text-delta" && part.delta) {
          firstTokenMs ??= performance.now() - startedAt;
          reply += part.delta;
          unsent += part.delta;
          if (!flushScheduled) {
            flushScheduled = true;
            setImmediate(flushText);
          }
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
      clearTimeout(silenceTimer);
      flushText();
    }

    const durationMs = Math.round(performance.now() - startedAt);
    if (!reply.trim()) {
      // Nothing reached the player: the turn is free. An empty but successful reply ends with
      // [DONE] alone, which the client shows as SPEC's "issue generating a response" message.
      await refund().catch((error: unknown) => log.error({ err: error }, "refund failed"));
      if (failure) log.warn({ err: failure, durationMs }, "model failed before any text; credit refunded");
      else log.warn({ durationMs }, "model returned no text; credit refunded");
      send(failure ? event({ error: TURN_ERRORS.refunded }) : DONE);
      finish();
      return;
    }

    let stored = true;
    try {
      await retryWhileDatabaseBusy(() => storeExchange({ userId, gameSlug: game.slug, message, reply, sentAt }));
    } catch (error) {
      // What is not in the story was not bought: the player gets the credit back and is told.
      stored = false;
      log.error({ err: error }, "the exchange could not be stored; credit refunded");
      await refund().catch((refundError: unknown) => log.error({ err: refundError }, "refund failed"));
    }
    if (failure) log.warn({ err: failure, durationMs, characters: reply.length }, "reply interrupted after text");
    else log.info({ durationMs, firstTokenMs: Math.round(firstTokenMs ?? 0), characters: reply.length, playerLeft }, "turn complete");
    send(!stored ? event({ error: TURN_ERRORS.notStored }) : failure ? event({ error: TURN_ERRORS.interrupted }) : DONE);
    finish();
  })().catch((error: unknown) => log.error({ err: error }, "turn failed"));
  trackInFlight(generation, () => stop.abort(new Error("The server is shutting down.")));
  return stream;
}
