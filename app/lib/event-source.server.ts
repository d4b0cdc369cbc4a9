/**
 * An event stream that writes to whoever watches it (docs/decisions/036). The server hands a
 * watcher the Node response itself, so a Game Master's reply goes from the model's socket to the
 * player's in one write per event; anything else reads it as a web ReadableStream (sse.ts).
 */

/** Where an event stream's bytes go: a Node response, or a web stream's controller. */
export interface EventSink {
  write(chunk: Uint8Array): void;
  /** The stream is over, after `last` (given to end, it leaves with the end of the response in one write). */
  end(last?: Uint8Array): void;
}

/** Something that writes event-stream bytes to each sink attached to it, until it ends. */
export interface EventSource {
  /** Starts writing to `sink` (at once: who is speaking, what was said so far); returns how to stop. */
  attach(sink: EventSink): () => void;
  /** The stream was given up before anyone attached to it (the client left before the answer went out). */
  abandon?(): void;
}

/** Event-stream bodies the server may write to the Node response directly, past the web stream. */
const directSources = new WeakMap<ReadableStream<Uint8Array>, EventSource>();

/**
 * The web stream of an event source: it attaches only when first read, so a server that takes
 * the source directly (directEventSource) leaves it unread and it costs nothing.
 */
export function eventSourceStream(source: EventSource): ReadableStream<Uint8Array> {
  let detach: (() => void) | undefined;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        detach ??= source.attach({
          write: (chunk) => controller.enqueue(chunk),
          end(last) {
            if (last) controller.enqueue(last);
            controller.close();
          },
        });
      },
      cancel() {
        if (detach) detach();
        else source.abandon?.();
      },
    },
    // Nothing is pulled before a reader asks.
    { highWaterMark: 0 },
  );
  directSources.set(stream, source);
  return stream;
}

/** The source behind a response body made by eventSourceStream, when no one has read it yet. */
export function directEventSource(body: ReadableStream<Uint8Array> | null): EventSource | undefined {
  if (!body || body.locked) return undefined;
  return directSources.get(body);
}
