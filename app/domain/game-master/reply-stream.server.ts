import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import {
  APICallError,
  type LanguageModelV4,
  type LanguageModelV4CallOptions,
  type LanguageModelV4FinishReason,
  type LanguageModelV4Message,
  type LanguageModelV4StreamPart,
  type SharedV4ProviderOptions,
  type LanguageModelV4Usage,
} from "@ai-sdk/provider";
import type { ConversationMessage } from "./context.server.ts";

/** The first retry waits this long, as the AI SDK's own retries do. */
const RETRY_DELAY_MS = 2_000;

export const MODEL_ERROR_AT_END = "The model reported an error at the end of its reply.";

export interface ReplyRequest {
  model: LanguageModelV4;
  /** The system prompt's parts, each sent as a system message: a cache breakpoint can follow each. */
  system: string[];
  messages: ConversationMessage[];
  maxOutputTokens: number;
  /** Retries when the provider refuses before streaming (connection errors, 429, 5xx). */
  maxRetries: number;
  abortSignal: AbortSignal;
  /** Asks for a different answer to the same prompt (a retried reply). */
  seed?: number;
  /** Sent as OpenAI's prompt_cache_key: requests with the same key go to the same cache (promptCacheKey). */
  promptCacheKey?: string;
}

/**
 * A story's key for OpenAI's prompt cache: the same on every turn of the story, so its requests
 * reach the machine that holds their common beginning. A hash, so the provider never learns the
 * story's id.
 */
export function promptCacheKey(storyId: string) {
  return createHash("sha256").update(`story:${storyId}`).digest("base64url").slice(0, 32);
}

/**
 * Where Anthropic may end a cached prefix (at most four a request): after each system part and
 * after the last message before the new one. A request that repeats the previous one up to a
 * breakpoint reads that prefix from the cache (docs/decisions/055). Other providers ignore it.
 */
const CACHE_BREAKPOINT = { anthropic: { cacheControl: { type: "ephemeral" } } } satisfies SharedV4ProviderOptions;

/**
 * The request's messages with cache breakpoints: after each system part, and after the history
 * (the message before the last) — the part of this request the next turn's will repeat.
 */
function cachedPrompt(system: string[], messages: ConversationMessage[]): LanguageModelV4Message[] {
  const lastHistory = messages.length - 2;
  return [
    ...system.map((content) => ({ role: "system" as const, content, providerOptions: CACHE_BREAKPOINT })),
    ...messages.map((message, index) => ({
      role: message.role,
      content: [{ type: "text" as const, text: message.content }],
      ...(index === lastHistory ? { providerOptions: CACHE_BREAKPOINT } : {}),
    })),
  ];
}

/** How a reply finished, and what the provider says it used (none when it reported nothing). */
export interface ReplyEnd {
  finishReason: LanguageModelV4FinishReason["unified"];
  usage: LanguageModelV4Usage | undefined;
}

/**
 * Reads a reply to its end, handing each piece of text to `onText` as it arrives; resolves with
 * how the reply finished, rejects with what cut it short (the model's own error included).
 */
export type ReplyReader = (onText: (delta: string) => void) => Promise<ReplyEnd>;

/** A model that can hand its text straight to a callback, with no stream in between (the chat-completions model). */
export interface TextStreamingModel extends LanguageModelV4 {
  openTextStream(options: LanguageModelV4CallOptions): Promise<ReplyReader>;
}

function streamsText(model: LanguageModelV4): model is TextStreamingModel {
  return "openTextStream" in model;
}

/** Any other model's reply, read from the AI SDK's stream parts. */
function readParts(stream: ReadableStream<LanguageModelV4StreamPart>): ReplyReader {
  return async (onText) => {
    const reader = stream.getReader();
    try {
      const end: ReplyEnd = { finishReason: "other", usage: undefined };
      for (;;) {
        const { done, value: part } = await reader.read();
        if (done) return end;
        if (part.type === "text-delta") {
          if (part.delta) onText(part.delta);
        } else if (part.type === "error") {
          throw part.error;
        } else if (part.type === "finish") {
          if (part.finishReason.unified === "error") throw new Error(MODEL_ERROR_AT_END);
          end.finishReason = part.finishReason.unified;
          // The AI SDK's providers report cache reads and writes here (Anthropic's cache_read_input_tokens, cache_creation_input_tokens).
          end.usage = part.usage;
        }
      }
    } catch (error) {
      reader.cancel(error).catch(() => {});
      throw error;
    }
  };
}

/**
 * The reply exactly as the provider streams it (docs/decisions/011, 036): the provider already
 * parses its protocol into text, errors and the finish, which is all a turn needs. streamText
 * would wrap that in several more web streams (tee, stitching, output parsing) whose cost per token
 * dominated the server's CPU with hundreds of replies streaming. Resolves once the model has
 * begun to answer (retrying refusals before that), with the reader of its reply.
 */
export async function streamReply(request: ReplyRequest): Promise<ReplyReader> {
  const options: LanguageModelV4CallOptions = {
    prompt: cachedPrompt(request.system, request.messages),
    maxOutputTokens: request.maxOutputTokens,
    abortSignal: request.abortSignal,
    seed: request.seed,
    ...(request.promptCacheKey ? { providerOptions: { openai: { promptCacheKey: request.promptCacheKey } } } : {}),
  };
  const { model } = request;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return streamsText(model) ? await model.openTextStream(options) : readParts((await model.doStream(options)).stream);
    } catch (error) {
      const retryable = APICallError.isInstance(error) && error.isRetryable;
      if (!retryable || attempt >= request.maxRetries || request.abortSignal.aborted) throw error;
      await sleep(RETRY_DELAY_MS * 2 ** attempt, undefined, { signal: request.abortSignal });
    }
  }
}
