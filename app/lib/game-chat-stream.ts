/**
 * The game-chat stream as docs/spec.md §7 describes it: lines beginning `data: `, each a JSON object with
 * `content`; `data: [DONE]` ends it; unparseable lines are ignored. Our server also sends
 * `{"turn": {...}}` first (which reply this is), `{"error": "..."}` when a call fails, and comment
 * lines (`: keep-alive`) while a model thinks.
 */
export type GameChatEvent =
  { type: "turn"; turn: unknown } | { type: "content"; text: string } | { type: "error"; message: string } | { type: "done" };

export function parseGameChatLine(line: string): GameChatEvent | undefined {
  if (!line.startsWith("data:")) return undefined;
  const data = line.slice(5).trim();
  if (data === "[DONE]") return { type: "done" };
  try {
    const value: unknown = JSON.parse(data);
    if (typeof value !== "object" || value === null) return undefined;
    if ("content" in value && typeof value.content === "string") return { type: "content", text: value.content };
    if ("turn" in value && typeof value.turn === "object" && value.turn !== null) return { type: "turn", turn: value.turn };
    if ("error" in value && typeof value.error === "string") return { type: "error", message: value.error };
  } catch {
    // SPEC: unparseable lines are ignored.
  }
  return undefined;
}

export async function* readGameChatStream(body: ReadableStream<Uint8Array>): AsyncGenerator<GameChatEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        const event = parseGameChatLine(line.replace(/\r$/, ""));
        if (event) yield event;
        if (event?.type === "done") return;
      }
    }
    const last = parseGameChatLine(buffer + decoder.decode());
    if (last) yield last;
  } finally {
    reader.releaseLock();
  }
}
