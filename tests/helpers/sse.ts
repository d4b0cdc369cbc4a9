/** A Server-Sent-Events client for tests: fetch + a frame parser, no browser needed. */

export interface SseFrame {
  event?: string;
  data?: string;
  retry?: number;
  /** Comment lines (`: heartbeat`), without the colon. */
  comments: string[];
}

export interface SseConnection {
  response: Response;
  /** Every frame received so far. */
  frames: SseFrame[];
  /** The next frame (after those already taken) that matches, within `timeoutMs`. */
  next(match?: (frame: SseFrame) => boolean, timeoutMs?: number): Promise<SseFrame>;
  /** The next `credits` event's balance. */
  nextCredits(timeoutMs?: number): Promise<number>;
  /** Resolves when the server ends the stream: "ended" cleanly, or "failed" if the connection broke. */
  closed: Promise<"ended" | "failed">;
  close(): void;
}

export async function openEventStream(url: string, headers: Record<string, string> = {}): Promise<SseConnection> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { Accept: "text/event-stream", ...headers }, signal: abort.signal });
  return eventStreamOf(response, abort);
}

/** The frames of an event stream already asked for (a POST's answer); `abort` is the signal its request was sent with. */
export function eventStreamOf(response: Response, abort: AbortController): SseConnection {
  const frames: SseFrame[] = [];
  let taken = 0;
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const waiter of waiters) waiter();
  };

  const closed = (async (): Promise<"ended" | "failed"> => {
    if (!response.body) return "ended";
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk, { stream: true });
        let boundary: number;
        while ((boundary = buffer.indexOf("\n\n")) >= 0) {
          frames.push(parseFrame(buffer.slice(0, boundary)));
          buffer = buffer.slice(boundary + 2);
          notify();
        }
      }
      return "ended";
    } catch {
      return abort.signal.aborted ? "ended" : "failed";
    } finally {
      notify();
    }
  })();

  let finished = false;
  void closed.then(() => (finished = true));

  const connection: SseConnection = {
    response,
    frames,
    next(match = () => true, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          while (taken < frames.length) {
            const frame = frames[taken++]!;
            if (match(frame)) {
              cleanup();
              resolve(frame);
              return;
            }
          }
          if (finished) {
            cleanup();
            reject(new Error(`the stream ended without a matching frame; got ${JSON.stringify(frames)}`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(frames)}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async nextCredits(timeoutMs) {
      const frame = await connection.next((candidate) => candidate.event === "credits", timeoutMs);
      return (JSON.parse(frame.data ?? "{}") as { credits: number }).credits;
    },
    closed,
    close: () => abort.abort(),
  };
  return connection;
}

function parseFrame(text: string): SseFrame {
  const frame: SseFrame = { comments: [] };
  for (const line of text.split("\n")) {
    if (line.startsWith(":")) {
      frame.comments.push(line.slice(1).trim());
      continue;
    }
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") frame.event = value;
    else if (field === "data") frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
    else if (field === "retry") frame.retry = Number(value);
  }
  return frame;
}
