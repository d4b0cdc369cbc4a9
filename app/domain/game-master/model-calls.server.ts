import type { LanguageModelV4Usage } from "@ai-sdk/provider";
import { sql, type SQL } from "drizzle-orm";
import { db } from "../../db/database.server.ts";
import type { ContextManifest } from "../../lib/context-manifest.ts";
import type { ModelCallKind, ModelCallOutcome } from "../../lib/model-calls.ts";
import type { StatCheck } from "../../lib/stat-checks.ts";
import type { ConversationMessage } from "./context.server.ts";
import { gameMasterModel, gameMasterModelName, type ModelName } from "./model.server.ts";
import { streamReply, type ReplyEnd } from "./reply-stream.server.ts";
import { estimateMessageTokens, estimateTokens } from "./tokens.server.ts";

/**
 * A model call as record_model_call.sql stores it (issue 34, docs/decisions/056): handed as JSON
 * to the statement that finishes what the call was for, so recording costs no round trip of its own.
 */
export interface ModelCall {
  kind: ModelCallKind;
  provider: string;
  model: string;
  /** Every token sent, cached and cache writes included. */
  inputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  reasoningTokens: number | null;
  /** The provider reported no usage: the site counted the tokens itself (tokens.server.ts). */
  estimated: boolean;
  firstTokenMs: number | null;
  totalMs: number;
  outcome: ModelCallOutcome;
}

/**
 * A turn's call, as finish_turn.sql takes it: the reply (and version) it wrote and what it was sent
 * (docs/decisions/062), and on a Check's first telling the roll to store with the exchange (061).
 */
export interface TurnCall extends ModelCall {
  replyId: number;
  replyVersion: number;
  context: ContextManifest;
  roll?: StatCheck;
}

/** What a request sends, by the site's own count: for a call whose provider reports no usage. */
export function estimatePromptTokens(system: readonly string[], messages: readonly ConversationMessage[]): number {
  let tokens = 0;
  for (const part of system) tokens += estimateMessageTokens(part);
  for (const message of messages) tokens += estimateMessageTokens(message.content);
  return tokens;
}

export interface ModelCallFacts {
  kind: ModelCallKind;
  writtenBy: ModelName;
  /** What the provider reported, if it did (a call cut short never reports). */
  usage: LanguageModelV4Usage | undefined;
  /** The site's count of the request (estimatePromptTokens), used when the provider gave none. */
  estimatedInputTokens: number;
  /** Everything the model wrote (a state block no one saw included), counted when the provider gave no usage. */
  text: string;
  firstTokenMs: number | undefined;
  totalMs: number;
  outcome: ModelCallOutcome;
}

export function modelCall({ kind, writtenBy, usage, estimatedInputTokens, text, firstTokenMs, totalMs, outcome }: ModelCallFacts): ModelCall {
  const reported = usage?.inputTokens.total !== undefined && usage.outputTokens.total !== undefined ? usage : undefined;
  return {
    kind,
    provider: writtenBy.provider,
    model: writtenBy.model,
    inputTokens: reported?.inputTokens.total ?? estimatedInputTokens,
    cachedInputTokens: reported?.inputTokens.cacheRead ?? 0,
    cacheWriteTokens: reported?.inputTokens.cacheWrite ?? 0,
    outputTokens: reported?.outputTokens.total ?? estimateTokens(text),
    reasoningTokens: reported?.outputTokens.reasoning ?? null,
    estimated: !reported,
    firstTokenMs: firstTokenMs === undefined ? null : Math.round(firstTokenMs),
    totalMs: Math.round(totalMs),
    outcome,
  };
}

/** The statement recording `call` against its story (and the story's game and player). */
export function recordModelCallStatement(storyId: string, call: ModelCall): SQL {
  return sql`select record_model_call(id, game_slug, user_id, ${JSON.stringify(call)}::jsonb) from stories where id = ${storyId}`;
}

/** A call with nothing else to write (a summary that failed): recorded on its own, off any turn's way. */
export async function recordModelCall(storyId: string, call: ModelCall): Promise<void> {
  await db().execute(recordModelCallStatement(storyId, call));
}

/**
 * A model call made off a turn (a story's summary, a world's advisory rating): read to its end and
 * measured as a turn's call is, answering its text and the call to record with what it was for. A
 * call that fails is handed to `recordFailure` (nothing else is written then) and its error thrown on.
 */
export async function backgroundModelCall({
  kind,
  gameModel,
  system,
  messages,
  maxOutputTokens,
  abortSignal,
  recordFailure,
}: {
  kind: ModelCallKind;
  /** The game's model; null, the site's. */
  gameModel: string | null;
  system: string[];
  messages: ConversationMessage[];
  maxOutputTokens: number;
  abortSignal: AbortSignal;
  recordFailure: (call: ModelCall) => Promise<unknown>;
}): Promise<{ text: string; call: ModelCall }> {
  const startedAt = performance.now();
  let firstTokenMs: number | undefined;
  let text = "";
  const call = (outcome: ModelCallOutcome, end?: ReplyEnd) =>
    modelCall({
      kind,
      writtenBy: gameMasterModelName(gameModel),
      usage: end?.usage,
      estimatedInputTokens: estimatePromptTokens(system, messages),
      text,
      firstTokenMs,
      totalMs: performance.now() - startedAt,
      outcome,
    });
  try {
    const readReply = await streamReply({ model: gameMasterModel(gameModel), system, messages, maxOutputTokens, maxRetries: 1, abortSignal });
    const end = await readReply((delta) => {
      firstTokenMs ??= performance.now() - startedAt;
      text += delta;
    });
    return { text, call: call(text.trim() ? "ok" : "empty", end) };
  } catch (error) {
    await recordFailure(call(text ? "interrupted" : "failed")).catch(() => {});
    throw error;
  }
}
