import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChatCompletionsModel } from "./chat-completions-model.server.ts";

/**
 * The wire details servers differ in, each sent raw by a local server: the shared fake model
 * (tests/fakes) speaks the protocol one tidy way, and the game-chat tests cover that.
 */
let server: Server;
let baseURL: string;
/** Writes the response; ends it unless it returns "keep open". */
let answer: (write: (text: string) => void) => "keep open" | undefined;

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(200, { "Content-Type": "text/event-stream" });
      if (answer((text) => response.write(text)) !== "keep open") response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function parts(): Promise<LanguageModelV4StreamPart[]> {
  const model = createChatCompletionsModel({ baseURL, modelId: "m" });
  const { stream } = await model.doStream({ prompt: [{ role: "user", content: [{ type: "text", text: "Go." }] }] });
  const received: LanguageModelV4StreamPart[] = [];
  for await (const part of stream) received.push(part);
  return received;
}

const chunk = (delta: object, finishReason: string | null = null, extra: object = {}) =>
  JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra });

describe("the chat-completions stream", () => {
  it("reads CRLF line endings, comments and a stream that ends without [DONE] (llama.cpp, some proxies)", async () => {
    answer = (write) => {
      write(": keep-alive\r\n\r\n");
      write(`data: ${chunk({ role: "assistant", content: "" })}\r\n\r\ndata: ${chunk({ content: "Once " })}\r\n`);
      write(`\r\ndata: ${chunk({ content: "upon." })}\r\n\r\n`);
      write(`data: ${chunk({}, "length", { usage: { prompt_tokens: 12, completion_tokens: 2 } })}\r\n\r\n`);
    };
    const received = await parts();
    expect(received.filter((part) => part.type === "text-delta").map((part) => part.delta)).toEqual(["Once ", "upon."]);
    expect(received.at(-1)).toMatchObject({
      type: "finish",
      finishReason: { unified: "length", raw: "length" },
      usage: { inputTokens: { total: 12 }, outputTokens: { total: 2 } },
    });
  });

  it("turns an error event into an error part, so the turn keeps what came before it", async () => {
    answer = (write) => {
      write(`data: ${chunk({ content: "Half a " })}\n\n`);
      write(`data: ${JSON.stringify({ error: { message: "Upstream overloaded" } })}\n\n`);
      write("data: [DONE]\n\n");
    };
    const received = await parts();
    expect(received.map((part) => part.type)).toEqual(["stream-start", "text-start", "text-delta", "error", "text-end", "finish"]);
    expect(received.find((part) => part.type === "error")).toMatchObject({ error: { message: "Upstream overloaded" } });
  });

  it("ends the reply at [DONE] even when the server keeps the response open", async () => {
    answer = (write) => {
      write(`data: ${chunk({ content: "Done." }, "stop")}\n\ndata: [DONE]\n\n`);
      return "keep open";
    };
    const received = await parts();
    expect(received.at(-1)).toMatchObject({ type: "finish", finishReason: { unified: "stop" } });
  });
});
