/**
 * Replies being written on this instance, each watched by any number of event streams (an
 * EventSource: the server writes it to each player's response directly): the tab
 * that asked for it, and any tab that comes back to the story meanwhile (a reload, Back, a second
 * tab). A watcher that arrives late gets the text written so far, then follows. The stream format
 * is game-chat's (docs/spec.md §7): `data: {"content": "..."}` lines, then `data: [DONE]` or
 * `data: {"error": "..."}`; the first line says which reply it is (`{"turn": {...}}`), which
 * SPEC's clients ignore as a line without content.
 */

import type { EventSink, EventSource } from "../../lib/event-source.server.ts";
import type { TurnAnnouncement } from "../../lib/story-view.ts";
import { DomainError } from "../errors.server.ts";
import { keepReplyWatcher, MAX_STREAMS_PER_USER, type ReplyWatcherKind, type StreamOwner } from "../realtime.server.ts";

const encoder = new TextEncoder();

export function eventLine(payload: unknown) {
  return encoder.encode(`data: ${JSON.stringify(payload)}\n\n`);
}

export const DONE_LINE = encoder.encode("data: [DONE]\n\n");
const HEARTBEAT_LINE = encoder.encode(": keep-alive\n\n");

/** Replies with text not yet sent, all flushed by one callback after the current I/O. */
const unflushed = new Set<LiveReply>();
let flushScheduled = false;

function flushAll() {
  flushScheduled = false;
  for (const reply of unflushed) reply.flush();
  unflushed.clear();
}

export class LiveReply implements EventSource {
  readonly turn: TurnAnnouncement;
  #text = "";
  #unsent = "";
  #ended = false;
  readonly #watchers = new Set<EventSink>();

  constructor(turn: TurnAnnouncement) {
    this.turn = turn;
  }

  get text() {
    return this.#text;
  }

  /** A new watcher of this reply: which reply it is and the text so far, in one write, then what follows. */
  attach(sink: EventSink): () => void {
    const written = this.#text.slice(0, this.#text.length - this.#unsent.length);
    const opening = `data: ${JSON.stringify({ turn: this.turn })}\n\n${written ? `data: ${JSON.stringify({ content: written })}\n\n` : ""}`;
    sink.write(encoder.encode(opening));
    if (this.#ended) {
      sink.end(DONE_LINE);
      return () => {};
    }
    this.#watchers.add(sink);
    return () => this.#watchers.delete(sink);
  }

  /**
   * Text that arrived together (one network read from the model, or everything that queued while
   * the server was busy) goes out as one event: one write instead of one per token, so a loaded
   * server spends less per token the more it is loaded. One callback flushes every reply.
   */
  append(delta: string) {
    this.#text += delta;
    this.#unsent += delta;
    unflushed.add(this);
    if (flushScheduled) return;
    flushScheduled = true;
    setImmediate(flushAll);
  }

  heartbeat() {
    this.#broadcast(HEARTBEAT_LINE);
  }

  /** The reply is over: what is unsent and then `last` end every watcher's stream, in one write. */
  end(last: Uint8Array) {
    unflushed.delete(this);
    const unsent = this.#takeUnsent();
    const final = unsent ? Buffer.concat([unsent, last]) : last;
    this.#ended = true;
    for (const watcher of this.#watchers) {
      try {
        watcher.end(final);
      } catch {
        // Already gone: the watcher left at this moment.
      }
    }
    this.#watchers.clear();
  }

  flush() {
    const line = this.#takeUnsent();
    if (line) this.#broadcast(line);
  }

  #takeUnsent() {
    if (!this.#unsent) return undefined;
    const line = eventLine({ content: this.#unsent });
    this.#unsent = "";
    return line;
  }

  #broadcast(line: Uint8Array) {
    for (const watcher of this.#watchers) {
      try {
        watcher.write(line);
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

/** A player who already follows as many replies on this instance as one may (realtime.server.ts). */
export const TOO_MANY_WATCHERS_MESSAGE = `You are already following ${MAX_STREAMS_PER_USER} replies as they are written, the most one player can at once. Close some of the tabs you are playing in, then try again.`;

/**
 * A player's tab following a reply, kept among the player's live streams: the tab whose turn it is
 * (`turn`, the answer to its POST), or one that came to the story (`reply`, GET
 * /api/stories/{id}/reply). It ends when the reply ends, when the tab leaves, or when the session it
 * was asked with ends (signed out, revoked, expired) — at once, on any instance; the reply itself
 * goes on being written and stored. Past MAX_STREAMS_PER_USER replies followed at once, another
 * tab's is refused (rate_limited).
 */
export async function watchLiveReply(reply: LiveReply, owner: StreamOwner, kind: ReplyWatcherKind): Promise<EventSource> {
  let attached: { sink: EventSink; detach: () => void } | undefined;
  let ended = false;
  const release = await keepReplyWatcher(owner, kind, () => {
    letGo();
    attached?.detach();
    attached?.sink.end();
  });
  if (!release) throw new DomainError("rate_limited", TOO_MANY_WATCHERS_MESSAGE);
  /** No longer counted among the player's streams (once, whichever way the watch ends). */
  const letGo = () => {
    if (ended) return;
    ended = true;
    release();
  };
  return {
    attach(sink) {
      // Its session ended before the answer went out: it ends as it begins.
      if (ended) {
        sink.end();
        return () => {};
      }
      const detach = reply.attach({
        write: (chunk) => sink.write(chunk),
        end(last) {
          letGo();
          sink.end(last);
        },
      });
      attached = { sink, detach };
      return () => {
        detach();
        letGo();
      };
    },
    abandon: letGo,
  };
}
