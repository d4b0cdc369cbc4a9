import { createParser } from "eventsource-parser";

/**
 * The game-chat stream as docs/spec.md §7 describes it: events `data: {"content": "..."}`;
 * `data: [DONE]` ends it; unparseable ones are ignored. Our server also sends `{"turn": {...}}`
 * first (which reply this is), `{"error": "..."}` when a call fails, and comments
 * (`: keep-alive`) while a model thinks. The event stream itself is read by eventsource-parser.
 */
export type GameChatEvent =
  { type: "turn"; turn: unknown } | { type: "content"; text: string } | { type: "error"; message: string } | { type: "done" };

/** One event's data. */
export function parseGameChatData(data: string): GameChatEvent | undefined {
  const text = data.trim();
  if (text === "[DONE]") return { type: "done" };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null) return undefined;
    if ("content" in value && typeof value.content === "string") return { type: "content", text: value.content };
    if ("turn" in value && typeof value.turn === "object" && value.turn !== null) return { type: "turn", turn: value.turn };
    if ("error" in value && typeof value.error === "string") return { type: "error", message: value.error };
  } catch {
    // SPEC: unparseable lines are ignored.
  }
  return undefined;
}

/** The stream's events up to [DONE]; stops reading (and lets the connection go) once it is there. */
export async function* readGameChatStream(body: ReadableStream<Uint8Array>): AsyncGenerator<GameChatEvent> {
  const arrived: GameChatEvent[] = [];
  const parser = createParser({
    onEvent(event) {
      const parsed = parseGameChatData(event.data);
      if (parsed) arrived.push(parsed);
    },
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      // SPEC reads lines: a last one without its newline still counts, so the end of the stream ends its event.
      parser.feed(done ? `${decoder.decode()}\n\n` : decoder.decode(value, { stream: true }));
      for (const event of arrived.splice(0)) {
        yield event;
        if (event.type === "done") return;
      }
      if (done) return;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
