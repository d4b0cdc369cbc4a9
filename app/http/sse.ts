import { eventSourceStream, type EventSource } from "../lib/event-source.server.ts";

/**
 * A stream of server-sent events as the answer: never buffered, compressed or kept on the way. An
 * EventSource (a Game Master's reply) is written by the server straight to the player's
 * connection; its web stream is read only where no server does that.
 */
export function eventStreamResponse(events: ReadableStream<Uint8Array> | EventSource): Response {
  return new Response(events instanceof ReadableStream ? events : eventSourceStream(events), {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "private, no-cache, no-store, no-transform",
      // nginx and similar proxies would otherwise buffer the stream.
      "X-Accel-Buffering": "no",
    },
  });
}
