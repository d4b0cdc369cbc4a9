import { useEffect, useRef, useSyncExternalStore } from "react";
import { useRevalidator } from "react-router";

/**
 * The browser's side of the live channel: one EventSource on /api/credits/events per browser,
 * whose latest balance every on-screen balance, in every tab, reads through useViewerCredits(),
 * and whose story changes reach the play screen showing that story (onStoryChange()).
 */

export interface LiveCredits {
  userId: string;
  credits: number;
}

let current: LiveCredits | null = null;
const listeners = new Set<() => void>();

function setLiveCredits(value: LiveCredits | null) {
  current = value;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The last balance the server pushed (or a page published), or null before the first one. */
export function useLiveCredits(): LiveCredits | null {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}

/** A balance the server just confirmed in another answer (e.g. verify-payment), shown at once. */
export function publishViewerCredits(userId: string, credits: number) {
  setLiveCredits({ userId, credits });
}

export interface StoryChange {
  storyId: string;
  /** The story's game: a play screen whose story has not begun follows one begun in its game. */
  gameSlug: string;
  revision: number;
}

const storyListeners = new Set<(change: StoryChange) => void>();

function storyChanged(change: StoryChange) {
  for (const listener of storyListeners) listener(change);
}

/** Calls `listener` with every change of a story of this player, made in any tab or on any device; returns the unsubscribe. */
export function onStoryChange(listener: (change: StoryChange) => void): () => void {
  storyListeners.add(listener);
  return () => storyListeners.delete(listener);
}

const MAX_RETRY_DELAY_MS = 30_000;

type TabMessage =
  | { type: "credits"; userId: string; credits: number }
  | ({ type: "story"; userId: string } & StoryChange)
  | { type: "signed-out"; userId: string };

/**
 * Keeps the balance live in every tab while a player is signed in, over one stream per browser:
 * browsers allow only six HTTP/1.1 connections per host, so a stream in each of six open tabs would
 * stall every other request to the site. The tab holding a Web Lock keeps the EventSource and
 * relays what it hears to the other tabs over a BroadcastChannel; when it closes, the next tab in
 * line takes the lock and the stream over.
 */
export function useLiveCreditsStream(userId: string | undefined) {
  const { revalidate } = useRevalidator();
  const revalidateRef = useRef(revalidate);
  useEffect(() => {
    revalidateRef.current = revalidate;
  });

  useEffect(() => {
    if (!userId) return;
    const channel = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel("live-credits");
    const stopped = new AbortController();

    const signedOut = () => {
      channel?.postMessage({ type: "signed-out", userId } satisfies TabMessage);
      void revalidateRef.current();
    };
    const listeners: LiveListeners = {
      credits(credits) {
        setLiveCredits({ userId, credits });
        channel?.postMessage({ type: "credits", userId, credits } satisfies TabMessage);
      },
      story(change) {
        storyChanged(change);
        channel?.postMessage({ type: "story", userId, ...change } satisfies TabMessage);
      },
      signedOut,
    };

    channel?.addEventListener("message", (event: MessageEvent<TabMessage>) => {
      const message = event.data;
      if (message.userId !== userId) return;
      if (message.type === "credits") setLiveCredits({ userId, credits: message.credits });
      else if (message.type === "story") storyChanged({ storyId: message.storyId, gameSlug: message.gameSlug, revision: message.revision });
      else void revalidateRef.current();
    });

    if (typeof navigator.locks === "undefined" || !channel) {
      streamCredits(listeners, stopped.signal);
    } else {
      navigator.locks
        .request(`live-credits:${userId}`, { signal: stopped.signal }, () => {
          streamCredits(listeners, stopped.signal);
          return new Promise<void>((release) => stopped.signal.addEventListener("abort", () => release()));
        })
        .catch(() => {
          // Aborted while waiting in line: this tab was closed or its player signed out.
        });
    }

    return () => {
      stopped.abort();
      channel?.close();
      setLiveCredits(null);
    };
  }, [userId]);
}

/**
 * One EventSource on /api/credits/events until `signal` aborts. The browser reconnects a dropped
 * stream by itself; when the server refuses it outright (the session ended, or a proxy failed) we
 * ask whether the player is still signed in, and otherwise retry with a growing delay.
 */
interface LiveListeners {
  credits(credits: number): void;
  story(change: StoryChange): void;
  signedOut(): void;
}

function streamCredits(listeners: LiveListeners, signal: AbortSignal) {
  let source: EventSource | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;

  const connect = () => {
    source = new EventSource("/api/credits/events");
    source.addEventListener("credits", (event) => {
      failures = 0;
      listeners.credits((JSON.parse((event as MessageEvent<string>).data) as { credits: number }).credits);
    });
    source.addEventListener("story", (event) => {
      listeners.story(JSON.parse((event as MessageEvent<string>).data) as StoryChange);
    });
    source.addEventListener("error", () => {
      if (!source || source.readyState !== EventSource.CLOSED) return;
      source.close();
      failures += 1;
      void stillSignedIn().then((signedIn) => {
        if (signal.aborted) return;
        if (signedIn === false) listeners.signedOut();
        else retryTimer = setTimeout(connect, Math.min(MAX_RETRY_DELAY_MS, 1000 * 2 ** failures));
      });
    });
  };

  connect();
  signal.addEventListener("abort", () => {
    clearTimeout(retryTimer);
    source?.close();
  });
}

/** true / false from the session endpoint; undefined when the server could not be asked. */
async function stillSignedIn(): Promise<boolean | undefined> {
  try {
    const response = await fetch("/api/auth/get-session", { headers: { Accept: "application/json" } });
    if (!response.ok) return undefined;
    return (await response.json()) !== null;
  } catch {
    return undefined;
  }
}
