import { Crown, SendHorizontal, Sparkles } from "lucide-react";
import { useEffect, useRef, useState, type KeyboardEvent, type SubmitEvent } from "react";
import { Link } from "react-router";
import { PREVIEW_REPLY_DELAY_MS, STARTER_CREDITS } from "#app/lib/constants.ts";
import { cannedReply, PREVIEW_PLACEHOLDER, welcomeMessage, type PreviewGame, type PreviewMessage } from "#app/lib/preview-chat.ts";
import { cn } from "#app/lib/utils.ts";
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
        {message.paragraphs.map((paragraph, index) => (
          <p key={index} className="whitespace-pre-wrap">
            {paragraph}
          </p>
        ))}
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
      </div>
    </li>
  );
}

/**
 * SPEC's "simpler embedded chat": a preview of how a story feels, answered locally with a canned
 * reply after 1.5 s. It never calls the server and costs nothing; playing for real happens on the
 * play screen.
 */
export function PreviewChat({ game, signedIn }: { game: PreviewGame; signedIn: boolean }) {
  const [messages, setMessages] = useState<PreviewMessage[]>(() => [welcomeMessage(game)]);
  const [input, setInput] = useState("");
  const [pending, setPending] = useState(false);
  const logRef = useRef<HTMLDivElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    const log = logRef.current;
    if (log && messages.length > 1) log.scrollTo({ top: log.scrollHeight, behavior: "smooth" });
  }, [messages, pending]);

  const canSend = input.trim().length > 0 && !pending;

  function send() {
    const action = input.trim();
    if (!action || pending) return;
    const id = messages.length;
    setMessages((current) => [...current, { id, role: "user", paragraphs: [action] }]);
    setInput("");
    setPending(true);
    timer.current = setTimeout(() => {
      setMessages((current) => [...current, cannedReply(game, action, id + 1)]);
      setPending(false);
    }, PREVIEW_REPLY_DELAY_MS);
  }

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    send();
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
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
          Sample replies
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
          maxLength={500}
          className="min-h-12 resize-none"
        />
        <Button type="submit" size="icon" disabled={!canSend} aria-label="Send">
          <SendHorizontal aria-hidden />
        </Button>
      </form>
      <div className="flex flex-col gap-3 border-t border-ink-line bg-gradient-to-r from-plum/25 to-ink-raised px-5 py-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-parchment-dim">
          {signedIn
            ? "This preview answers with sample replies. Play for real and the AI Game Master writes your story."
            : `This preview answers with sample replies. Sign in to play for real — new players get ${STARTER_CREDITS} free credits.`}
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
