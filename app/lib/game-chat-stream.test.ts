import { describe, expect, it } from "vitest";
import { parseGameChatData, readGameChatStream } from "./game-chat-stream.ts";

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
  it("reads content events, errors and [DONE]; ignores unparseable data", () => {
    expect(parseGameChatData('{"content":"Hi"}')).toEqual({ type: "content", text: "Hi" });
    expect(parseGameChatData('{"error":"Oops"}')).toEqual({ type: "error", message: "Oops" });
    expect(parseGameChatData("[DONE]")).toEqual({ type: "done" });
    expect(parseGameChatData('{"turn":{"replyId":7}}')).toEqual({ type: "turn", turn: { replyId: 7 } });
    for (const data of ["{broken", "42", '{"other":1}', '{"turn":null}', ""]) {
      expect(parseGameChatData(data)).toBeUndefined();
    }
  });

  it("ignores comments, other fields and unparseable events between the ones it reads", async () => {
    expect(
      await collect([': keep-alive\n\ndata: {broken\n\ndata: 42\n\nevent: x\n\ndata: {"turn":null}\n\ndata: {"content":"a"}\n\ndata: [DONE]\n\n']),
    ).toEqual([{ type: "content", text: "a" }, { type: "done" }]);
  });

  it("reassembles lines split across chunks, including multi-byte characters", async () => {
    const bytes = 'data: {"content":"皇太后"}\n\n';
    const encoded = new TextEncoder().encode(bytes);
    // Cut inside the first character's three bytes.
    const chunks = [encoded.slice(0, 20), encoded.slice(20, 21), encoded.slice(21)];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.enqueue(
          new TextEncoder().encode(': keep-alive\n\ndata: {"content":" ok"}\r\n\r\ndata: [DONE]\n\ndata: {"content":"after"}\n\n'),
        );
        controller.close();
      },
    });
    const events = [];
    for await (const event of readGameChatStream(stream)) events.push(event);
    expect(events).toEqual([{ type: "content", text: "皇太后" }, { type: "content", text: " ok" }, { type: "done" }]);
  });

  it("reads a last line without a trailing newline", async () => {
    expect(await collect(['data: {"content":"a"}\n\ndata: [DONE]'])).toEqual([{ type: "content", text: "a" }, { type: "done" }]);
  });
});
