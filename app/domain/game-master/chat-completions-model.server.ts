import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import {
  APICallError,
  UnsupportedFunctionalityError,
  type LanguageModelV4CallOptions,
  type LanguageModelV4FinishReason,
  type LanguageModelV4Prompt,
  type LanguageModelV4StreamPart,
  type LanguageModelV4Usage,
} from "@ai-sdk/provider";
import { createParser } from "eventsource-parser";
import { MODEL_ERROR_AT_END, type ReplyReader, type TextStreamingModel } from "./reply-stream.server.ts";

/**
 * OpenAI's chat-completions streaming protocol, as OpenAI, OpenRouter, Ollama, vLLM, llama.cpp and
 * LM Studio speak it, on node:http (docs/decisions/013). The AI SDK's openai-compatible provider
 * reads each token through undici and five web streams, with schema validation per chunk: about
 * 200 µs of CPU per token on the development machine, which saturated the server with a few
 * hundred replies streaming. This reads the same protocol with one parser, and hands a turn each
 * piece of text by a callback (openTextStream): no stream at all between the model's socket and
 * the player's. A Game Master needs text only: tool calls and reasoning deltas are not read.
 */

export interface ChatCompletionsSettings {
  /** e.g. https://openrouter.ai/api/v1 (the path before /chat/completions). */
  baseURL: string;
  apiKey?: string;
  modelId: string;
}

interface ChatCompletionChunk {
  choices?: { delta?: { content?: string | null } | null; finish_reason?: string | null }[];
  /** Sent in a last chunk (with no choices) when the request asks for it (stream_options.include_usage). */
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number | null } | null;
    completion_tokens_details?: { reasoning_tokens?: number | null } | null;
  } | null;
  error?: { message?: string } | string;
}

function chatMessages(prompt: LanguageModelV4Prompt) {
  return prompt.flatMap((message) => {
    if (message.role === "system") return [{ role: "system", content: message.content }];
    if (message.role === "user" || message.role === "assistant") {
      const text = message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
      return [{ role: message.role, content: text }];
    }
    return [];
  });
}

function finishReason(raw: string | undefined): LanguageModelV4FinishReason {
  switch (raw) {
    case "stop":
      return { unified: "stop", raw };
    case "length":
      return { unified: "length", raw };
    case "content_filter":
      return { unified: "content-filter", raw };
    case "tool_calls":
    case "function_call":
      return { unified: "tool-calls", raw };
    default:
      return { unified: "other", raw };
  }
}

/** The provider's usage in the AI SDK's terms; prompt_tokens counts the cached tokens too. */
function usageOf(usage: ChatCompletionChunk["usage"]): LanguageModelV4Usage {
  const input = usage?.prompt_tokens ?? undefined;
  const cached = usage?.prompt_tokens_details?.cached_tokens ?? undefined;
  const output = usage?.completion_tokens ?? undefined;
  const reasoning = usage?.completion_tokens_details?.reasoning_tokens ?? undefined;
  return {
    inputTokens: { total: input, noCache: input === undefined ? undefined : input - (cached ?? 0), cacheRead: cached, cacheWrite: undefined },
    outputTokens: { total: output, text: output === undefined ? undefined : output - (reasoning ?? 0), reasoning },
  };
}

function readBody(response: IncomingMessage) {
  return new Promise<string>((resolve) => {
    let body = "";
    response.setEncoding("utf8");
    response.on("data", (chunk: string) => (body += chunk));
    response.on("end", () => resolve(body));
    response.on("error", () => resolve(body));
  });
}

function errorMessage(body: string, status: number) {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } | string };
    const message = typeof parsed.error === "string" ? parsed.error : parsed.error?.message;
    if (message) return message;
  } catch {
    // Not JSON: the status says enough.
  }
  return `The model answered HTTP ${status}.`;
}

export function createChatCompletionsModel(settings: ChatCompletionsSettings): TextStreamingModel {
  const url = new URL(`${settings.baseURL.replace(/\/+$/, "")}/chat/completions`);
  const transport = url.protocol === "https:" ? https : http;
  const agent = new transport.Agent({ keepAlive: true });

  /** Sends the request; resolves with the response once it has answered 2xx. */
  function post(body: string, abortSignal: AbortSignal | undefined) {
    return new Promise<IncomingMessage>((resolve, reject) => {
      const request = transport.request(url, {
        method: "POST",
        agent,
        signal: abortSignal,
        headers: {
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(body),
          Accept: "text/event-stream",
          ...(settings.apiKey ? { Authorization: `Bearer ${settings.apiKey}` } : {}),
        },
      });
      request.on("response", (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) {
          // Until the reply's reader listens, an error must not go unheard (it would end the
          // process); the reader learns of it from 'close' on an incomplete response.
          response.on("error", () => {});
          resolve(response);
          return;
        }
        void readBody(response).then((responseBody) =>
          reject(
            new APICallError({
              message: errorMessage(responseBody, status),
              url: url.href,
              requestBodyValues: undefined,
              statusCode: status,
              responseBody,
            }),
          ),
        );
      });
      request.on("error", (error) => {
        if (abortSignal?.aborted) {
          reject(abortSignal.reason as Error);
          return;
        }
        // As the AI SDK does: a model that cannot be reached may answer on a second try.
        reject(
          new APICallError({
            message: `Cannot reach the model at ${url.origin}: ${error.message}`,
            url: url.href,
            requestBodyValues: undefined,
            cause: error,
            isRetryable: true,
          }),
        );
      });
      request.end(body);
    });
  }

  function requestBody(options: LanguageModelV4CallOptions) {
    // Asked for by the turn only where the server takes it (AI_PROMPT_CACHE_KEY): unknown fields break some.
    const promptCacheKey = options.providerOptions?.openai?.promptCacheKey;
    return JSON.stringify({
      model: settings.modelId,
      max_tokens: options.maxOutputTokens,
      messages: chatMessages(options.prompt),
      stream: true,
      ...(typeof promptCacheKey === "string" ? { prompt_cache_key: promptCacheKey } : {}),
      // What the call used, for its record (issue 34); servers that do not know the option ignore it.
      stream_options: { include_usage: true },
    });
  }

  async function doStream(options: LanguageModelV4CallOptions) {
    const body = requestBody(options);
    const response = await post(body, options.abortSignal);
    return { stream: replyParts(response, options.abortSignal), request: { body } };
  }

  async function openTextStream(options: LanguageModelV4CallOptions) {
    const response = await post(requestBody(options), options.abortSignal);
    return replyText(response, options.abortSignal);
  }

  return {
    openTextStream,
    specificationVersion: "v4",
    provider: "openai-compatible.chat",
    modelId: settings.modelId,
    supportedUrls: {},
    doStream,
    // A Game Master only streams.
    doGenerate() {
      throw new UnsupportedFunctionalityError({ functionality: "doGenerate", message: "This model only streams (doStream)." });
    },
  };
}

