import { SendHorizontal } from "lucide-react";
import { useEffect, useLayoutEffect, useRef, type KeyboardEvent } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { MAX_PLAYER_MESSAGE_LENGTH } from "#app/lib/constants.ts";
import { PLAY_TEXTS } from "#app/lib/play-texts.ts";
import { SENT_AS_ID } from "./action-mode-bar.tsx";
import { useStory } from "./story-provider.tsx";
import { isPending, latestAction, latestReply, outOfCredits } from "./story-selectors.ts";

const MAX_ROWS_PX = 176;

/**
 * The player's input: Enter sends, Shift+Enter adds a line; sending waits while a reply is being
 * written, and the field is closed when a turn costs more than the player has. From an empty
 * field, ↑ edits the last message and ←/→ page through the latest reply's versions.
 */
export function ChatComposer() {
  const { state, dispatch, client, credits } = useStory();
  const field = useRef<HTMLTextAreaElement>(null);
  const pending = isPending(state);
  const closed = outOfCredits(state, credits);
  const value = state.draft;
  const canSend = !pending && !closed && value.trim().length > 0;

  // The field grows with its text up to a few lines, then scrolls. Its borders count (border-box),
  // so a line of text keeps the height the page was drawn with.
  useLayoutEffect(() => {
    const element = field.current;
    if (!element) return;
    element.style.height = "auto";
    const borders = element.offsetHeight - element.clientHeight;
    element.style.height = `${Math.min(element.scrollHeight + borders, MAX_ROWS_PX)}px`;
  }, [value]);

  // On arrival, after a send, and when a choice or an Edit fills it.
  useEffect(() => {
    field.current?.focus({ preventScroll: true });
  }, [state.composerFocus]);

  function send() {
    if (canSend) void client.submit();
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
      return;
    }
    if (value !== "" || pending || event.shiftKey || event.altKey || event.metaKey || event.ctrlKey) return;
    const reply = latestReply(state);
    if (event.key === "ArrowUp" && latestAction(state)) {
      event.preventDefault();
      dispatch({ type: "editStarted" });
    } else if (event.key === "ArrowLeft" && reply && reply.version > 1) {
      event.preventDefault();
      void client.showVersion(reply.version - 1);
    } else if (event.key === "ArrowRight" && reply && reply.version < reply.versions) {
      event.preventDefault();
      void client.showVersion(reply.version + 1);
    }
  }

  const nearLimit = value.length > MAX_PLAYER_MESSAGE_LENGTH * 0.9;
  return (
    <form
      className="flex items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <div className="relative min-w-0 flex-1">
        <label htmlFor="play-input" className="sr-only">
          Your action or response
        </label>
        <textarea
          id="play-input"
          ref={field}
          rows={1}
          value={value}
          maxLength={MAX_PLAYER_MESSAGE_LENGTH}
          placeholder={closed ? "Get credits to keep playing" : PLAY_TEXTS.inputPlaceholder}
          disabled={closed}
          onChange={(event) => dispatch({ type: "draftChanged", text: event.target.value })}
          onKeyDown={onKeyDown}
          enterKeyHint="send"
          className="block max-h-44 min-h-12 w-full resize-none rounded-2xl border border-ink-line bg-ink px-4 py-3 text-base leading-6 sm:text-[17px] text-parchment placeholder:text-parchment-dim/80 focus-visible:border-gold focus-visible:ring-2 focus-visible:ring-gold/40 focus-visible:outline-none disabled:cursor-not-allowed disabled:opacity-60"
          aria-describedby={`play-input-hint ${SENT_AS_ID}`}
        />
        {nearLimit ? (
          <span className="pointer-events-none absolute right-3 -top-5 text-xs text-parchment-dim" aria-live="polite">
            {value.length.toLocaleString("en-US")} / {MAX_PLAYER_MESSAGE_LENGTH.toLocaleString("en-US")}
          </span>
        ) : null}
      </div>
      <Button type="submit" size="icon" className="size-12 shrink-0" disabled={!canSend} aria-label="Send message">
        <SendHorizontal />
      </Button>
    </form>
  );
}
