import {
  ArrowDown,
  ArrowLeft,
  BookPlus,
  ChevronLeft,
  ChevronRight,
  Download,
  FastForward,
  Loader2,
  Pencil,
  RefreshCw,
  RotateCcw,
  Save,
  Search,
  Sparkles,
  Undo2,
  X,
} from "lucide-react";
import { useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
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
import { chosenAction, splitStoryChoices } from "#app/lib/story-choices.ts";
import { STORY_EXPORT_FORMATS, type StoryView } from "#app/lib/story-view.ts";
import { CREDITS_PER_MESSAGE } from "#app/lib/constants.ts";
import { creditsInWords } from "#app/lib/site.ts";
import { startingState, type TrackedStat } from "#app/lib/tracked-stats.ts";
import { cn } from "#app/lib/utils.ts";
import { ChatComposer } from "./chat-composer.tsx";
import { ChatMessageView, ChoiceButtons } from "./chat-message.tsx";
import { FindInStory, type StoryMatch } from "./find-in-story.tsx";
import { MemoryPanel } from "./memory-panel.tsx";
import { StateSheet, StateSidebar } from "./state-panel.tsx";
import { useFollowLatest } from "./use-follow-latest.ts";
import { useGameChat, type ChatMessage } from "./use-game-chat.tsx";

export interface PlayGame {
  slug: string;
  title: string;
  tagline: string | null;
  trackedStats: TrackedStat[];
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
  canFind,
  finding,
  onFind,
  storyId,
  onNewStory,
  memory,
  stateSheet,
}: {
  game: PlayGame;
  offline: boolean;
  playerEmail: string;
  canSave: boolean;
  saving: boolean;
  onSave: () => void;
  canRestart: boolean;
  onRestart: () => void;
  canFind: boolean;
  finding: boolean;
  onFind: () => void;
  storyId: string | null;
  onNewStory: () => void;
  /** The Memory control (its panel holds its own state). */
  memory: React.ReactNode;
  /** The State control of narrow screens, in a game that tracks stats. */
  stateSheet: React.ReactNode;
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
      {/* With the on-screen keyboard open there is little height: the story and the composer get it. */}
      <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-2 [@media(max-height:480px)]:hidden">
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
        <div className="ml-auto flex flex-wrap items-center justify-end gap-1.5 sm:gap-2">
          <Button variant="ghost" size="sm" disabled={!canFind} onClick={onFind} aria-expanded={finding} className="px-2.5">
            <Search aria-hidden />
            <span className="sr-only sm:not-sr-only">Find in story</span>
          </Button>
          {stateSheet}
          {memory}
          {storyId && canFind ? <ExportMenu storyId={storyId} /> : null}
          <Button
            variant="ghost"
            size="sm"
            disabled={!canRestart}
            onClick={onNewStory}
            className="px-2.5"
            title="Begin another story in this game; this one is kept in My Stories"
          >
            <BookPlus aria-hidden />
            <span className="sr-only sm:not-sr-only">New story</span>
          </Button>
          <AlertDialog>
            <AlertDialogTrigger asChild>
              <Button variant="secondary" size="sm" disabled={!canRestart} className="px-2.5 sm:px-3">
                <RotateCcw aria-hidden />
                <span className="sr-only sm:not-sr-only">Start Over</span>
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
          <Button variant="outline" size="sm" disabled={!canSave || saving} onClick={onSave} className="px-2.5 sm:px-3">
            <Save aria-hidden />
            <span className="sr-only sm:not-sr-only">{saving ? PLAY_TEXTS.saving : "Save Chat"}</span>
          </Button>
        </div>
      </div>
    </header>
  );
}

/** Export: the story downloaded as Markdown or JSON (a native disclosure, so it works before any script). */
function ExportMenu({ storyId }: { storyId: string }) {
  const link = "block rounded-md px-3 py-2 text-sm text-parchment hover:bg-gold/10";
  return (
    <details className="relative">
      <summary className="inline-flex h-8 cursor-pointer list-none items-center gap-1.5 rounded-full px-2.5 text-sm font-medium text-parchment hover:bg-gold/10 [&::-webkit-details-marker]:hidden">
        <Download className="size-4" aria-hidden />
        <span className="sr-only sm:not-sr-only">Export</span>
      </summary>
      <div className="absolute right-0 z-20 mt-1 w-48 rounded-lg border border-ink-line bg-ink-raised p-1 shadow-lg shadow-ink">
        {STORY_EXPORT_FORMATS.map(({ format, label }) => (
          <a key={format} className={link} href={`/api/stories/${storyId}/export?format=${format}`} download>
            Export as {label}
          </a>
        ))}
      </div>
    </details>
  );
}

