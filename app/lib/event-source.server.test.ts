import { describe, expect, it } from "vitest";
import { directEventSource, eventSourceStream, type EventSink, type EventSource } from "./event-source.server.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A source that records its watchers, and can speak to them. */
function recordingSource() {
  const sinks = new Set<EventSink>();
  const source: EventSource = {
    attach(sink) {
      sink.write(encoder.encode("data: hello\n\n"));
      sinks.add(sink);
      return () => sinks.delete(sink);
    },
  };
  return { source, sinks, say: (text: string) => sinks.forEach((sink) => sink.write(encoder.encode(text))) };
}

describe("an event source's web stream", () => {
  it("attaches only when read, then carries every write and the last words", async () => {
    const { source, sinks, say } = recordingSource();
    const stream = eventSourceStream(source);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sinks.size).toBe(0);

    const reader = stream.getReader();
    const first = await reader.read();
    expect(decoder.decode(first.value)).toBe("data: hello\n\n");
    expect(sinks.size).toBe(1);
    say("data: more\n\n");
    expect(decoder.decode((await reader.read()).value)).toBe("data: more\n\n");
    for (const sink of sinks) sink.end(encoder.encode("data: [DONE]\n\n"));
    expect(decoder.decode((await reader.read()).value)).toBe("data: [DONE]\n\n");
    expect((await reader.read()).done).toBe(true);
  });

  it("detaches when its reader cancels", async () => {
    const { source, sinks } = recordingSource();
    const reader = eventSourceStream(source).getReader();
    await reader.read();
    await reader.cancel();
    expect(sinks.size).toBe(0);
  });

  it("gives the server its source while no one reads it, and never once someone does", () => {
    const { source } = recordingSource();
    const unread = eventSourceStream(source);
    expect(directEventSource(unread)).toBe(source);
    const read = eventSourceStream(source);
    read.getReader();
    expect(directEventSource(read)).toBeUndefined();
    expect(directEventSource(new ReadableStream())).toBeUndefined();
    expect(directEventSource(null)).toBeUndefined();
  });
});
