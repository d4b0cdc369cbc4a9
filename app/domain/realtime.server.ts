import { sql } from "drizzle-orm";
import type { DatabaseConnection } from "../db/client.server.ts";
import { databaseConnection, db } from "../db/database.server.ts";
import { getBalance } from "./credits.server.ts";

/**
 * The live channel of a signed-in player. A trigger on `profiles` NOTIFYs `credits_changed` with
 * {"userId","credits"} on every balance change, and every change of a story NOTIFYs
 * `story_changed` with {"userId","storyId","revision"} (app/db/functions/announce_story_change.sql),
 * on PGlite and PostgreSQL alike; each process LISTENs once and fans the notifications out to
 * the Server-Sent-Event streams its players have open. Because the channels live in the database,
 * a change made through any instance reaches tabs connected to any other.
 */

const CREDITS_CHANNEL = "credits_changed";
const STORY_CHANNEL = "story_changed";
/** Announces "close this player's streams" (sign-out) to every instance; the payload is the user id. */
const STREAMS_CLOSED_CHANNEL = "credits_streams_closed";

export const HEARTBEAT_MS = 20_000;
/** How long a browser waits before reconnecting a dropped stream (the SSE `retry` field). */
export const RECONNECT_MS = 3_000;
/** Streams one player may hold open on one instance; opening another closes their oldest. */
export const MAX_STREAMS_PER_USER = 16;

interface Subscriber {
  credits(balance: number): void;
  story(change: StoryChange): void;
  close(): void;
}

class CreditsFeed {
  readonly #subscribers = new Map<string, Set<Subscriber>>();
  readonly ready: Promise<unknown>;