/** Credits at or below this show a quiet warning above the composer. */
const LOW_CREDITS = 3;

/** What a paid control says it costs (tooltip and accessible description). */
function costOf(free: boolean) {
  return free ? "Free: this is the opening scene" : `Costs ${creditsInWords(CREDITS_PER_MESSAGE)}`;
}

/** A small story control: its name for everyone, its cost or effect as its description. */
function ControlButton({
  label,
  description,
  icon,
  onClick,
  disabled,
}: {
  label: string;
  description: string;
  icon: React.ReactNode;
  onClick: () => void;
  disabled?: boolean;
}) {
  const descriptionId = useId();
  return (
    <>
      <button
        type="button"
        onClick={onClick}
        disabled={disabled}
        title={description}
        aria-describedby={descriptionId}
        className="inline-flex min-h-8 items-center gap-1 rounded-full px-2 text-xs font-medium text-parchment-dim transition-colors hover:bg-gold/10 hover:text-gold focus-visible:outline-2 focus-visible:outline-gold disabled:opacity-50 [&_svg]:size-3.5"
      >
        {icon}
        {label}
      </button>
      <span id={descriptionId} className="sr-only">
        {description}
      </span>
    </>
  );
}

function VersionSwitcher({ reply, onShow, disabled }: { reply: ChatMessage; onShow: (version: number) => void; disabled: boolean }) {
  return (
    <span className="inline-flex items-center gap-0.5 text-xs text-parchment-dim" role="group" aria-label="Versions of this reply">
      <button
        type="button"
        aria-label="Previous version"
        title="Previous version (←)"
        disabled={disabled || reply.version <= 1}
        onClick={() => onShow(reply.version - 1)}
        className="grid size-8 place-items-center rounded-full hover:bg-gold/10 hover:text-gold disabled:opacity-40 [&_svg]:size-4"
      >
        <ChevronLeft aria-hidden />
      </button>
      <span aria-label={`Version ${reply.version} of ${reply.versions}`} className="min-w-8 text-center tabular-nums">
        {reply.version} / {reply.versions}
      </span>
      <button
        type="button"
        aria-label="Next version"
        title="Next version (→)"
        disabled={disabled || reply.version >= reply.versions}
        onClick={() => onShow(reply.version + 1)}
        className="grid size-8 place-items-center rounded-full hover:bg-gold/10 hover:text-gold disabled:opacity-40 [&_svg]:size-4"
      >
        <ChevronRight aria-hidden />
      </button>
    </span>
  );
}

/** Above the composer: a quiet warning when credits run low, and why it is closed at none. */
function CreditsNotice({ credits, blocked, returnTo }: { credits: number; blocked: boolean; returnTo: string }) {
  if (credits > LOW_CREDITS) return null;
  const getCredits = (
    <Link to={`/credits?returnTo=${encodeURIComponent(returnTo)}`} className="font-semibold text-gold underline underline-offset-2">
      Get credits
    </Link>
  );
  return (
    <p role="status" className={blocked ? "mb-2 text-center text-sm text-parchment" : "mb-2 text-center text-xs text-parchment-dim"}>
      {blocked ? "You have no credits left, so the Game Master cannot answer. " : `${creditsInWords(credits)} left. `}
      {getCredits}
      {blocked ? " to keep playing — you will come back right here." : null}
    </p>
  );
}

