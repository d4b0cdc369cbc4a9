import { useEffect, useRef, useSyncExternalStore } from "react";
import { useRevalidator } from "react-router";

/**
 * The browser's side of the live balance: one EventSource on /api/credits/events per browser,
 * whose latest value every on-screen balance, in every tab, reads through useViewerCredits().
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

const MAX_RETRY_DELAY_MS = 30_000;

type TabMessage = { type: "credits"; userId: string; credits: number } | { type: "signed-out"; userId: string };

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
    const onCredits = (credits: number) => {
      setLiveCredits({ userId, credits });
      channel?.postMessage({ type: "credits", userId, credits } satisfies TabMessage);
    };

    channel?.addEventListener("message", (event: MessageEvent<TabMessage>) => {
      if (event.data.userId !== userId) return;
      if (event.data.type === "credits") setLiveCredits({ userId, credits: event.data.credits });
      else void revalidateRef.current();
    });

    if (typeof navigator.locks === "undefined" || !channel) {
      streamCredits(onCredits, signedOut, stopped.signal);
    } else {
      navigator.locks
        .request(`live-credits:${userId}`, { signal: stopped.signal }, () => {
          streamCredits(onCredits, signedOut, stopped.signal);
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
function streamCredits(onCredits: (credits: number) => void, onSignedOut: () => void, signal: AbortSignal) {
  let source: EventSource | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;

  const connect = () => {
    source = new EventSource("/api/credits/events");
    source.addEventListener("credits", (event) => {
      failures = 0;
      onCredits((JSON.parse((event as MessageEvent<string>).data) as { credits: number }).credits);
    });
    source.addEventListener("error", () => {
      if (!source || source.readyState !== EventSource.CLOSED) return;
      source.close();
      failures += 1;
      void stillSignedIn().then((signedIn) => {
        if (signal.aborted) return;
        if (signedIn === false) onSignedOut();
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
