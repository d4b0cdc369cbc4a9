import { setTimeout as sleep } from "node:timers/promises";
import { APICallError, type LanguageModelV4, type LanguageModelV4Message, type LanguageModelV4StreamPart } from "@ai-sdk/provider";
import type { ConversationMessage } from "./context.server.ts";

/** The first retry waits this long, as the AI SDK's own retries do. */
const RETRY_DELAY_MS = 2_000;

export interface ReplyRequest {
  model: LanguageModelV4;
  system: string;
  messages: ConversationMessage[];
  maxOutputTokens: number;
  /** Retries when the provider refuses before streaming (connection errors, 429, 5xx). */
  maxRetries: number;
  abortSignal: AbortSignal;
  /** Asks for a different answer to the same prompt (a retried reply). */
  seed?: number;
}

/**
 * The reply exactly as the provider streams it (docs/decisions/011): the provider already parses
 * its protocol into text deltas, errors and the finish, which is all a turn needs. streamText
 * would wrap that stream in several more web streams (tee, stitching, output parsing) whose cost
 * per token dominated the server's CPU with hundreds of replies streaming.
 */
export async function streamReply(request: ReplyRequest): Promise<ReadableStream<LanguageModelV4StreamPart>> {
  const prompt: LanguageModelV4Message[] = [
    { role: "system", content: request.system },
    ...request.messages.map((message) => ({ role: message.role, content: [{ type: "text" as const, text: message.content }] })),
  ];
  for (let attempt = 0; ; attempt += 1) {
    try {
      const { stream } = await request.model.doStream({
        prompt,
        maxOutputTokens: request.maxOutputTokens,
        abortSignal: request.abortSignal,
        seed: request.seed,
      });
      return stream;
    } catch (error) {
      const retryable = APICallError.isInstance(error) && error.isRetryable;
      if (!retryable || attempt >= request.maxRetries || request.abortSignal.aborted) throw error;
      await sleep(RETRY_DELAY_MS * 2 ** attempt, undefined, { signal: request.abortSignal });
    }
  }
}
