/**
 * Replies being written on this instance, each watched by any number of event streams: the tab
 * that asked for it, and any tab that comes back to the story meanwhile (a reload, Back, a second
 * tab). A watcher that arrives late gets the text written so far, then follows. The stream format
 * is game-chat's (docs/spec.md §7): `data: {"content": "..."}` lines, then `data: [DONE]` or
 * `data: {"error": "..."}`; the first line says which reply it is (`{"turn": {...}}`), which
 * SPEC's clients ignore as a line without content.
 */

import type { TurnAnnouncement } from "../../lib/story-view.ts";

const encoder = new TextEncoder();

export function eventLine(payload: unknown) {
  return encoder.encode(`data: ${JSON.stringify(payload)}\n\n`);
}

export const DONE_LINE = encoder.encode("data: [DONE]\n\n");
const HEARTBEAT_LINE = encoder.encode(": keep-alive\n\n");

interface Watcher {
  controller: ReadableStreamDefaultController<Uint8Array>;
}

export class LiveReply {
  readonly turn: TurnAnnouncement;
  #text = "";
  #unsent = "";
  #flushScheduled = false;
  #ended = false;
  readonly #watchers = new Set<Watcher>();

  constructor(turn: TurnAnnouncement) {
    this.turn = turn;
  }

  get text() {
    return this.#text;
  }

  /** A new event stream on this reply: which reply it is, the text so far, then what follows. */
  watch(): ReadableStream<Uint8Array> {
    let watcher: Watcher | undefined;
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        controller.enqueue(eventLine({ turn: this.turn }));
        const written = this.#text.slice(0, this.#text.length - this.#unsent.length);
        if (written) controller.enqueue(eventLine({ content: written }));
        if (this.#ended) {
          controller.enqueue(DONE_LINE);
          controller.close();
          return;
        }
        watcher = { controller };
        this.#watchers.add(watcher);
      },
      cancel: () => {
        if (watcher) this.#watchers.delete(watcher);
      },
    });
  }

  /**
   * Text that arrived together (one network read from the model, or everything that queued while
   * the server was busy) goes out as one event: one write instead of one per token, so a loaded
   * server spends less per token the more it is loaded.
   */
  append(delta: string) {
    this.#text += delta;
    this.#unsent += delta;
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    setImmediate(() => this.#flush());
  }

  heartbeat() {
    this.#broadcast(HEARTBEAT_LINE);
  }

  /** The reply is over: what is unsent goes out, then `last`, and every stream closes. */
  end(last: Uint8Array) {
    this.#flush();
    this.#ended = true;
    this.#broadcast(last);
    for (const watcher of this.#watchers) {
      try {
        watcher.controller.close();
      } catch {
        // Already closed by a cancel racing this call.
      }
    }
    this.#watchers.clear();
  }

  #flush() {
    this.#flushScheduled = false;
    if (!this.#unsent) return;
    const line = eventLine({ content: this.#unsent });
    this.#unsent = "";
    this.#broadcast(line);
  }

  #broadcast(line: Uint8Array) {
    for (const watcher of this.#watchers) {
      try {
        watcher.controller.enqueue(line);
      } catch {
        this.#watchers.delete(watcher);
      }
    }
  }
}

const liveReplies = new Map<string, LiveReply>();

/** The reply being written in a story on this instance, if any. */
export function liveReplyIn(storyId: string): LiveReply | undefined {
  return liveReplies.get(storyId);
}

export function openLiveReply(turn: TurnAnnouncement): LiveReply {
  const reply = new LiveReply(turn);
  liveReplies.set(turn.storyId, reply);
  return reply;
}

export function closeLiveReply(reply: LiveReply, last: Uint8Array) {
  if (liveReplies.get(reply.turn.storyId) === reply) liveReplies.delete(reply.turn.storyId);
  reply.end(last);
}