/** The play screen: header, the story so far, the reply streaming in, the story controls and the composer. */
export function GameChat({
  game,
  initialStory,
  offline,
  playerEmail,
}: {
  game: PlayGame;
  initialStory: StoryView | null;
  offline: boolean;
  playerEmail: string;
}) {
  const chat = useGameChat({ gameSlug: game.slug, initialStory });
  const { storyId, messages, exchanges, pending, streamingKey, hasOlder, atLatest, loadingPage } = chat;
  const [finding, setFinding] = useState(false);
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const [draft, setDraft] = useState("");
  const [editing, setEditing] = useState(false);
  const [saving, setSaving] = useState(false);
  const [restarting, setRestarting] = useState(false);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const [welcomeTime] = useState(() => new Date().toISOString());
  const { scroller, following, onScroll, follow, jumpToLatest } = useFollowLatest(messages);
  const olderEdge = useRef<HTMLLIElement>(null);
  const newerEdge = useRef<HTMLLIElement>(null);
  /** Distance from the end of the story before older turns were put above: kept, so the view does not jump. */
  const keptFromEnd = useRef<number | null>(null);
  const firstShown = messages[0]?.key;

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element || keptFromEnd.current === null) return;
    element.scrollTop = element.scrollHeight - keptFromEnd.current;
    keptFromEnd.current = null;
  }, [firstShown, scroller]);

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
          else if (entry.target === newerEdge.current) void chat.loadNewer();
        }
      },
      { root, rootMargin: "600px 0px" },
    );
    if (olderEdge.current) observer.observe(olderEdge.current);
    if (newerEdge.current) observer.observe(newerEdge.current);
    return () => observer.disconnect();
  });
  const credits = useViewerCredits() ?? 0;
  const navigate = useNavigate();

  const story = messages.filter((message) => !message.local);
  const lastMessage = messages.at(-1);
  const latestReply = story.findLast((message) => message.role === "assistant" && message.exchange === exchanges);
  const latestAction = story.findLast((message) => message.role === "user" && message.exchange === exchanges);
  const latestChoices = latestReply && !pending ? splitStoryChoices(latestReply.content).choices : [];
  const openingIsFree = exchanges <= 1;
  // The opening scene is free, so only a story already begun needs a credit.
  const outOfCredits = credits < CREDITS_PER_MESSAGE && exchanges > 0;
  const returnTo = `/play/${game.slug}`;

  useEffect(() => {
    inputRef.current?.focus({ preventScroll: true });
  }, []);

  async function submit(text = draft) {
    setHighlighted(null);
    follow();
    if (!atLatest) await chat.returnToLatest();
    setDraft("");
    const wasEditing = editing;
    setEditing(false);
    const message = chosenAction(text, latestChoices);
    const outcome = wasEditing ? await chat.control({ kind: "edit", message }) : await chat.send(message);
    if (outcome === "returned") {
      setDraft((current) => current || text);
      setEditing(wasEditing);
    }
    inputRef.current?.focus({ preventScroll: true });
  }

  function loadOlder() {
    const element = scroller.current;
    if (!element || !hasOlder || loadingPage) return;
    keptFromEnd.current = element.scrollHeight - element.scrollTop;
    void chat.loadOlder();
  }

  async function showMatch(match: StoryMatch) {
    if (!(await chat.jumpTo(match.exchange))) return;
    const key = `${match.exchange}-${match.role}`;
    setHighlighted(key);
    requestAnimationFrame(() => {
      const found = scroller.current?.querySelector(`li[data-exchange="${match.exchange}"][data-role="${match.role}"]`);
      found?.scrollIntoView({ block: "center" });
    });
  }

  async function toLatest() {
    setHighlighted(null);
    // Following first: the newest window is then shown scrolled to its end, not at the top where older turns would load again.
    follow();
    if (!atLatest) await chat.returnToLatest();
    jumpToLatest();
  }

  function startEditing() {
    if (!latestAction || pending) return;
    setDraft(latestAction.content);
    setEditing(true);
    inputRef.current?.focus();
  }

  function cancelEditing() {
    setEditing(false);
    setDraft("");
  }

  function runControl(kind: "retry" | "continue") {
    follow();
    void chat.control({ kind });
  }

  /** ↑ edits the last message, ←/→ page through the latest reply's versions — from an empty composer. */
  function onComposerKey(event: React.KeyboardEvent<HTMLTextAreaElement>) {
    if (draft !== "" || pending || event.shiftKey || event.altKey || event.metaKey || event.ctrlKey) return;
    if (event.key === "ArrowUp" && latestAction) {
      event.preventDefault();
      startEditing();
    } else if (event.key === "ArrowLeft" && latestReply && latestReply.version > 1) {
      event.preventDefault();
      void chat.showVersion(latestReply.version - 1);
    } else if (event.key === "ArrowRight" && latestReply && latestReply.version < latestReply.versions) {
      event.preventDefault();
      void chat.showVersion(latestReply.version + 1);
    }
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
      chat.cleared();
      setDraft("");
      setEditing(false);
      toast.success(PLAY_TOASTS.restarted.title);
    } catch {
      toast.error(PLAY_TOASTS.sendFailed.title, { description: "The story could not be reset. Please try again." });
    } finally {
      setRestarting(false);
    }
  }

  /** New story: another story in this game, on its own address; this one stays in My Stories. */
  async function newStory() {
    try {
      const response = await fetch("/api/stories", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ game_slug: game.slug }),
      });
      if (!response.ok) throw new Error(`New story answered ${response.status}.`);
      const created = (await response.json()) as StoryView;
      toast.success("A new story begins", { description: "Your other story is kept in My Stories." });
      await navigate(`/play/${game.slug}/${created.id}`);
    } catch {
      toast.error(PLAY_TOASTS.sendFailed.title, { description: "A new story could not be begun. Please try again." });
    }
  }

  function choose(choice: string) {
    setDraft(choice);
    inputRef.current?.focus();
  }

  function actionsFor(message: ChatMessage) {
    if (pending || message.local || message.exchange !== exchanges || !storyId) return null;
    if (message === latestAction) {
      return (
        <ControlButton
          label="Edit"
          description={`Change your message and send it again. ${costOf(openingIsFree)}. (↑ in an empty message box)`}
          icon={<Pencil aria-hidden />}
          onClick={startEditing}
        />
      );
    }
    if (message !== latestReply) return null;
    if (message.status === "interrupted") {
      const action = latestAction;
      return (
        <span className="inline-flex flex-wrap items-center gap-0.5">
          {action ? (
            <ControlButton
              label="Send again"
              description={`Send your message to the Game Master again. ${costOf(openingIsFree)}.`}
              icon={<RefreshCw aria-hidden />}
              onClick={() => {
                follow();
                void chat.control({ kind: "edit", message: action.content });
              }}
              disabled={outOfCredits && !openingIsFree}
            />
          ) : null}
          <ControlButton
            label="Undo"
            description="Take back this exchange: your message leaves the story. Free."
            icon={<Undo2 aria-hidden />}
            onClick={() => void chat.undo()}
          />
        </span>
      );
    }
    return (
      <span className="inline-flex flex-wrap items-center gap-0.5">
        {message.versions > 1 ? <VersionSwitcher reply={message} onShow={(version) => void chat.showVersion(version)} disabled={pending} /> : null}
        <ControlButton
          label="Retry"
          description={`Ask the Game Master for another version of this reply; earlier versions are kept. ${costOf(openingIsFree)}.`}
          icon={<RefreshCw aria-hidden />}
          onClick={() => runControl("retry")}
          disabled={outOfCredits && !openingIsFree}
        />
        <ControlButton
          label="Continue"
          description={`Ask the Game Master to write more of this reply. ${costOf(false)}.`}
          icon={<FastForward aria-hidden />}
          onClick={() => runControl("continue")}
          disabled={outOfCredits}
        />
        <ControlButton
          label="Undo"
          description="Take back this exchange: your message and this reply leave the story. Free; no credit is returned."
          icon={<Undo2 aria-hidden />}
          onClick={() => void chat.undo()}
        />
      </span>
    );
  }

  // Before the story has a state of its own (a new story, after Start Over) it stands at the game's starting values.
  const start = startingState(game.trackedStats);
  const storyState = chat.storyState ?? (game.trackedStats.length > 0 ? { stats: game.trackedStats, values: start, previous: start } : null);

  return (
    <div
      className={cn(
        "mx-auto h-[calc(100dvh-4rem)] w-full max-w-3xl",
        storyState && "lg:grid lg:max-w-[68rem] lg:grid-cols-[minmax(0,1fr)_17rem] lg:gap-2 lg:pr-4",
      )}
    >
      <div className="flex h-full min-h-0 w-full flex-col sm:px-4">
        <PlayHeader
          game={game}
          offline={offline}
          playerEmail={playerEmail}
          canSave={story.length > 0 && !pending}
          saving={saving}
          onSave={() => void save()}
          canRestart={!pending && !restarting}
          onRestart={() => void restart()}
          canFind={storyId !== null && exchanges > 0}
          finding={finding}
          onFind={() => setFinding((open) => !open)}
          storyId={storyId}
          onNewStory={() => void newStory()}
          memory={<MemoryPanel storyId={storyId} memory={chat.memory} onSaved={chat.setMemory} disabled={pending} />}
          stateSheet={storyState ? <StateSheet state={storyState} /> : null}
        />
        {finding && storyId ? (
          <FindInStory storyId={storyId} onChoose={(match) => void showMatch(match)} onClose={() => setFinding(false)} />
        ) : null}
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
              {hasOlder ? (
                <li ref={olderEdge} className="flex justify-center">
                  <Button variant="ghost" size="sm" onClick={loadOlder} disabled={loadingPage === "older"}>
                    {loadingPage === "older" ? <Loader2 className="animate-spin" aria-hidden /> : null}
                    Load earlier turns
                  </Button>
                </li>
              ) : null}
              {messages.length === 0 && exchanges === 0 ? (
                <ChatMessageView role="assistant" content={welcomeMessage(game.title, game.tagline)} createdAt={welcomeTime}>
                  <ChoiceButtons choices={[PLAY_TEXTS.beginChoice]} onChoose={(choice) => void submit(choice)} disabled={pending} />
                  <p className="mt-2 text-xs text-parchment-dim">The opening scene is free.</p>
                </ChatMessageView>
              ) : null}
              {messages.map((message) => {
                const showChoices = message === latestReply && message === lastMessage && !pending;
                const { body, choices } = showChoices ? splitStoryChoices(message.content) : { body: message.content, choices: [] };
                return (
                  <ChatMessageView
                    key={message.key}
                    role={message.role}
                    content={body}
                    createdAt={message.createdAt}
                    streaming={message.key === streamingKey || message.status === "streaming"}
                    interrupted={message.status === "interrupted"}
                    actions={actionsFor(message)}
                    exchange={message.exchange}
                    highlighted={highlighted === `${message.exchange}-${message.role}`}
                  >
                    {choices.length > 0 ? <ChoiceButtons choices={choices} onChoose={choose} disabled={pending} /> : null}
                  </ChatMessageView>
                );
              })}
              {!atLatest ? (
                <li ref={newerEdge} className="flex justify-center">
                  <Button variant="ghost" size="sm" onClick={() => void chat.loadNewer()} disabled={loadingPage === "newer"}>
                    {loadingPage === "newer" ? <Loader2 className="animate-spin" aria-hidden /> : null}
                    Load later turns
                  </Button>
                </li>
              ) : null}
            </ol>
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
        <div className="border-t border-ink-line bg-ink px-3 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] sm:px-0">
          <CreditsNotice credits={credits} blocked={outOfCredits} returnTo={returnTo} />
          {editing ? (
            <p className="mb-2 flex items-center justify-between gap-2 rounded-lg bg-plum/40 px-3 py-1.5 text-xs text-parchment">
              <span>Editing your last message: sending replaces that exchange ({costOf(openingIsFree).toLowerCase()}).</span>
              <button type="button" onClick={cancelEditing} className="inline-flex items-center gap-1 font-semibold text-gold">
                <X className="size-3.5" aria-hidden />
                Cancel edit
              </button>
            </p>
          ) : null}
          <ChatComposer
            value={draft}
            onChange={setDraft}
            onSend={() => void submit()}
            onKeyDown={onComposerKey}
            pending={pending}
            disabled={outOfCredits}
            placeholder={outOfCredits ? "Get credits to keep playing" : undefined}
            inputRef={inputRef}
          />
          <p id="play-input-hint" className="mt-2 hidden text-center text-xs text-parchment-dim sm:block">
            Enter sends · Shift+Enter adds a line · ↑ edits your last message · Each message costs {creditsInWords(CREDITS_PER_MESSAGE)}
          </p>
        </div>
      </div>
      {storyState ? <StateSidebar state={storyState} /> : null}
    </div>
  );
}
