import { eq, sql } from "drizzle-orm";
import type { Logger } from "pino";
import { retryWhileDatabaseBusy } from "../../db/busy.server.ts";
import { db } from "../../db/database.server.ts";
import { preparedQuery } from "../../db/prepared.server.ts";
import { stories } from "../../db/schema.ts";
import { env } from "../../env.server.ts";
import { trackInFlight } from "../../lib/in-flight.server.ts";
import { creditsSpent, gameMasterFirstToken, gameMasterTurns } from "../../lib/metrics.server.ts";
import { continuedReply, replyToContinue } from "../../lib/story-choices.ts";
import type { ModelCallOutcome } from "../../lib/model-calls.ts";
import type { StatCheck } from "../../lib/stat-checks.ts";
import type { TurnAnnouncement } from "../../lib/story-view.ts";
import { applyStateChanges, resolveState, type StoryState } from "../../lib/tracked-stats.ts";
import { consumeRateLimit, type RateLimitRule } from "../rate-limit.server.ts";
import type { BegunTurn, Turn } from "./begun-turn.server.ts";
import { buildModelContext, type ModelContext } from "./context.server.ts";
import type { PlayableStory } from "./game-source.server.ts";
import { closeLiveReply, DONE_LINE, eventLine, openLiveReply, type LiveReply } from "./live-replies.server.ts";
import { estimatePromptTokens, modelCall, type ModelCall, type TurnCall } from "./model-calls.server.ts";
import { gameMasterModel, gameMasterModelName, type ModelName } from "./model.server.ts";
import { promptCacheKey, streamReply, type ReplyEnd } from "./reply-stream.server.ts";
import { StateBlockFilter } from "./state-block.server.ts";
import { rollCheck } from "./stat-checks.server.ts";
import { CONTINUE_INSTRUCTION, type TrackedState } from "./story-brief.server.ts";
import { refreshSummaryAfterTurn } from "./story-summary.server.ts";
import { holdTurnLease } from "./turn-leases.server.ts";

/**
 * The reply of a turn that began (turn.server.ts): the model asked with the turn's context, its
 * text streamed as server-sent events (`data: {"content": "..."}` lines, then `data: [DONE]`) to
 * every tab watching the story, and stored once complete (finish_turn.sql). The generation belongs
 * to the server, not to the connection: a player who leaves mid-reply finds it stored, or still
 * being written, when they come back. A model that fails before producing any text costs nothing
 * (the turn is undone and its credit refunded); once text was delivered the turn is paid for, and
 * what the player saw is what is stored.
 */

/** Messages sent to the player when a turn fails (the client shows SPEC's texts). */
export const TURN_ERRORS = {
  refunded: "The Game Master could not answer just now. Your credit was refunded; please try again.",
  interrupted: "The Game Master's reply was interrupted. What arrived has been kept in your story.",
  notStored: "The reply could not be saved to your story, so your credit was refunded. Please try again.",
} as const;

const HEARTBEAT_MS = 15_000;
/** Upstream retries before the first token (connection errors, 429/5xx answers). */
const MAX_RETRIES = 1;

const finishTurnQuery = preparedQuery((database) => {
  const p = sql.placeholder;
  return database
    .select({ outcome: sql<"stored" | "reverted" | "interrupted" | "settled">`outcome` })
    .from(
      sql`finish_turn(${p("storyId")}::uuid, ${p("turnId")}::uuid, ${p("text")}, ${p("restoreVersion")}::int, ${p("state")}::jsonb, ${p("modelProvider")}, ${p("model")}, ${p("call")}::jsonb,
        ${p("paidTurnsPerCredit")}::int, ${p("creatorCreditsPerDay")}::int)`,
    )
    .prepare("finish_turn");
});

/**
 * Finishes a turn: its reply stored with the story state it left and the model that wrote it, or,
 * with no text, the turn undone; either way with the record of its model call, if it made one.
 */
export function finishTurn(
  storyId: string,
  turnId: string,
  text: string,
  restoreVersion: number | null,
  { state = null, writtenBy = null, call = null }: { state?: StoryState | null; writtenBy?: ModelName | null; call?: ModelCall | null } = {},
) {
  return retryWhileDatabaseBusy(async () => {
    const [row] = await finishTurnQuery().execute({
      storyId,
      turnId,
      text,
      restoreVersion,
      state: state ? JSON.stringify(state) : null,
      modelProvider: writtenBy?.provider ?? null,
      model: writtenBy?.model ?? null,
      call: call ? JSON.stringify(call) : null,
      // A stored paid turn earns the world's creator their share (credit_world_creator.sql).
      paidTurnsPerCredit: env().CREATOR_PAID_TURNS_PER_CREDIT,
      creatorCreditsPerDay: env().CREATOR_CREDITS_PER_DAY,
    });
    return row?.outcome ?? "settled";
  });
}

