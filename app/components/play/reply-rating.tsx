import { X } from "lucide-react";
import { useEffect, useId, useRef, useState, useSyncExternalStore, type KeyboardEvent } from "react";
import { toast } from "#app/components/toast.ts";
import { BAD_REPLY_REASON_LABELS, BAD_REPLY_REASONS, replyRatingPath, type BadReplyReason, type ReplyRatingView } from "#app/lib/reply-ratings.ts";
import { cn } from "#app/lib/utils.ts";
import { ReplyIcon } from "./reply-icons.tsx";
import { useStory } from "./story-provider.tsx";
import type { ChatMessage } from "./story-state.ts";

export const RATING_NOT_SAVED = "Your rating could not be saved";

/** A stored reply that was written to its end: what a player may rate. */
function ratable(message: ChatMessage): message is ChatMessage & { id: number } {
  return message.role === "assistant" && message.id !== undefined && !message.local && message.status === "complete" && message.content !== "";
}

const QUIET =
  "grid size-8 place-items-center rounded-full text-parchment-dim transition-colors hover:bg-gold/10 hover:text-gold focus-visible:outline-2 focus-visible:outline-gold [&_svg]:size-3.5";
const PRESSED = "bg-gold/15 text-gold";

/**
 * Good reply / Bad reply under a reply (issue 33), for the version shown: the pressed one pressed
 * again clears the rating. After Bad reply, a short list asks what was wrong (optional): it takes
 * the focus, and Escape or Close gives it back. Each change is saved at once (shown before the
 * server answers, put back with a toast if it refuses); the ratings are the admin overview's
 * measure of how well each game and model is liked.
 */
export function ReplyRating({ message }: { message: ChatMessage }) {
  if (!ratable(message)) return null;
  // A version of its own: what a player thought of one version says nothing of another.
  return <VersionRating key={`${message.id}-${message.version}`} replyId={message.id} version={message.version} stored={message.rating ?? null} />;
}

const subscribe = () => () => {};

function VersionRating({ replyId, version, stored }: { replyId: number; version: number; stored: ReplyRatingView | null }) {
  const { state } = useStory();
  // Drawn by the server, they answer only once the page runs: until then a click would be lost, so they take none.
  const hydrated = useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
  const [rating, setRating] = useState(stored);
  const [asking, setAsking] = useState(false);
  // The story read again (another tab rated it) brings the stored rating.
  const [seen, setSeen] = useState(stored);
  if (!sameRating(stored, seen)) {
    setSeen(stored);
    setRating(stored);
  }
  const badButton = useRef<HTMLButtonElement>(null);
  const reasons = useRef<HTMLDivElement>(null);
  const sending = useRef(Promise.resolve());
  const labelId = useId();

  useEffect(() => {
    if (asking) reasons.current?.querySelector<HTMLButtonElement>("button[aria-pressed]")?.focus();
  }, [asking]);

  function save(next: ReplyRatingView | null) {
    const storyId = state.storyId;
    if (!storyId) return;
    const before = rating;
    setRating(next);
    // One change at a time, in the order made: the last one clicked is the one stored.
    sending.current = sending.current.then(async () => {
      const refusal = await send(replyRatingPath(storyId, replyId, version), next);
      if (refusal === null) return;
      setRating(before);
      toast.error(RATING_NOT_SAVED, { description: refusal });
    });
  }

  function closeReasons() {
    setAsking(false);
    badButton.current?.focus();
  }

  function chooseGood() {
    setAsking(false);
    save(rating?.rating === "good" ? null : { rating: "good", reason: null });
  }

  function chooseBad() {
    const clearing = rating?.rating === "bad";
    save(clearing ? null : { rating: "bad", reason: null });
    setAsking(!clearing);
  }

  function chooseReason(reason: BadReplyReason) {
    save({ rating: "bad", reason: rating?.reason === reason ? null : reason });
    closeReasons();
  }

  function onReasonsKey(event: KeyboardEvent) {
    if (event.key !== "Escape") return;
    event.stopPropagation();
    closeReasons();
  }

  const reason = rating?.rating === "bad" ? rating.reason : null;
  return (
    <>
      <span className="inline-flex items-center gap-0.5" role="group" aria-label="Rate this reply">
        <button
          type="button"
          disabled={!hydrated}
          aria-label="Good reply"
          title="Good reply"
          aria-pressed={rating?.rating === "good"}
          onClick={chooseGood}
          className={cn(QUIET, rating?.rating === "good" && PRESSED)}
        >
          <ReplyIcon name="good" />
        </button>
        <button
          ref={badButton}
          type="button"
          disabled={!hydrated}
          aria-label="Bad reply"
          title="Bad reply"
          aria-pressed={rating?.rating === "bad"}
          onClick={chooseBad}
          className={cn(QUIET, rating?.rating === "bad" && PRESSED)}
        >
          <ReplyIcon name="bad" />
        </button>
        {rating?.rating === "bad" && !asking ? (
          <button
            type="button"
            disabled={!hydrated}
            onClick={() => setAsking(true)}
            aria-label={reason ? `Why this reply was bad: ${BAD_REPLY_REASON_LABELS[reason]}` : "Say why this reply was bad"}
            className="min-h-8 rounded-full px-2 text-xs text-parchment-dim hover:bg-gold/10 hover:text-gold focus-visible:outline-2 focus-visible:outline-gold"
          >
            {reason ? BAD_REPLY_REASON_LABELS[reason] : "Say why"}
          </button>
        ) : null}
      </span>
      {asking ? (
        <div
          ref={reasons}
          role="group"
          aria-labelledby={labelId}
          onKeyDown={onReasonsKey}
          className="basis-full animate-slide-up rounded-xl border border-ink-line bg-ink/60 pt-1 pr-1 pb-2.5 pl-3"
        >
          <div className="flex items-center justify-between gap-2">
            <span id={labelId} className="text-xs text-parchment-dim">
              What was wrong? (optional)
            </span>
            <button type="button" aria-label="Close" title="Close (Esc)" onClick={closeReasons} className={QUIET}>
              <X aria-hidden />
            </button>
          </div>
          <div className="flex flex-wrap gap-1.5 pr-2">
            {BAD_REPLY_REASONS.map((option) => (
              <button
                key={option}
                type="button"
                aria-pressed={reason === option}
                onClick={() => chooseReason(option)}
                className={cn(
                  "min-h-8 rounded-full border border-ink-line px-3 text-xs text-parchment transition-colors hover:border-gold/60 hover:text-gold focus-visible:outline-2 focus-visible:outline-gold",
                  reason === option && "border-gold/70 bg-gold/15 text-gold",
                )}
              >
                {BAD_REPLY_REASON_LABELS[option]}
              </button>
            ))}
          </div>
        </div>
      ) : null}
    </>
  );
}

function sameRating(a: ReplyRatingView | null, b: ReplyRatingView | null) {
  return a?.rating === b?.rating && a?.reason === b?.reason;
}

/** Stores a rating (null clears it); returns null once stored, or the sentence to show when it was not. */
async function send(path: string, rating: ReplyRatingView | null): Promise<string | null> {
  try {
    const response = await fetch(
      path,
      rating
        ? { method: "PUT", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(rating) }
        : { method: "DELETE", headers: { Accept: "application/json" } },
    );
    if (response.ok) return null;
    const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
    return typeof body?.error === "string" ? body.error : "Please try again.";
  } catch {
    return "The server could not be reached. Please try again.";
  }
}
