import { Crown, SendHorizontal, Sparkles } from "lucide-react";
import { useEffect, useRef, useState, type KeyboardEvent, type SubmitEvent } from "react";
import { Link } from "react-router";
import { PREVIEW_REPLY_DELAY_MS, STARTER_CREDITS } from "#app/lib/constants.ts";
import {
  PREVIEW_ACTION_MAX_LENGTH,
  PREVIEW_PLACEHOLDER,
  PREVIEW_TEXTS,
  sceneMessage,
  welcomeMessage,
  type PreviewGame,
  type PreviewMessage,
  type PreviewScene,
} from "#app/lib/preview-chat.ts";
import { cn } from "#app/lib/utils.ts";
import { Markdown } from "./markdown.tsx";
import { Button } from "./ui/button.tsx";
import { Textarea } from "./ui/input.tsx";

function MessageBubble({ message }: { message: PreviewMessage }) {
  const mine = message.role === "user";
  return (
    <li className={cn("flex flex-col gap-1", mine ? "items-end" : "items-start")} data-role={message.role}>
      <span className="flex items-center gap-1.5 text-xs font-semibold tracking-wide text-parchment-dim uppercase">
        {mine ? null : <Crown className="size-3.5 text-gold" strokeWidth={1.75} aria-hidden />}
        {mine ? "You" : "Game Master"}
      </span>
      <div
        className={cn(
          "max-w-[90%] space-y-3 sm:max-w-[80%] rounded-2xl px-4 py-3 text-[15px] leading-relaxed",
          mine ? "rounded-tr-sm bg-plum text-parchment" : "rounded-tl-sm border border-ink-line bg-ink-raised text-parchment",
        )}
      >
        {message.role === "user" ? (
          <p className="whitespace-pre-wrap">{message.text}</p>
        ) : (
          <>
            <Markdown className="leading-[1.6]" images="none">
              {message.text}
            </Markdown>
            {message.stats ? (
              <dl
                className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-lg border border-gold/30 bg-ink px-4 py-3 text-sm"
                data-testid="preview-stats"
              >
                {message.stats.map((stat) => (
                  <div key={stat.label} className="contents">
                    <dt className="text-parchment-dim">{stat.label}</dt>
                    <dd className="font-semibold text-gold">{stat.value}</dd>
                  </div>
                ))}
              </dl>
            ) : null}
            {message.choices ? (
              <div>
                <p className="font-semibold">What will you do?</p>
                <ol className="mt-2 list-decimal space-y-1.5 pl-5 marker:font-semibold marker:text-gold" data-testid="preview-choices">
                  {message.choices.map((choice) => (
                    <li key={choice}>{choice}</li>
                  ))}
                </ol>
              </div>
            ) : null}
          </>
        )}
      </div>
    </li>
  );
}

async function fetchOpeningScene(gameSlug: string, action: string): Promise<PreviewScene> {
  const response = await fetch("/api/game-preview", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ game_slug: gameSlug, message: action }),
  });
  const answer = (await response.json().catch(() => ({}))) as Partial<PreviewScene> & { error?: string };
  if (!response.ok || typeof answer.reply !== "string") throw new Error(answer.error ?? PREVIEW_TEXTS.failed);
  return { reply: answer.reply, state: answer.state };
}

const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/**
 * SPEC's "simpler embedded chat", playing the game's real opening scene: the visitor's first action
 * is answered by the offline storyteller on the server (free, no account, nothing stored), shown
 * after SPEC's 1.5 s of typing. The preview is the opening only; what follows is the play screen's.
 */
