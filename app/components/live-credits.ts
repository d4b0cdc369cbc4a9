import { useEffect, useRef, useSyncExternalStore } from "react";
import { useRevalidator } from "react-router";

/**
 * The browser's side of the live balance: one EventSource on /api/credits/events per tab, whose
 * latest value every on-screen balance reads through useViewerCredits().
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

/**
 * Keeps this tab's balance live while a player is signed in. The browser reconnects a dropped
 * stream by itself; when the server refuses it outright (the session ended, or a proxy failed) we
 * ask whether the player is still signed in, reload the root data if not, and otherwise retry
 * with a growing delay.
 */
export function useLiveCreditsStream(userId: string | undefined) {
  const { revalidate } = useRevalidator();
  const revalidateRef = useRef(revalidate);
  useEffect(() => {
    revalidateRef.current = revalidate;
  });

  useEffect(() => {
    if (!userId) return;
    let source: EventSource | undefined;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let stopped = false;

    const connect = () => {
      source = new EventSource("/api/credits/events");
      source.addEventListener("credits", (event) => {
        failures = 0;
        const { credits } = JSON.parse((event as MessageEvent<string>).data) as { credits: number };
        setLiveCredits({ userId, credits });
      });
      source.addEventListener("error", () => {
        if (!source || source.readyState !== EventSource.CLOSED) return;
        source.close();
        failures += 1;
        void stillSignedIn().then((signedIn) => {
          if (stopped) return;
          if (signedIn === false) {
            void revalidateRef.current();
            return;
          }
          retryTimer = setTimeout(connect, Math.min(MAX_RETRY_DELAY_MS, 1000 * 2 ** failures));
        });
      });
    };

    connect();
    return () => {
      stopped = true;
      clearTimeout(retryTimer);
      source?.close();
      setLiveCredits(null);
    };
  }, [userId]);
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
