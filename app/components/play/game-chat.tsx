import { ArrowDown, ArrowLeft, RotateCcw, Save, Sparkles } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { toast } from "#app/components/toast.ts";
import { CreditsBadge } from "#app/components/site-header.tsx";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "#app/components/ui/alert-dialog.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { useViewerCredits } from "#app/components/use-viewer-credits.ts";
import { PLAY_TEXTS, PLAY_TOASTS, welcomeMessage } from "#app/lib/play-texts.ts";
import { splitStoryChoices } from "#app/lib/story-choices.ts";
import { ChatComposer } from "./chat-composer.tsx";
import { ChatMessageView, ChoiceButtons } from "./chat-message.tsx";
import { useFollowLatest } from "./use-follow-latest.ts";
import { useGameChat, type ChatMessage } from "./use-game-chat.tsx";

export interface PlayGame {
  slug: string;
  title: string;
  tagline: string | null;
}

async function storyRequest(method: "PUT" | "DELETE", gameSlug: string, body?: unknown) {
  const response = await fetch(`/api/game-messages?game_slug=${encodeURIComponent(gameSlug)}`, {
    method,
    headers: body ? { "Content-Type": "application/json" } : undefined,
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`The story request failed with ${response.status}.`);
}

function PlayHeader({
  game,
  offline,
  playerEmail,
  canSave,
  saving,
  onSave,
  canRestart,
  onRestart,
}: {
  game: PlayGame;
  offline: boolean;
  playerEmail: string;
  canSave: boolean;
  saving: boolean;
  onSave: () => void;
  canRestart: boolean;
  onRestart: () => void;
}) {
  const credits = useViewerCredits() ?? 0;
  return (
    <header className="border-b border-ink-line bg-ink/95 px-3 py-2.5 sm:px-4 sm:py-3">
      <div className="flex items-center gap-2 sm:gap-3">
        <Button asChild variant="ghost" size="sm" className="-ml-1 shrink-0 px-2.5">
          <Link to="/games">
            <ArrowLeft aria-hidden />
            <span className="sr-only sm:not-sr-only">Back to Games</span>
          </Link>
        </Button>
        <div className="min-w-0 flex-1">
          <h1 className="truncate text-2xl leading-tight sm:text-3xl">{game.title}</h1>
        </div>
        {/* Below lg the navigation bar's balance sits right above this one. */}
        <CreditsBadge credits={credits} className="hidden shrink-0 lg:inline-flex" />
      </div>
      <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-2">
        <p className="min-w-0 flex-1 truncate text-xs text-parchment-dim sm:text-sm" title={playerEmail}>
          Playing as: <span className="text-parchment">{playerEmail}</span>
        </p>
        {offline ? (
          <span
            className="inline-flex items-center gap-1 rounded-full border border-gold/40 px-2.5 py-0.5 text-xs font-medium text-gold"
            title="No AI model is configured: an offline storyteller narrates from the game's own world."
          >
            <Sparkles className="size-3.5" aria-hidden strokeWidth={1.75} />
            {PLAY_TEXTS.offlineBadge}
          </span>
        ) : null}
        <div className="ml-auto flex shrink-0 items-center gap-2">
          <AlertDialog>
            <AlertDialogTrigger asChild>
              <Button variant="secondary" size="sm" disabled={!canRestart}>
                <RotateCcw aria-hidden />
                Start Over
              </Button>
            </AlertDialogTrigger>
            <AlertDialogContent>
              <AlertDialogTitle>Start over?</AlertDialogTitle>
              <AlertDialogDescription>
                Your story in {game.title} so far will be deleted, and the Game Master will begin again from the welcome. This cannot be undone.
              </AlertDialogDescription>
              <AlertDialogFooter className="mt-6">
                <AlertDialogCancel>Keep playing</AlertDialogCancel>
                <AlertDialogAction onClick={onRestart}>Start Over</AlertDialogAction>
              </AlertDialogFooter>
            </AlertDialogContent>
          </AlertDialog>
          <Button variant="outline" size="sm" disabled={!canSave || saving} onClick={onSave}>
            <Save aria-hidden />
            {saving ? PLAY_TEXTS.saving : "Save Chat"}
          </Button>
        </div>
      </div>
    </header>
  );
}

/** The play screen: header, the story so far, the reply streaming in, and the composer. */
export function GameChat({
  game,
  initialMessages,
  offline,
  playerEmail,
}: {
  game: PlayGame;
  initialMessages: ChatMessage[];
  offline: boolean;
  playerEmail: string;
}) {
  const { messages, setMessages, pending, streamingId, send } = useGameChat({ gameSlug: game.slug, initialMessages });
  const [draft, setDraft] = useState("");
  const [saving, setSaving] = useState(false);
  const [restarting, setRestarting] = useState(false);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const [welcomeTime] = useState(() => new Date().toISOString());
  const { scroller, following, onScroll, follow, jumpToLatest } = useFollowLatest(messages);

  const story = messages.filter((message) => !message.local);
  const lastReply = messages.findLast((message) => message.role === "assistant" && !message.local);
  const lastMessage = messages.at(-1);

  useEffect(() => {
    inputRef.current?.focus({ preventScroll: true });
  }, []);

  async function submit(text = draft) {
    follow();
    setDraft("");
    const outcome = await send(text);
    if (outcome === "returned") setDraft((current) => current || text);
    inputRef.current?.focus({ preventScroll: true });
  }

  async function save() {
    setSaving(true);
    try {
      await storyRequest("PUT", game.slug, {
        game_slug: game.slug,
        messages: story.map(({ role, content, createdAt }) => ({ role, content, created_at: createdAt })),
      });
      toast.success(PLAY_TOASTS.saved.title, { description: PLAY_TOASTS.saved.description });
    } catch {
      toast.error(PLAY_TOASTS.saveFailed.title, { description: PLAY_TOASTS.saveFailed.description });
    } finally {
      setSaving(false);
    }
  }

  async function restart() {
    setRestarting(true);
    try {
      await storyRequest("DELETE", game.slug);
      setMessages([]);
      setDraft("");
      toast.success(PLAY_TOASTS.restarted.title);
    } catch {
      toast.error(PLAY_TOASTS.sendFailed.title, { description: "The story could not be reset. Please try again." });
    } finally {
      setRestarting(false);
    }
  }

  function choose(choice: string) {
    setDraft(choice);
    inputRef.current?.focus();
  }

  return (
    <div className="mx-auto flex h-[calc(100dvh-4rem)] w-full max-w-3xl flex-col sm:px-4">
      <PlayHeader
        game={game}
        offline={offline}
        playerEmail={playerEmail}
        canSave={story.length > 0 && !pending}
        saving={saving}
        onSave={() => void save()}
        canRestart={!pending && !restarting}
        onRestart={() => void restart()}
      />
      <div className="relative min-h-0 flex-1">
        <div
          ref={scroller}
          onScroll={onScroll}
          className="h-full overflow-y-auto overscroll-contain px-3 py-5 sm:px-2"
          aria-label={`Your story in ${game.title}`}
          role="log"
          aria-live="polite"
          aria-relevant="additions"
          tabIndex={0}
        >
          <ol className="flex flex-col gap-5">
            {messages.length === 0 ? (
              <ChatMessageView role="assistant" content={welcomeMessage(game.title, game.tagline)} createdAt={welcomeTime} />
            ) : null}
            {messages.map((message) => {
              const isLastReply = message === lastReply && message === lastMessage && !pending;
              const { body, choices } = isLastReply ? splitStoryChoices(message.content) : { body: message.content, choices: [] };
              return (
                <ChatMessageView
                  key={message.id}
                  role={message.role}
                  content={body}
                  createdAt={message.createdAt}
                  streaming={message.id === streamingId}
                >
                  {choices.length > 0 ? <ChoiceButtons choices={choices} onChoose={choose} disabled={pending} /> : null}
                </ChatMessageView>
              );
            })}
          </ol>
        </div>
        {!following ? (
          <Button
            variant="secondary"
            size="sm"
            onClick={jumpToLatest}
            className="absolute bottom-3 left-1/2 -translate-x-1/2 shadow-lg shadow-ink"
          >
            <ArrowDown aria-hidden />
            Latest
          </Button>
        ) : null}
      </div>
      <div className="border-t border-ink-line bg-ink px-3 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] sm:px-0">
        <ChatComposer value={draft} onChange={setDraft} onSend={() => void submit()} pending={pending} inputRef={inputRef} />
        <p id="play-input-hint" className="mt-2 hidden text-center text-xs text-parchment-dim sm:block">
          Enter sends · Shift+Enter adds a line · Each message costs 1 credit
        </p>
      </div>
    </div>
  );
}