export function PreviewChat({ game, signedIn }: { game: PreviewGame; signedIn: boolean }) {
  const [messages, setMessages] = useState<PreviewMessage[]>(() => [welcomeMessage(game)]);
  const [input, setInput] = useState("");
  const [pending, setPending] = useState(false);
  const logRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const log = logRef.current;
    if (log && messages.length > 1) log.scrollTo({ top: log.scrollHeight, behavior: "smooth" });
  }, [messages, pending]);

  const canSend = input.trim().length > 0 && !pending;

  async function answer(action: string, id: number, opening: boolean): Promise<PreviewMessage> {
    // Only the first action is answered by the storyteller: the opening is what the preview shows.
    if (!opening) return { id, role: "assistant", text: PREVIEW_TEXTS.ended };
    try {
      return sceneMessage(await fetchOpeningScene(game.slug, action), id);
    } catch (error) {
      return { id, role: "assistant", text: error instanceof Error ? error.message : PREVIEW_TEXTS.failed };
    }
  }

  async function send() {
    const action = input.trim();
    if (!action || pending) return;
    const id = messages.length;
    const opening = !messages.some((message) => message.role === "user");
    setMessages((current) => [...current, { id, role: "user", text: action }]);
    setInput("");
    setPending(true);
    const [reply] = await Promise.all([answer(action, id + 1, opening), pause(PREVIEW_REPLY_DELAY_MS)]);
    setMessages((current) => [...current, reply]);
    setPending(false);
  }

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    void send();
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  }

  const playPath = `/play/${game.slug}`;
  return (
    <div className="overflow-hidden rounded-[var(--radius-card)] border border-ink-line bg-ink" data-testid="preview-chat">
      <div className="flex items-center justify-between gap-3 border-b border-ink-line bg-ink-raised px-5 py-3">
        <p className="flex items-center gap-2 text-sm font-semibold text-parchment">
          <Sparkles className="size-4 text-gold" strokeWidth={1.75} aria-hidden />
          Preview: {game.title}
        </p>
        <span className="shrink-0 rounded-full border border-ink-line px-2.5 py-0.5 text-xs whitespace-nowrap text-parchment-dim">
          Opening scene, free
        </span>
      </div>
      <div
        ref={logRef}
        role="log"
        tabIndex={0}
        aria-live="polite"
        aria-label="Preview conversation"
        className="h-96 overflow-y-auto px-4 py-5 sm:px-5"
      >
        <ol className="space-y-5">
          {messages.map((message) => (
            <MessageBubble key={message.id} message={message} />
          ))}
          {pending ? (
            <li className="flex flex-col items-start gap-1" data-testid="typing-indicator">
              <span className="text-xs font-semibold tracking-wide text-parchment-dim uppercase">Game Master</span>
              <span className="flex items-center gap-1.5 rounded-2xl rounded-tl-sm border border-ink-line bg-ink-raised px-4 py-3.5">
                <span className="sr-only">The Game Master is typing…</span>
                {[0, 150, 300].map((delay) => (
                  <span
                    key={delay}
                    aria-hidden
                    className="size-2 animate-bounce rounded-full bg-gold/80"
                    style={{ animationDelay: `${delay}ms` }}
                  />
                ))}
              </span>
            </li>
          ) : null}
        </ol>
      </div>
      <form onSubmit={onSubmit} className="flex items-end gap-2 border-t border-ink-line bg-ink-raised p-3">
        <label htmlFor="preview-input" className="sr-only">
          Your action
        </label>
        <Textarea
          id="preview-input"
          rows={2}
          value={input}
          onChange={(event) => setInput(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder={PREVIEW_PLACEHOLDER}
          maxLength={PREVIEW_ACTION_MAX_LENGTH}
          className="min-h-12 resize-none"
        />
        <Button type="submit" size="icon" disabled={!canSend} aria-label="Send">
          <SendHorizontal aria-hidden />
        </Button>
      </form>
      <div className="flex flex-col gap-3 border-t border-ink-line bg-gradient-to-r from-plum/25 to-ink-raised px-5 py-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-parchment-dim">
          {signedIn
            ? "The preview plays a story's opening scene. Play for real and the Game Master writes the whole story."
            : `The preview plays a story's opening scene. Sign in to play for real — new players get ${STARTER_CREDITS} free credits.`}
        </p>
        <Button asChild size="sm" className="shrink-0">
          <Link to={signedIn ? playPath : `/auth?redirectTo=${encodeURIComponent(playPath)}`}>
            {signedIn ? "Play for Real" : "Sign In to Play"}
          </Link>
        </Button>
      </div>
    </div>
  );
}
