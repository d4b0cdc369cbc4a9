import { sse, startStreamingModelServer, type FakeModelServer, type FakeUsage } from "./streaming-model.ts";

function openAIUsage(usage: FakeUsage) {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
  };
}

/**
 * A local server speaking OpenAI's chat-completions streaming protocol (`POST /v1/chat/completions`
 * with `stream: true`), as OpenAI, OpenRouter, Ollama, vLLM, llama.cpp and LM Studio do. Asked
 * with `stream_options: { include_usage: true }`, it ends with OpenAI's usage chunk (no choices),
 * unless the reply reports none.
 */
export function startOpenAICompatibleServer(): Promise<FakeModelServer> {
  let sequence = 0;
  const chunk = (model: unknown, id: string, delta: Record<string, unknown>, finishReason: string | null) =>
    sse({
      id,
      object: "chat.completion.chunk",
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    });
  const idOf = new WeakMap<object, string>();
  const id = (request: { body: object }) => {
    let value = idOf.get(request.body);
    if (!value) {
      sequence += 1;
      value = `chatcmpl-fake-${sequence}`;
      idOf.set(request.body, value);
    }
    return value;
  };

  return startStreamingModelServer({
    path: "/v1/chat/completions",
    start: (request) => [chunk(request.body.model, id(request), { role: "assistant", content: "" }, null)],
    token: (text, request) => [chunk(request.body.model, id(request), { content: text }, null)],
    finish: (request, usage) => [
      chunk(request.body.model, id(request), {}, "stop"),
      ...(usage && (request.body.stream_options as { include_usage?: boolean } | undefined)?.include_usage
        ? [sse({ id: id(request), object: "chat.completion.chunk", model: request.body.model, choices: [], usage: openAIUsage(usage) })]
        : []),
      sse("[DONE]"),
    ],
    errorBody: (status) => ({
      error: { message: `The fake model failed with ${status}.`, type: "server_error", param: null, code: null },
    }),
  });
}
