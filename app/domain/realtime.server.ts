import { sql } from "drizzle-orm";
import type { DatabaseConnection, Queryable } from "../db/client.server.ts";
import { databaseConnection, db } from "../db/database.server.ts";
import { getBalance } from "./credits.server.ts";
import type { SessionRef } from "./session-lookup.server.ts";

/**
 * The live channel of a signed-in player. A trigger on `profiles` NOTIFYs `credits_changed` with
 * {"userId","credits"} on every balance change, and every change of a story NOTIFYs
 * `story_changed` with {"userId","storyId","gameSlug","revision"} (app/db/functions/announce_story_change.sql),
 * on PGlite and PostgreSQL alike; each process LISTENs once and fans the notifications out to
 * the Server-Sent-Event streams its players have open. Because the channels live in the database,
 * a change made through any instance reaches tabs connected to any other.
 *
 * Every stream a player holds open — this channel, and a Game Master's reply followed as it is
 * written (game-master/live-replies.server.ts) — is kept here with the session it was opened
 * with, so that no stream outlives what allowed it (docs/decisions/045): a session signed out or
 * revoked ends its own streams, a disabled account or a password reset all of the player's, on
 * every instance (announced through the database like the changes); and a stream ends when its
 * session expires.
 */

const CREDITS_CHANNEL = "credits_changed";
const STORY_CHANNEL = "story_changed";
/** Announces "close this player's streams" (every session ended) to every instance; the payload is the user id. */
const ACCOUNT_STREAMS_CLOSED_CHANNEL = "credits_streams_closed";
/** Announces "close the streams of this session" to every instance; the payload is {"userId","sessionId"}. */
const SESSION_STREAMS_CLOSED_CHANNEL = "session_streams_closed";

export const HEARTBEAT_MS = 20_000;
/** How long a browser waits before reconnecting a dropped stream (the SSE `retry` field). */
export const RECONNECT_MS = 3_000;
/**
 * Streams of each kind one player may hold open on one instance. Opening another live channel
 * closes their oldest (a tab left open elsewhere); following another reply is refused.
 */
export const MAX_STREAMS_PER_USER = 16;

/** Whose a stream is: the player, and the session it was opened with. */
export interface StreamOwner {
  userId: string;
  session: SessionRef;
}

/** What a stream needs to be told: the balance and story changes (the live channel), or only that it must end. */
interface EventsStream {
  kind: "events";
  sessionId: string;
  credits(balance: number): void;
  story(change: StoryChange): void;
  close(): void;
}

/**
 * A reply followed as it is written: by a tab that came to the story (`reply`), or by the tab
 * whose turn it is, on its POST's own answer (`turn`).
 */
interface ReplyWatcher {
  kind: ReplyWatcherKind;
  sessionId: string;
  close(): void;
}

export type ReplyWatcherKind = "reply" | "turn";

type LiveStream = EventsStream | ReplyWatcher;

/** setTimeout's longest wait; a session lives longer, so its expiry is waited for in steps. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** Calls `callback` once `moment` has passed; returns how to cancel. Never keeps the process alive. */
function atMoment(moment: Date, callback: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    const wait = moment.getTime() - Date.now();
    timer = setTimeout(() => (Date.now() >= moment.getTime() ? callback() : arm()), Math.min(Math.max(wait, 0), LONGEST_TIMER_MS));
    timer.unref();
  };
  arm();
  return () => clearTimeout(timer);
}

class CreditsFeed {
  readonly #streams = new Map<string, Set<LiveStream>>();
  readonly ready: Promise<unknown>;

