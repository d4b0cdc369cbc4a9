import { useEffect, useSyncExternalStore, type ReactNode } from "react";
import { placeToastsOver } from "#app/components/toast.ts";
import type { StoryView } from "#app/lib/story-view.ts";
import { cn } from "#app/lib/utils.ts";
import { ComposerPanel } from "./composer-panel.tsx";
import { FindInStory } from "./find-in-story.tsx";
import { PlayHeader } from "./play-header.tsx";
import { useReadAloudFollowsStory } from "./read-aloud-controls.tsx";
import { StateSidebar } from "./state-panel.tsx";
import { STORY_LOG_ID, StoryLog } from "./story-log.tsx";
import { StoryProvider, useStory, type PlayGame } from "./story-provider.tsx";
import { replyBeingWritten, shownStoryState } from "./story-selectors.ts";
import { useFollowLatest } from "./use-follow-latest.ts";

/** The story scrolled to its newest text, as a script the page runs while it is read. */
const SHOW_NEWEST = `var story=document.getElementById("${STORY_LOG_ID}");if(story)story.scrollTop=story.scrollHeight;`;

const noSubscription = () => () => undefined;

function PlayLayout({ nonce, notice }: { nonce: string; notice?: ReactNode }) {
  const { state, game } = useStory();
  const storyState = shownStoryState(state, game.trackedStats);
  useReadAloudFollowsStory();
  // Here, above the story and the composer: the view keeps up after the composer has taken its
  // height (children's layout effects run first), or a view at the end would look scrolled up.
  const writing = replyBeingWritten(state);
  const view = useFollowLatest({
    content: state.messages,
    resumeKey: state.follows,
    firstKey: state.messages[0]?.key,
    writingKey: writing?.key ?? null,
    continuing: Boolean(writing?.before),
  });
  // True on the server and while hydrating what it drew; false once the page is React's.
  const fromServer = useSyncExternalStore(
    noSubscription,
    () => false,
    () => true,
  );
  // Toasts over the story: neither the title and balance above it nor the composer below is covered.
  useEffect(() => (view.scroller.current ? placeToastsOver(view.scroller.current) : undefined), [view.scroller]);
  return (
    <div
      className={cn(
        "mx-auto h-[calc(100dvh-4rem)] w-full max-w-3xl",
        storyState && "lg:grid lg:max-w-[68rem] lg:grid-cols-[minmax(0,1fr)_17rem] lg:gap-2 lg:pr-4",
      )}
    >
      <div className="flex h-full min-h-0 w-full flex-col sm:px-4">
        <PlayHeader />
        {notice}
        {state.finding && state.storyId ? <FindInStory /> : null}
        <StoryLog view={view} />
        <ComposerPanel />
        {/* Run as the server's page is read, once the story has its height and before the page's
            scripts: the story is drawn at its newest text, so nothing moves when they take over.
            (A page drawn in the browser has no use for it: its layout effects do the same.) */}
        {fromServer ? <script nonce={nonce} dangerouslySetInnerHTML={{ __html: SHOW_NEWEST }} /> : null}
      </div>
      {storyState ? <StateSidebar state={storyState} /> : null}
    </div>
  );
}

/** The play screen: header, the story so far, the reply streaming in, the story controls and the composer. */
export function PlayScreen({
  nonce,
  notice,
  ...page
}: {
  game: PlayGame;
  initialStory: StoryView | null;
  offline: boolean;
  playerEmail: string;
  /** The page's script nonce (its Content-Security-Policy). */
  nonce: string;
  /** Shown under the header, above the story (a newer version of the world, to update to). */
  notice?: ReactNode;
}) {
  return (
    <StoryProvider {...page}>
      <PlayLayout nonce={nonce} notice={notice} />
    </StoryProvider>
  );
}