  constructor(connection: DatabaseConnection) {
    this.ready = Promise.all([
      connection.listen(CREDITS_CHANNEL, (payload) => this.#creditsChanged(payload)),
      connection.listen(STORY_CHANNEL, (payload) => this.#storyChanged(payload)),
      connection.listen(STREAMS_CLOSED_CHANNEL, (userId) => this.#closeAll(userId)),
    ]);
  }

  add(userId: string, subscriber: Subscriber) {
    let subscribers = this.#subscribers.get(userId);
    if (!subscribers) {
      subscribers = new Set();
      this.#subscribers.set(userId, subscribers);
    }
    subscribers.add(subscriber);
    if (subscribers.size > MAX_STREAMS_PER_USER) subscribers.values().next().value?.close();
    return () => {
      subscribers.delete(subscriber);
      if (subscribers.size === 0 && this.#subscribers.get(userId) === subscribers) this.#subscribers.delete(userId);
    };
  }

  get streamCount() {
    let count = 0;
    for (const subscribers of this.#subscribers.values()) count += subscribers.size;
    return count;
  }

  #creditsChanged(payload: string) {
    const change = parseCreditsChange(payload);
    if (!change) return;
    for (const subscriber of [...(this.#subscribers.get(change.userId) ?? [])]) subscriber.credits(change.credits);
  }

  #storyChanged(payload: string) {
    const change = parseStoryChange(payload);
    if (!change) return;
    for (const subscriber of [...(this.#subscribers.get(change.userId) ?? [])]) subscriber.story(change);
  }

  #closeAll(userId: string) {
    for (const subscriber of [...(this.#subscribers.get(userId) ?? [])]) subscriber.close();
  }
}

function parseCreditsChange(payload: string): { userId: string; credits: number } | undefined {
  try {
    const value = JSON.parse(payload) as { userId?: unknown; credits?: unknown };
    if (typeof value.userId === "string" && typeof value.credits === "number") return { userId: value.userId, credits: value.credits };
  } catch {
    // Not ours to interpret: the channel only ever carries the trigger's JSON.
  }
  return undefined;
}

interface StoryChange {
  userId: string;
  storyId: string;
  revision: number;
}

function parseStoryChange(payload: string): StoryChange | undefined {
  try {
    const value = JSON.parse(payload) as Partial<Record<keyof StoryChange, unknown>>;
    if (typeof value.userId === "string" && typeof value.storyId === "string" && typeof value.revision === "number") {
      return { userId: value.userId, storyId: value.storyId, revision: value.revision };
    }
  } catch {
    // Not ours to interpret: the channel only ever carries announce_story_change's JSON.
  }
  return undefined;
}

// One feed per database connection, kept on globalThis so the development server's module reloads
// reuse the LISTEN the process already holds.
const holder = globalThis as typeof globalThis & { __playAsEmpressCreditFeeds?: WeakMap<DatabaseConnection, CreditsFeed> };
const feeds = (holder.__playAsEmpressCreditFeeds ??= new WeakMap());

async function creditsFeed(): Promise<CreditsFeed> {
  const connection = databaseConnection();
  let feed = feeds.get(connection);
  if (!feed) {
    feed = new CreditsFeed(connection);
    feeds.set(connection, feed);
  }
  try {
    await feed.ready;
  } catch (error) {
    // Let the next stream try to LISTEN again rather than keep a feed that never started.
    if (feeds.get(connection) === feed) feeds.delete(connection);
    throw error;
  }
  return feed;
}

/** Live streams open on this instance. */
export function openCreditStreams(): number {
  const feed = feeds.get(databaseConnection());
  return feed?.streamCount ?? 0;
}

export interface CreditsStreamOptions {
  userId: string;
  /** The stream ends when any of these aborts: the client left, the server is shutting down. */
  signals: AbortSignal[];
  heartbeatMs?: number;
}

const encoder = new TextEncoder();

/** One SSE message: `event: credits` with `{"credits": n}`. */
export function creditsEvent(credits: number) {
  return `event: credits\ndata: ${JSON.stringify({ credits })}\n\n`;
}

/** One SSE message: `event: story` with `{"storyId", "revision"}` — the story changed; tabs showing it catch up. */
export function storyEvent({ storyId, revision }: { storyId: string; revision: number }) {
  return `event: story\ndata: ${JSON.stringify({ storyId, revision })}\n\n`;
}

/**
 * The event stream of GET /api/credits/events: the current balance at once, then
 * every change of the balance and of the player's stories, with comment heartbeats so proxies
 * keep the connection open. It ends when the client leaves, the server shuts down or the player
 * signs out (on any instance).
 */
export async function creditsEventStream({
  userId,
  signals,
  heartbeatMs = HEARTBEAT_MS,
}: CreditsStreamOptions): Promise<ReadableStream<Uint8Array<ArrayBuffer>>> {
  const feed = await creditsFeed();
  const signal = AbortSignal.any(signals);
  let finish = (_closeBody: boolean) => {};
  const stop = () => finish(true);

  const body = new ReadableStream<Uint8Array<ArrayBuffer>>({
    start(controller) {
      let open = true;
      let changed = false;
      const write = (text: string) => {
        if (open) controller.enqueue(encoder.encode(text));
      };
      const unsubscribe = feed.add(userId, {
        credits(balance) {
          changed = true;
          write(creditsEvent(balance));
        },
        story(change) {
          write(storyEvent(change));
        },
        close: () => stop(),
      });
      const heartbeat = setInterval(() => write(": heartbeat\n\n"), heartbeatMs);
      finish = (closeBody) => {
        if (!open) return;
        open = false;
        clearInterval(heartbeat);
        unsubscribe();
        signal.removeEventListener("abort", stop);
        if (closeBody) controller.close();
      };
      signal.addEventListener("abort", stop, { once: true });
      if (signal.aborted) return stop();

      write(`retry: ${RECONNECT_MS}\n\n`);
      // Subscribed first, read second: a change committed meanwhile arrives as its own event, and
      // then the balance read here may be older than it, so it is only sent when nothing came yet.
      getBalance(userId).then(
        (balance) => {
          if (!changed) write(creditsEvent(balance));
        },
        () => stop(),
      );
    },
    cancel() {
      finish(false);
    },
  });

  return body;
}

/** Ends every live stream of a player on every instance (sign-out). */
export async function closeCreditStreams(userId: string): Promise<void> {
  await db().execute(sql`select pg_notify(${STREAMS_CLOSED_CHANNEL}, ${userId})`);
}