/** What a chat-completions stream says, as it says it. */
interface ChatCompletionsListener {
  text(delta: string): void;
  /** An event that reports an error, or is not JSON: the stream may go on. */
  error(error: Error): void;
  /** The stream ended whole. */
  end(finishReason: LanguageModelV4FinishReason, usage: LanguageModelV4Usage): void;
  /** The stream was cut, or the request aborted. */
  fail(error: unknown): void;
}

/** Reads a chat-completions event stream, calling `listener` as events arrive; returns how to stop reading. */
function readChatCompletions(response: IncomingMessage, abortSignal: AbortSignal | undefined, listener: ChatCompletionsListener) {
  let rawFinishReason: string | undefined;
  let usage: ChatCompletionChunk["usage"];
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    listener.end(finishReason(rawFinishReason), usageOf(usage));
  };
  const fail = (error: unknown) => {
    if (ended) return;
    ended = true;
    listener.fail(error);
  };
  const parser = createParser({
    onEvent(event) {
      if (ended) return;
      if (event.data === "[DONE]") {
        end();
        return;
      }
      let chunk: ChatCompletionChunk;
      try {
        chunk = JSON.parse(event.data) as ChatCompletionChunk;
      } catch {
        listener.error(new Error(`The model sent an event that is not JSON: ${event.data.slice(0, 200)}`));
        return;
      }
      if (chunk.error) {
        listener.error(new Error(typeof chunk.error === "string" ? chunk.error : (chunk.error.message ?? "The model reported an error.")));
        rawFinishReason = "error";
        return;
      }
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices?.[0];
      const content = choice?.delta?.content;
      if (content) listener.text(content);
      if (choice?.finish_reason) rawFinishReason = choice.finish_reason;
    },
  });
  response.setEncoding("utf8");
  response.on("data", (text: string) => parser.feed(text));
  // Some servers end the stream without [DONE]: a complete response still ends the reply.
  response.on("end", end);
  response.on("error", (error) => fail(abortSignal?.aborted ? abortSignal.reason : error));
  response.on("close", () => {
    if (!response.complete) fail(abortSignal?.aborted ? abortSignal.reason : new Error("The model's stream was cut before it finished."));
  });
  return () => {
    ended = true;
    response.destroy();
  };
}

/** Usage only when the server reported it (a server may ignore stream_options). */
function reportedUsage(usage: LanguageModelV4Usage) {
  return usage.inputTokens.total === undefined && usage.outputTokens.total === undefined ? undefined : usage;
}

/** The reply's text straight to a callback: what a turn reads, with nothing between socket and turn. */
function replyText(response: IncomingMessage, abortSignal: AbortSignal | undefined): ReplyReader {
  return (onText) =>
    new Promise((resolve, reject) => {
      const stop = readChatCompletions(response, abortSignal, {
        text: onText,
        error(error) {
          stop();
          reject(error);
        },
        end: (reason, usage) =>
          reason.unified === "error"
            ? reject(new Error(MODEL_ERROR_AT_END))
            : resolve({ finishReason: reason.unified, usage: reportedUsage(usage) }),
        fail: reject,
      });
    });
}

/** The reply's events as the AI SDK's stream parts, for anything that reads a LanguageModelV4. */
function replyParts(response: IncomingMessage, abortSignal: AbortSignal | undefined): ReadableStream<LanguageModelV4StreamPart> {
  let stop = () => {};
  return new ReadableStream<LanguageModelV4StreamPart>({
    start(controller) {
      controller.enqueue({ type: "stream-start", warnings: [] });
      let textStarted = false;
      stop = readChatCompletions(response, abortSignal, {
        text(delta) {
          if (!textStarted) {
            textStarted = true;
            controller.enqueue({ type: "text-start", id: "text" });
          }
          controller.enqueue({ type: "text-delta", id: "text", delta });
          if ((controller.desiredSize ?? 1) <= 0) response.pause();
        },
        error: (error) => controller.enqueue({ type: "error", error }),
        end(reason, usage) {
          if (textStarted) controller.enqueue({ type: "text-end", id: "text" });
          controller.enqueue({ type: "finish", finishReason: reason, usage });
          controller.close();
        },
        fail: (error) => controller.error(error),
      });
    },
    pull() {
      response.resume();
    },
    cancel() {
      stop();
    },
  });
}
