import { readGameChatStream } from "#app/lib/game-chat-stream.ts";
import type { TurnAnnouncement } from "#app/lib/story-view.ts";

/** How a reply's stream ended: [DONE], an error event, or the connection cut. */
export type ReplyEnding = "done" | "error" | "cut";

/** Runs `flush` once per animation frame in the browser (a reply's tokens drawn together), soon elsewhere. */
function nextFrame(flush: () => void): () => void {
  if (typeof requestAnimationFrame === "function") {
    const frame = requestAnimationFrame(flush);
    return () => cancelAnimationFrame(frame);
  }
  const timer = setTimeout(flush, 16);
  return () => clearTimeout(timer);
}

/** Reads a reply's event stream: the announcement, the text in pieces (a frame's worth at a time); resolves how it ended. */
export async function followReply(
  body: ReadableStream<Uint8Array>,
  { onTurn, onText }: { onTurn: (turn: TurnAnnouncement) => void; onText: (text: string) => void },
): Promise<ReplyEnding> {
  let unsent = "";
  let cancelFrame: (() => void) | null = null;
  const flush = () => {
    cancelFrame?.();
    cancelFrame = null;
    if (unsent) onText(unsent);
    unsent = "";
  };
  try {
    for await (const event of readGameChatStream(body)) {
      if (event.type === "turn") onTurn(event.turn as TurnAnnouncement);
      else if (event.type === "content") {
        unsent += event.text;
        cancelFrame ??= nextFrame(flush);
      } else {
        flush();
        return event.type;
      }
    }
  } catch {
    // The connection dropped: what arrived is shown, and the stored story tells the rest.
  }
  flush();
  return "cut";
}