/**
 * Replies a player may cause in a window that the model finished with nothing to read — only a
 * state block, an unclosed one, or no text — each refunded like any failed turn (issue 31): the
 * player steers the model there as much as the model goes there alone. Counted per player when
 * such a reply is refunded, never on the way to the model; a player at the limit is refused by
 * begin_turn (app/db/functions/begin_turn.sql), in the one round trip before the model.
 */
export const FAILED_REPLY_LIMIT: RateLimitRule = { name: "failed_reply", limit: 5, windowMs: 10 * 60_000 };

/** Why a turn that began was undone and refunded, leaving nothing in the story. */
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
  /** The model call the turn made, recorded with the refund: it cost the site all the same. */
  call: TurnCall;
}

/**
 * A turn undone and refunded: the one place where a refunded turn's outcome is known (what its
 * model turn cost is recorded here, issue 34). Returns the line that ends its reply's stream.
 */
async function refundTurn(
  { storyId, turnId, restoreVersion, log }: { storyId: string; turnId: string; restoreVersion: number | null; log: Logger },
  { reason, failure, durationMs, modelWrote, call }: Refund,
): Promise<Uint8Array> {
  if (reason === "not_stored") log.error({ err: failure }, "the reply could not be stored; turn undone and refunded");
  await finishTurn(storyId, turnId, "", restoreVersion, { call }).catch((error: unknown) =>
    log.error({ err: error }, "the turn could not be undone"),
  );
  gameMasterTurns.inc({ outcome: reason === "cancelled" ? "cancelled" : "failed" });
  if (reason === "not_stored") return eventLine({ error: TURN_ERRORS.notStored });
  if (failure) {
    log.warn({ err: failure, durationMs }, "model failed before any text; turn undone and refunded");
    return eventLine({ error: TURN_ERRORS.refunded });
  }
  log.warn(
    { durationMs },
    modelWrote
      ? "the model's reply had nothing to read (only a state block); turn undone and refunded"
      : "model returned no text; turn undone and refunded",
  );
  if (reason === "empty") await countFailedReply(storyId, log);
  // An empty but finished reply ends with [DONE] alone, which the client shows as SPEC's "issue generating a response".
  return DONE_LINE;
}

/** One more empty reply against the player whose story it is (a turn by bearer token learns who that is only in SQL). */
async function countFailedReply(storyId: string, log: Logger) {
  try {
    const [owner] = await db().select({ userId: stories.userId }).from(stories).where(eq(stories.id, storyId));
    if (owner) await consumeRateLimit(FAILED_REPLY_LIMIT, owner.userId);
  } catch (error) {
    log.error({ err: error }, "an empty reply could not be counted against its player");
  }
}