  constructor(connection: DatabaseConnection) {
    this.ready = Promise.all([
      connection.listen(
        CREDITS_CHANNEL,
        (payload) => this.#creditsChanged(payload),
        (listening) => {
          if (listening) this.#catchUp();
        },
      ),
      connection.listen(STORY_CHANNEL, (payload) => this.#storyChanged(payload)),
      connection.listen(ACCOUNT_STREAMS_CLOSED_CHANNEL, (userId) => this.#close(userId)),
      connection.listen(SESSION_STREAMS_CLOSED_CHANNEL, (payload) => {
        const ended = parseSessionEnd(payload);
        if (ended) this.#close(ended.userId, ended.sessionId);
      }),
    ]);
  }

  /** Keeps a live channel until the returned function is called; past the limit, the player's oldest one ends. */
  addEvents(owner: StreamOwner, stream: EventsStream): () => void {
    const open = this.#ofKind(owner.userId, "events");
    if (open.length >= MAX_STREAMS_PER_USER) open[0]?.close();
    return this.#keep(owner, stream);
  }

  /**
   * Keeps a reply watcher until the returned function is called; past the limit, no other tab's
   * is kept (undefined). A turn's own stream is always kept: the player has paid for it, and has
   * at most one turn in flight per story.
   */
  addReplyWatcher(owner: StreamOwner, stream: ReplyWatcher): (() => void) | undefined {
    if (stream.kind === "reply" && this.#ofKind(owner.userId, "reply").length >= MAX_STREAMS_PER_USER) return undefined;
    return this.#keep(owner, stream);
  }

  /** Keeps a stream, to be ended with its session (at its expiry at the latest). */
  #keep(owner: StreamOwner, stream: LiveStream): () => void {
    let streams = this.#streams.get(owner.userId);
    if (!streams) {
      streams = new Set();
      this.#streams.set(owner.userId, streams);
    }
    const kept = streams;
    kept.add(stream);
    const cancelExpiry = atMoment(owner.session.expiresAt, () => stream.close());
    return () => {
      cancelExpiry();
      kept.delete(stream);
      if (kept.size === 0 && this.#streams.get(owner.userId) === kept) this.#streams.delete(owner.userId);
    };
  }

  #ofKind<Kind extends LiveStream["kind"]>(userId: string, kind: Kind) {
    return [...(this.#streams.get(userId) ?? [])].filter((stream): stream is Extract<LiveStream, { kind: Kind }> => stream.kind === kind);
  }

  count(kind: LiveStream["kind"]) {
    let count = 0;
    for (const streams of this.#streams.values()) for (const stream of streams) if (stream.kind === kind) count += 1;
    return count;
  }

  #creditsChanged(payload: string) {
    const change = parseCreditsChange(payload);
    if (!change) return;
    for (const stream of this.#ofKind(change.userId, "events")) stream.credits(change.credits);
  }

  /**
   * Listening again after the database dropped the connection (a restart, a failover): changes
   * announced meanwhile reached no one, so every open live channel is sent its player's balance
   * as it is now.
   */
  #catchUp() {
    for (const [userId, streams] of this.#streams) {
      if (![...streams].some((stream) => stream.kind === "events")) continue;
      getBalance(userId).then(
        (balance) => {
          for (const stream of this.#ofKind(userId, "events")) stream.credits(balance);
        },
        () => {},
      );
    }
  }

  #storyChanged(payload: string) {
    const change = parseStoryChange(payload);
    if (!change) return;
    for (const stream of this.#ofKind(change.userId, "events")) stream.story(change);
  }

  /** Ends a player's streams: every one, or those of one session. */
  #close(userId: string, sessionId?: string) {
    for (const stream of [...(this.#streams.get(userId) ?? [])]) if (!sessionId || stream.sessionId === sessionId) stream.close();
  }
}

function parseSessionEnd(payload: string): { userId: string; sessionId: string } | undefined {
  try {
    const value = JSON.parse(payload) as { userId?: unknown; sessionId?: unknown };
    if (typeof value.userId === "string" && typeof value.sessionId === "string") return { userId: value.userId, sessionId: value.sessionId };
  } catch {
    // Not ours to interpret: the channel only ever carries closeSessionStreams's JSON.
  }
  return undefined;
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
  gameSlug: string;
  revision: number;
}

function parseStoryChange(payload: string): StoryChange | undefined {
  try {
    const value = JSON.parse(payload) as Partial<Record<keyof StoryChange, unknown>>;
    const { userId, storyId, gameSlug, revision } = value;
    if (typeof userId === "string" && typeof storyId === "string" && typeof gameSlug === "string" && typeof revision === "number") {
      return { userId, storyId, gameSlug, revision };
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

/**
 * Waits until this instance listens for sessions ending, so that a stream kept afterwards can be
 * ended with its session. A turn waits before it debits anything: its stream is then kept without
 * a failure after the player has paid.
 */
export async function liveStreamsReady(): Promise<void> {
  await creditsFeed();
}

/** Live channels open on this instance. */
export function openCreditStreams(): number {
  return feeds.get(databaseConnection())?.count("events") ?? 0;
}

/** Replies followed as they are written on this instance (live-replies.server.ts). */
export function openReplyWatchers(): number {
  return feeds.get(databaseConnection())?.count("reply") ?? 0;
}

export interface CreditsStreamOptions {
  owner: StreamOwner;
  /** The stream ends when any of these aborts: the client left, the server is shutting down. */
  signals: AbortSignal[];
  heartbeatMs?: number;
}

const encoder = new TextEncoder();

/** One SSE message: `event: credits` with `{"credits": n}`. */
export function creditsEvent(credits: number) {
  return `event: credits\ndata: ${JSON.stringify({ credits })}\n\n`;
}

/**
 * One SSE message: `event: story` with `{"storyId", "gameSlug", "revision"}` — the story changed;
 * tabs showing it catch up, and a tab of its game whose story has not begun follows it.
 */
export function storyEvent({ storyId, gameSlug, revision }: { storyId: string; gameSlug: string; revision: number }) {
  return `event: story\ndata: ${JSON.stringify({ storyId, gameSlug, revision })}\n\n`;
}

/**
 * The event stream of GET /api/credits/events: the current balance at once, then
 * every change of the balance and of the player's stories, with comment heartbeats so proxies
 * keep the connection open. It ends when the client leaves, the server shuts down, or its session
 * ends (signed out, revoked, expired; on any instance).
 */
export async function creditsEventStream({
  owner,
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
      const unsubscribe = feed.addEvents(owner, {
        kind: "events",
        sessionId: owner.session.id,
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
      getBalance(owner.userId).then(
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

/**
 * Keeps a reply watcher (live-replies.server.ts) among the player's streams, so that it ends with
 * its session: `close` is called then. Returns how to let it go, or undefined when another tab's
 * would be one more than the MAX_STREAMS_PER_USER replies the player follows on this instance.
 */
export async function keepReplyWatcher(owner: StreamOwner, kind: ReplyWatcherKind, close: () => void): Promise<(() => void) | undefined> {
  const feed = await creditsFeed();
  return feed.addReplyWatcher(owner, { kind, sessionId: owner.session.id, close });
}

/**
 * Ends every live stream of a player on every instance: every session of the account ended at
 * once (disabled). Sent in the transaction that ends them, it goes out when that commits.
 */
export async function closeAccountStreams(userId: string, database: Queryable): Promise<void> {
  await database.execute(sql`select pg_notify(${ACCOUNT_STREAMS_CLOSED_CHANNEL}, ${userId})`);
}

/** Ends the live streams of one session on every instance (signed out, revoked, or deleted with all the account's). */
export async function closeSessionStreams(userId: string, sessionId: string): Promise<void> {
  await db().execute(sql`select pg_notify(${SESSION_STREAMS_CLOSED_CHANNEL}, ${JSON.stringify({ userId, sessionId })})`);
}
