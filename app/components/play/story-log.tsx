import { ArrowDown, Loader2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { choiceCost, PLAY_TEXTS, welcomeMessage } from "#app/lib/play-texts.ts";
import { splitStoryChoices } from "#app/lib/story-choices.ts";
import { ChatMessageView, ChoiceButtons } from "./chat-message.tsx";
import { RememberThis } from "./remember-this.tsx";
import { ReplyControls } from "./reply-controls.tsx";
import { useStory } from "./story-provider.tsx";
import { hasOlder, isPending, latestReply, priceOf, streamingKey } from "./story-selectors.ts";
import type { ChatMessage } from "./story-state.ts";
import type { FollowLatest } from "./use-follow-latest.ts";
import { SharedToolDescriptions } from "./control-button.tsx";
import { ReplyIconSprite } from "./reply-icons.tsx";

/** A reply's choices, each sent at once when picked; closed while the story waits, an Edit is open, or the player cannot pay. */
function StoryChoices({ choices }: { choices: string[] }) {
  const { state, client, credits } = useStory();
  const price = priceOf(state, "send");
  return (
    <ChoiceButtons
      choices={choices}
      onChoose={(choice) => void client.submit(choice)}
      disabled={isPending(state) || state.editing || credits < price}
      cost={choiceCost(price)}
    />
  );
}

/** The synthetic first message of an empty story, whose suggested answer begins it. */
function Welcome() {
  const { game } = useStory();
  const [shownAt] = useState(() => new Date().toISOString());
  return (
    <ChatMessageView message={{ role: "assistant", content: welcomeMessage(game.title, game.tagline), createdAt: shownAt, status: "complete" }}>
      <StoryChoices choices={[PLAY_TEXTS.beginChoice]} />
    </ChatMessageView>
  );
}

function StoryMessage({ message }: { message: ChatMessage }) {
  const { state } = useStory();
  // Only the newest reply offers its choices, and only while nothing is being written.
  const offersChoices = message === latestReply(state) && message === state.messages.at(-1) && !isPending(state);
  const { body, choices } = offersChoices ? splitStoryChoices(message.content) : { body: message.content, choices: [] };
  return (
    <ChatMessageView
      message={{ ...message, content: body }}
      streaming={message.key === streamingKey(state) || message.status === "streaming"}
      highlighted={state.highlighted === `${message.exchange}-${message.role}`}
      actions={<ReplyControls message={message} />}
    >
      {choices.length > 0 ? <StoryChoices choices={choices} /> : null}
    </ChatMessageView>
  );
}

export const STORY_LOG_ID = "story-log";

/**
 * The story so far, scrolling on its own: it follows the newest text while the player reads
 * there (`view`, useFollowLatest's), loads older turns as the reader nears the top (and newer
 * ones, after a jump back, near the bottom), and keeps the view still while they come in.
 */
export function StoryLog({ view }: { view: FollowLatest }) {
  const { state, client, game } = useStory();
  const { messages, loadingPage, atLatest } = state;
  const { scroller, following, onScroll, jumpToLatest, holdPlace } = view;
  const olderEdge = useRef<HTMLLIElement>(null);
  const newerEdge = useRef<HTMLLIElement>(null);
  const older = hasOlder(state);

  function loadOlder() {
    if (!older || loadingPage) return;
    holdPlace();
    void client.loadOlder();
  }

  // Older turns load as the reader nears the top; newer ones (after a jump back) near the bottom.
  useEffect(() => {
    const root = scroller.current;
    if (!root) return;
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          // Only once the reader has scrolled up: a page still settling at its newest turn loads nothing.
          if (entry.target === olderEdge.current && !following) loadOlder();
          else if (entry.target === newerEdge.current) void client.loadNewer();
        }
      },
      { root, rootMargin: "600px 0px" },
    );
    if (olderEdge.current) observer.observe(olderEdge.current);
    if (newerEdge.current) observer.observe(newerEdge.current);
    return () => observer.disconnect();
  });

  // Find in story jumped: the match comes into view.
  useEffect(() => {
    if (!state.highlighted) return;
    const frame = requestAnimationFrame(() => scroller.current?.querySelector('li[data-highlighted="true"]')?.scrollIntoView({ block: "center" }));
    return () => cancelAnimationFrame(frame);
  }, [state.highlighted, state.windowGeneration, scroller]);

  async function toLatest() {
    // Following first: the newest window is then shown scrolled to its end, not at the top where older turns would load again.
    await client.toLatest();
    jumpToLatest();
  }

  return (
    <div className="relative min-h-0 flex-1">
      <SharedToolDescriptions />
      <ReplyIconSprite />
      <div
        ref={scroller}
        id={STORY_LOG_ID}
        onScroll={onScroll}
        className="h-full overflow-y-auto overscroll-contain px-3 py-5 sm:px-2"
        aria-label={`Your story in ${game.title}`}
        role="log"
        aria-live="polite"
        aria-relevant="additions"
        tabIndex={0}
      >
        <RememberThis>
          <ol className="flex flex-col gap-5">
            {older ? (
              <li ref={olderEdge} className="flex justify-center">
                <Button variant="ghost" size="sm" onClick={loadOlder} disabled={loadingPage === "older"}>
                  {loadingPage === "older" ? <Loader2 className="animate-spin" aria-hidden /> : null}
                  Load earlier turns
                </Button>
              </li>
            ) : null}
            {messages.length === 0 && state.exchanges === 0 ? <Welcome /> : null}
            {messages.map((message) => (
              <StoryMessage key={message.key} message={message} />
            ))}
            {!atLatest ? (
              <li ref={newerEdge} className="flex justify-center">
                <Button variant="ghost" size="sm" onClick={() => void client.loadNewer()} disabled={loadingPage === "newer"}>
                  {loadingPage === "newer" ? <Loader2 className="animate-spin" aria-hidden /> : null}
                  Load later turns
                </Button>
              </li>
            ) : null}
          </ol>
        </RememberThis>
      </div>
      {!following || !atLatest ? (
        <Button
          variant="secondary"
          size="sm"
          onClick={() => void toLatest()}
          className="absolute bottom-3 left-1/2 -translate-x-1/2 shadow-lg shadow-ink"
        >
          <ArrowDown aria-hidden />
          Latest
        </Button>
      ) : null}
    </div>
  );
}
