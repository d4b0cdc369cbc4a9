import { CircleAlert } from "lucide-react";
import { useId } from "react";
import { Markdown } from "#app/components/markdown.tsx";
import { PLAY_TEXTS } from "#app/lib/play-texts.ts";
import { rollLine } from "#app/lib/stat-checks.ts";
import { cn } from "#app/lib/utils.ts";
import { LocalTime } from "./local-time.tsx";
import { ReplyIcon } from "./reply-icons.tsx";
import type { ChatMessage } from "./story-state.ts";

export function GameMasterAvatar() {
  return (
    <span aria-hidden className="mt-1 grid size-8 shrink-0 place-items-center rounded-full border border-gold/60 bg-ink-raised text-gold">
      <ReplyIcon name="crown" className="size-4" />
    </span>
  );
}

export function ThinkingIndicator() {
  return (
    <p role="status" className="flex items-center gap-2 text-parchment-dim">
      <span className="flex gap-1" aria-hidden>
        {[0, 1, 2].map((dot) => (
          <span key={dot} className="size-1.5 animate-pulse rounded-full bg-gold" style={{ animationDelay: `${dot * 180}ms` }} />
        ))}
      </span>
      {PLAY_TEXTS.thinking}
    </p>
  );
}

/**
 * A message's time, filled in once the page runs in the browser (local-time.tsx): its room is kept
 * from the first paint, and the controls beside it stand on its far side, so nothing moves then.
 */
const TIME = "block min-h-4 min-w-16 text-xs text-parchment-dim";

/** What a message view shows of a message: the story's, or the welcome. */
export type ShownMessage = Pick<ChatMessage, "role" | "content" | "createdAt" | "status" | "exchange" | "roll">;

/** A Game Master reply (left, Markdown) or a player message (right, as typed). */
export function ChatMessageView({
  message,
  streaming = false,
  highlighted = false,
  actions,
  children,
}: {
  message: ShownMessage;
  streaming?: boolean;
  /** Picked out: the match Find in story jumped to. */
  highlighted?: boolean;
  /** The story controls under the message. */
  actions?: React.ReactNode;
  /** Shown under a reply (its choices). */
  children?: React.ReactNode;
}) {
  const { role, content, createdAt, exchange } = message;
  // A reply lost with the server writing it: a note takes its place.
  const interrupted = message.status === "interrupted";
  // Its exchange's position, so Find in story can bring it into view.
  const placed = { "data-exchange": exchange, "data-highlighted": highlighted || undefined };
  const ring = highlighted ? "rounded-2xl ring-2 ring-gold/70 ring-offset-4 ring-offset-ink" : "";
  if (role === "user") {
    return (
      <li className={cn("flex animate-slide-up justify-end", ring)} data-role="user" {...placed}>
        <div className="max-w-[85%] sm:max-w-[80%]">
          <p className="sr-only">You said:</p>
          <div className="rounded-2xl rounded-br-md bg-plum px-4 py-2.5 text-[17px] leading-relaxed whitespace-pre-wrap text-parchment [overflow-wrap:anywhere]">
            {content}
          </div>
          {message.roll ? (
            <p className="mt-1 text-right text-xs font-medium text-gold tabular-nums" data-roll>
              {rollLine(message.roll)}
            </p>
          ) : null}
          <div className="mt-1 flex items-center justify-end gap-2">
            <LocalTime iso={createdAt} className={cn(TIME, "text-right")} />
            {actions}
          </div>
        </div>
      </li>
    );
  }
  return (
    <li
      className={cn("flex animate-slide-up gap-2.5 sm:gap-3", ring)}
      data-role="assistant"
      aria-busy={streaming || undefined}
      data-writing={streaming || undefined}
      {...placed}
    >
      <GameMasterAvatar />
      <div className="min-w-0 max-w-[calc(100%-2.75rem)] sm:max-w-[80%]">
        <p className="sr-only">The Game Master said:</p>
        <div className="rounded-2xl rounded-tl-md border border-ink-line bg-ink-raised px-4 py-3 [overflow-wrap:anywhere]">
          {interrupted ? (
            <p className="flex items-start gap-2 text-[15px] text-parchment-dim">
              <CircleAlert className="mt-0.5 size-4 shrink-0 text-gold" aria-hidden />
              {PLAY_TEXTS.interruptedReply}
            </p>
          ) : content ? (
            <Markdown className="leading-[1.6]" images="none">
              {content}
            </Markdown>
          ) : (
            <ThinkingIndicator />
          )}
          {children}
        </div>
        {(content || interrupted) && !streaming ? (
          <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1">
            {actions}
            <LocalTime iso={createdAt} className={TIME} />
          </div>
        ) : null}
      </div>
    </li>
  );
}

/**
 * A reply's suggested choices: each sends itself as the player's next action (docs/decisions/048).
 * `cost` says what that costs, under the list and as each button's description.
 */
export function ChoiceButtons({
  choices,
  onChoose,
  disabled,
  cost,
}: {
  choices: string[];
  onChoose: (choice: string) => void;
  disabled?: boolean;
  cost: string;
}) {
  const costId = useId();
  return (
    <>
      <ol className="mt-3 flex flex-col gap-2" aria-label="Suggested actions">
        {choices.map((choice, index) => (
          <li key={choice}>
            <button
              type="button"
              disabled={disabled}
              onClick={() => onChoose(choice)}
              aria-describedby={costId}
              className={cn(
                "flex w-full items-start gap-3 rounded-xl border border-ink-line bg-ink/60 px-3 py-2.5 text-left text-[15px] leading-snug text-parchment transition-colors",
                "hover:border-gold/60 hover:bg-gold/5 focus-visible:outline-2 focus-visible:outline-gold disabled:opacity-60",
              )}
            >
              <span className="grid size-6 shrink-0 place-items-center rounded-full border border-gold/60 text-xs font-semibold text-gold">
                {index + 1}
              </span>
              <span>{choice}</span>
            </button>
          </li>
        ))}
      </ol>
      <p id={costId} className="mt-2 text-xs text-parchment-dim">
        {cost}
      </p>
    </>
  );
}
