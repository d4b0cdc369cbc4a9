import { createContext, use, useEffect, useEffectEvent, useMemo, useState, useSyncExternalStore, type ReactNode } from "react";
import { Link, useNavigate, useRevalidator } from "react-router";
import { toast } from "#app/components/toast.ts";
import { useViewerCredits } from "#app/components/use-viewer-credits.ts";
import type { StoryView } from "#app/lib/story-view.ts";
import type { TrackedStat } from "#app/lib/tracked-stats.ts";
import { createStoryClient, type StoryClient } from "./story-client.ts";
import type { PlayNotice } from "./story-refusals.ts";
import type { StoryAction, StoryScreenState } from "./story-state.ts";
import { createStoryStore } from "./story-store.ts";

/**
 * The play screen's one context, as documenso's signing provider and vercel/ai-chatbot's chat
 * providers hold theirs: the state (story-state.ts), `dispatch` for the screen's own events,
 * the client for everything that talks to the server, and what the page knows (the game, the
 * player, the balance). Every component of the screen reads it with useStory(); none takes the
 * story through its props.
 */

export interface PlayGame {
  slug: string;
  title: string;
  tagline: string | null;
  trackedStats: TrackedStat[];
}

interface StoryContextValue {
  state: StoryScreenState;
  dispatch: (action: StoryAction) => void;
  client: StoryClient;
  game: PlayGame;
  offline: boolean;
  playerEmail: string;
  /** The player's balance, live. */
  credits: number;
}

const StoryContext = createContext<StoryContextValue | null>(null);

export function useStory(): StoryContextValue {
  const value = use(StoryContext);
  if (!value) throw new Error("useStory must be used within a StoryProvider");
  return value;
}

/** docs/spec.md §8's toasts, from the client's notices. */
function showNotice(notice: PlayNotice, gameSlug: string) {
  if (notice.kind !== "needsCredits") {
    toast[notice.kind](notice.title, notice.description === undefined ? undefined : { description: notice.description });
    return;
  }
  toast.error(notice.title, {
    description: (
      <>
        {notice.description}{" "}
        <Link to={`/credits?returnTo=${encodeURIComponent(`/play/${gameSlug}`)}`} className="font-semibold text-gold underline underline-offset-2">
          Buy credits
        </Link>
      </>
    ),
  });
}

export function StoryProvider({
  game,
  initialStory,
  offline,
  playerEmail,
  children,
}: {
  game: PlayGame;
  initialStory: StoryView | null;
  offline: boolean;
  playerEmail: string;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const { revalidate } = useRevalidator();
  const [store] = useState(() => createStoryStore(initialStory));
  const [client] = useState(() => createStoryClient({ store, gameSlug: game.slug }));
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  // The client outlives renders; these reach the page as it is when they are called.
  const notify = useEffectEvent((notice: PlayNotice) => showNotice(notice, game.slug));
  const navigateTo = useEffectEvent((path: string) => navigate(path));
  const refreshBalance = useEffectEvent(() => void revalidate());
  useEffect(() => client.connect({ notify, navigate: navigateTo, refreshBalance }), [client]);
  // Back/Forward restores a page from the browser's cache as it was; a tab in the background may
  // have missed changes while its connection slept. Either way, catch up with the stored story.
  useEffect(() => {
    const page = new AbortController();
    const catchUp = (event: Event) => {
      if (event.type === "pageshow" && !(event as PageTransitionEvent).persisted) return;
      if (document.visibilityState === "visible") void client.reload();
    };
    window.addEventListener("pageshow", catchUp, { signal: page.signal });
    document.addEventListener("visibilitychange", catchUp, { signal: page.signal });
    return () => page.abort();
  }, [client]);
  const credits = useViewerCredits() ?? 0;
  const value = useMemo(
    () => ({ state, dispatch: store.dispatch, client, game, offline, playerEmail, credits }),
    [state, store, client, game, offline, playerEmail, credits],
  );
  return <StoryContext value={value}>{children}</StoryContext>;
}
