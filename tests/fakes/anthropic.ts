import { sse, startStreamingModelServer, type FakeModelServer } from "./streaming-model.ts";

/** A local server speaking Anthropic's messages streaming protocol (`POST /v1/messages`, `stream: true`). */
export function startAnthropicServer(): Promise<FakeModelServer> {
  let sequence = 0;
  return startStreamingModelServer({
    path: "/v1/messages",
    start(request, usage) {
      sequence += 1;
      return [
        sse(
          {
            type: "message_start",
            message: {
              id: `msg_fake_${sequence}`,
              type: "message",
              role: "assistant",
              content: [],
              model: request.body.model,
              stop_reason: null,
              stop_sequence: null,
              // Anthropic's input_tokens leaves out what was read from or written to its cache.
              usage: usage
                ? {
                    input_tokens: usage.inputTokens - (usage.cachedInputTokens ?? 0) - (usage.cacheWriteTokens ?? 0),
                    cache_read_input_tokens: usage.cachedInputTokens ?? 0,
                    cache_creation_input_tokens: usage.cacheWriteTokens ?? 0,
                    output_tokens: 1,
                  }
                : { input_tokens: 0, output_tokens: 0 },
            },
          },
          "message_start",
        ),
        sse({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }, "content_block_start"),
        sse({ type: "ping" }, "ping"),
      ];
    },
    token: (text) => [sse({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } }, "content_block_delta")],
    finish: (_request, usage) => [
      sse({ type: "content_block_stop", index: 0 }, "content_block_stop"),
      sse(
        { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: usage?.outputTokens ?? 0 } },
        "message_delta",
      ),
      sse({ type: "message_stop" }, "message_stop"),
    ],
    errorBody: (status) => ({
      type: "error",
      error: { type: status === 529 ? "overloaded_error" : "api_error", message: `The fake model failed with ${status}.` },
    }),
  });
}
