import { SendHorizontal } from "lucide-react";
import { useLayoutEffect, type KeyboardEvent, type RefObject } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { MAX_PLAYER_MESSAGE_LENGTH } from "#app/lib/constants.ts";
import { PLAY_TEXTS } from "#app/lib/play-texts.ts";

const MAX_ROWS_PX = 176;

/** The player's input: Enter sends, Shift+Enter adds a line; disabled while a reply is pending. */
export function ChatComposer({
  value,
  onChange,
  onSend,
  onKeyDown: onOtherKey,
  pending,
  disabled = false,
  placeholder = PLAY_TEXTS.inputPlaceholder,
  inputRef,
}: {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  /** Keys other than Enter (the story controls' shortcuts). */
  onKeyDown?: (event: KeyboardEvent<HTMLTextAreaElement>) => void;
  pending: boolean;
  /** Closed, not merely busy: nothing can be sent (no credits left). */
  disabled?: boolean;
  placeholder?: string;
  inputRef: RefObject<HTMLTextAreaElement | null>;
}) {
  const canSend = !pending && !disabled && value.trim().length > 0;

  // The field grows with its text up to a few lines, then scrolls.
  useLayoutEffect(() => {
    const field = inputRef.current;
    if (!field) return;
    field.style.height = "auto";
    field.style.height = `${Math.min(field.scrollHeight, MAX_ROWS_PX)}px`;
  }, [value, inputRef]);

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) {
      onOtherKey?.(event);
      return;
    }
    event.preventDefault();
    if (canSend) onSend();
  }

  const nearLimit = value.length > MAX_PLAYER_MESSAGE_LENGTH * 0.9;
  return (
    <form
      className="flex items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (canSend) onSend();
      }}
    >
      <div className="relative min-w-0 flex-1">
        <label htmlFor="play-input" className="sr-only">
          Your action or response
        </label>
        <textarea
          id="play-input"
          ref={inputRef}
          rows={1}
          value={value}
          maxLength={MAX_PLAYER_MESSAGE_LENGTH}
          placeholder={placeholder}
          disabled={disabled}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={onKeyDown}
          enterKeyHint="send"
          className="block max-h-44 min-h-12 w-full resize-none rounded-2xl border border-ink-line bg-ink px-4 py-3 text-base leading-normal sm:text-[17px] text-parchment placeholder:text-parchment-dim/80 focus-visible:border-gold focus-visible:ring-2 focus-visible:ring-gold/40 focus-visible:outline-none disabled:cursor-not-allowed disabled:opacity-60"
          aria-describedby="play-input-hint"
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
