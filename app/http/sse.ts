/** A stream of server-sent events as the answer: never buffered, compressed or kept on the way. */
export function eventStreamResponse(stream: ReadableStream<Uint8Array>): Response {
  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "private, no-cache, no-store, no-transform",
      // nginx and similar proxies would otherwise buffer the stream.
      "X-Accel-Buffering": "no",
    },
  });
}
