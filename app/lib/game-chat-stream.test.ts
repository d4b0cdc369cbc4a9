import { describe, expect, it } from "vitest";
import { parseGameChatLine, readGameChatStream } from "./game-chat-stream.ts";

function streamOf(chunks: string[]) {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function collect(chunks: string[]) {
  const events = [];
  for await (const event of readGameChatStream(streamOf(chunks))) events.push(event);
  return events;
}

describe("the game-chat stream", () => {
  it("reads content events, errors and [DONE]; ignores comments and unparseable lines", () => {
    expect(parseGameChatLine('data: {"content":"Hi"}')).toEqual({ type: "content", text: "Hi" });
    expect(parseGameChatLine('data: {"error":"Oops"}')).toEqual({ type: "error", message: "Oops" });
    expect(parseGameChatLine("data: [DONE]")).toEqual({ type: "done" });
    expect(parseGameChatLine('data: {"turn":{"replyId":7}}')).toEqual({ type: "turn", turn: { replyId: 7 } });
    for (const line of [": keep-alive", "data: {broken", "data: 42", 'data: {"other":1}', 'data: {"turn":null}', "event: x", ""]) {
      expect(parseGameChatLine(line)).toBeUndefined();
    }
  });

  it("reassembles lines split across chunks, including multi-byte characters", async () => {
    const bytes = 'data: {"content":"皇太后"}\n\n';
    const events = await collect([
      bytes.slice(0, 10),
      bytes.slice(10, 17),
      `${bytes.slice(17)}: keep-alive\n\n`,
      'data: {"content":" ok"}\r\n\r\ndata: [DONE]\n\ndata: {"content":"after"}\n\n',
    ]);
    expect(events).toEqual([{ type: "content", text: "皇太后" }, { type: "content", text: " ok" }, { type: "done" }]);
  });

  it("reads a last line without a trailing newline", async () => {
    expect(await collect(['data: {"content":"a"}\n\ndata: [DONE]'])).toEqual([{ type: "content", text: "a" }, { type: "done" }]);
  });
});