export function writeReply({
  turnId,
  begun,
  game,
  turn,
  logger,
  release,
}: {
  turnId: string;
  begun: BegunTurn;
  game: PlayableStory;
  turn: Turn;
  logger: Logger;
  /** Gives the turn's place at admission back, when its reply has ended. */
  release: () => void;
}): LiveReply {
  const config = env();
  const { story, exchange, replyId, previousVersion: restoreVersion } = begun;
  // The game's own context budget, as begin_turn.sql read the story by it.
  const budgetTokens = game.contextTokens ?? config.AI_CONTEXT_TOKENS;
  const log = logger.child({ turnId, game: game.slug, storyId: story.id, turn: turn.kind });

  const trackedState: TrackedState | undefined =
    game.trackedStats.length > 0 ? { stats: game.trackedStats, values: resolveState(game.trackedStats, begun.state) } : undefined;
  const stored = begun.conversation;
  // Continue goes on from the reply's text; the choices it ended with come back after (continuedReply).
  const replySoFar = turn.kind === "continue" ? replyToContinue(begun.replySoFar) : begun.replySoFar;
  // A Check is rolled once, when its message is sent, from the state before the reply; every
  // later call on the exchange (Retry, Continue, Edit) is told the same roll (docs/decisions/061).
  let rolled: StatCheck | undefined;
  let context: ModelContext | undefined;
  try {
    if (turn.kind === "send" && turn.check) rolled = rollCheck(game.trackedStats, trackedState?.values ?? {}, turn.check);
    const check = rolled ?? begun.playerRoll ?? undefined;
    context =
      turn.kind === "continue"
        ? buildModelContext({
            brief: game,
            conversation: {
              ...stored,
              messages: [
                ...stored.messages,
                { role: "user", content: begun.playerText, exchange },
                { role: "assistant", content: replySoFar, exchange },
              ],
            },
            message: CONTINUE_INSTRUCTION,
            budgetTokens,
            memory: story,
            trackedState,
            lore: begun.lore,
            check,
          })
        : buildModelContext({
            brief: game,
            conversation: stored,
            message: begun.playerText,
            budgetTokens,
            memory: story,
            trackedState,
            lore: begun.lore,
            check,
          });
  } catch (error) {
    void finishTurn(story.id, turnId, "", restoreVersion).catch((undoError: unknown) =>
      log.error({ err: undoError }, "the turn could not be undone"),
    );
    throw error;
  }
  // Counted now: the context is not kept while the reply streams, and a provider may report no usage.
  const estimatedInputTokens = estimatePromptTokens(context.system, context.messages);
  const { manifest } = context;
  const writtenBy = gameMasterModelName(game.model);
  // Exchanges the model no longer sees are folded into the story so far, after this turn.
  // (Those left out because their reply was interrupted were not dropped for the budget.)
  const keptFrom = exchange - context.keptTurns - (stored.unanswered ?? 0);

  const announcement: TurnAnnouncement = {
    storyId: story.id,
    kind: turn.kind,
    exchange,
    messageId: begun.messageId,
    replyId,
    version: begun.version,
    versions: begun.versions,
    replySoFar,
    charged: begun.charged,
  };
  const live = openLiveReply(announcement);

  // The context (up to the game's budget of story) is handed to the model once and not kept while
  // the reply streams: with a thousand replies streaming, kept contexts were most of the memory.
  const startReply = (abortSignal: AbortSignal) => {
    if (!context) throw new Error("A turn starts its reply once.");
    const { system, messages } = context;
    context = undefined;
    return streamReply({
      model: gameMasterModel(game.model),
      system,
      messages,
      maxOutputTokens: config.AI_MAX_OUTPUT_TOKENS,
      maxRetries: MAX_RETRIES,
      abortSignal,
      // A retried reply is asked for anew: a model that would answer the same prompt the same way
      // (the offline storyteller) varies with the version.
      seed: turn.kind === "retry" ? announcement.version : undefined,
      promptCacheKey: config.AI_PROMPT_CACHE_KEY ? promptCacheKey(story.id) : undefined,
    });
  };

  const stop = new AbortController();
  const generation = (async () => {
    const startedAt = performance.now();
    let firstTokenMs: number | undefined;
    let failure: unknown;
    let end: ReplyEnd | undefined;
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
      end = await readReply((delta) => {
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
    const call = (outcome: ModelCallOutcome): TurnCall => ({
      ...modelCall({
        kind: turn.kind,
        writtenBy,
        usage: end?.usage,
        estimatedInputTokens,
        text: reply,
        firstTokenMs,
        totalMs: durationMs,
        outcome,
      }),
      replyId,
      replyVersion: announcement.version,
      context: manifest,
      ...(rolled ? { roll: rolled } : {}),
    });
    if (!reply.trim()) {
      // Nothing reached the player: the turn is undone and free.
      const reason = cancelled ? "cancelled" : failure ? "failed" : "empty";
      closeLiveReply(live, await refundTurn(undo, { reason, failure, durationMs, modelWrote: firstTokenMs !== undefined, call: call(reason) }));
      return;
    }

    try {
      const text = turn.kind === "continue" ? continuedReply(begun.replySoFar, reply) : reply;
      const outcome = cancelled || failure ? "interrupted" : "ok";
      const finished = await finishTurn(story.id, turnId, text, restoreVersion, { state, writtenBy, call: call(outcome) });
      if (finished === "settled") throw new Error("The turn was settled elsewhere before its reply could be stored.");
    } catch (error) {
      // What is not in the story was not bought: the turn is undone, and the player told.
      closeLiveReply(
        live,
        await refundTurn(undo, { reason: "not_stored", failure: error, durationMs, modelWrote: true, call: call("not_stored") }),
      );
      return;
    }
    gameMasterTurns.inc({ outcome: cancelled ? "cancelled" : failure ? "interrupted" : "completed" });
    creditsSpent.inc(begun.charged);
    if (turn.kind === "send") refreshSummaryAfterTurn(story, { keptFrom, latest: exchange }, { model: game.model, budgetTokens }, log);
    if (failure) log.warn({ err: failure, durationMs, characters: reply.length }, "reply interrupted after text");
    else log.info({ durationMs, firstTokenMs: Math.round(firstTokenMs ?? 0), characters: reply.length }, "turn complete");
    closeLiveReply(live, failure ? eventLine({ error: TURN_ERRORS.interrupted }) : DONE_LINE);
  })()
    .catch((error: unknown) => log.error({ err: error }, "turn failed"))
    .finally(release);
  trackInFlight(generation, () => stop.abort(new Error("The server is shutting down.")));
  return live;
}
