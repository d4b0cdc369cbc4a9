import { ArrowLeft, BookOpen, BookPlus, Download, GitBranch, RotateCcw, Save, Search, Sparkles } from "lucide-react";
import { useRef, useState, type RefObject } from "react";
import { Link } from "react-router";
import { CreditsBadge } from "#app/components/site-header.tsx";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from "#app/components/ui/alert-dialog.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { PLAY_TEXTS } from "#app/lib/play-texts.ts";
import { STORY_EXPORT_FORMATS } from "#app/lib/story-view.ts";
import { cn } from "#app/lib/utils.ts";
import { branchesPath } from "./branch-from-here.tsx";
import { LorebookDialog } from "./lorebook-panel.tsx";
import { MemoryPanel } from "./memory-panel.tsx";
import { MoreMenu, MoreMenuItem } from "./more-menu.tsx";
import { useStory } from "./story-provider.tsx";
import { isPending, shownStoryState, storyMessages } from "./story-selectors.ts";
import { StateSheet } from "./state-panel.tsx";

function exportPath(storyId: string, format: string) {
  return `/api/stories/${storyId}/export?format=${format}`;
}

/** Start Over, confirmed first: the story in this game is deleted and the welcome comes back. */
function StartOverDialog({
  open,
  onOpenChange,
  opener,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  opener: RefObject<HTMLElement | null>;
}) {
  const { client, game } = useStory();
  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      {/* Opened from a button or from the More menu, without a trigger of its own: the focus goes back to what opened it. */}
      <AlertDialogContent
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          opener.current?.focus();
        }}
      >
        <AlertDialogTitle>Start over?</AlertDialogTitle>
        <AlertDialogDescription>
          Your story in {game.title} so far will be deleted, and the Game Master will begin again from the welcome. This cannot be undone.
        </AlertDialogDescription>
        <AlertDialogFooter className="mt-6">
          <AlertDialogCancel>Keep playing</AlertDialogCancel>
          <AlertDialogAction onClick={() => void client.startOver()}>Start Over</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/**
 * The story's tools, each by its name: on a phone State and Memory, and the rest in the More
 * menu; from 640 px Lorebook, Start Over and Save Chat too, from 768 px Find in story. Export and
 * New story, used least, stay in More at every width (with the State column, a row has no room for them).
 */
function StoryTools() {
  const { state, dispatch, client, game } = useStory();
  const [confirmingStartOver, setConfirmingStartOver] = useState(false);
  const [readingLore, setReadingLore] = useState(false);
  const loreOpener = useRef<HTMLElement | null>(null);
  const openLorebook = () => {
    loreOpener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setReadingLore(true);
  };
  const startOverOpener = useRef<HTMLElement | null>(null);
  const confirmStartOver = () => {
    startOverOpener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setConfirmingStartOver(true);
  };
  const pending = isPending(state);
  const canRestart = !pending && !state.restarting;
  const canFind = state.storyId !== null && state.exchanges > 0;
  // A story's lorebook exists once the story does (its first reply).
  const canReadLore = state.storyId !== null && !pending;
  const canSave = storyMessages(state).length > 0 && !pending && !state.saving;
  const storyState = shownStoryState(state, game.trackedStats);
  const saveLabel = state.saving ? PLAY_TEXTS.saving : "Save Chat";
  // Inline from 640 px: Lorebook, Start Over and Save Chat; from 768 px Find too. The rest are in More.
  const fromSm = "hidden sm:inline-flex";
  return (
    <div className="ml-auto flex flex-wrap items-center justify-end gap-1.5 sm:gap-2">
      <Button
        variant="ghost"
        size="sm"
        disabled={!canFind}
        onClick={() => dispatch({ type: "findToggled" })}
        aria-expanded={state.finding}
        className="hidden px-2.5 md:inline-flex"
      >
        <Search aria-hidden />
        Find in story
      </Button>
      {storyState ? <StateSheet state={storyState} /> : null}
      <MemoryPanel />
      <Button variant="ghost" size="sm" disabled={!canReadLore} onClick={openLorebook} className={cn("px-2.5", fromSm)}>
        <BookOpen aria-hidden />
        Lorebook
      </Button>
      <Button variant="secondary" size="sm" disabled={!canRestart} onClick={confirmStartOver} className={cn("px-3", fromSm)}>
        <RotateCcw aria-hidden />
        Start Over
      </Button>
      <Button variant="outline" size="sm" disabled={!canSave} onClick={() => void client.saveChat()} className={cn("px-3", fromSm)}>
        <Save aria-hidden />
        {saveLabel}
      </Button>
      <MoreMenu>
        <MoreMenuItem icon={<Search aria-hidden />} disabled={!canFind} onSelect={() => dispatch({ type: "findToggled" })} className="md:hidden">
          Find in story
        </MoreMenuItem>
        {state.storyId && canFind
          ? STORY_EXPORT_FORMATS.map(({ format, label }) => (
              <MoreMenuItem key={format} icon={<Download aria-hidden />} href={exportPath(state.storyId ?? "", format)} download>
                Export as {label}
              </MoreMenuItem>
            ))
          : null}
        <MoreMenuItem icon={<BookOpen aria-hidden />} disabled={!canReadLore} onSelect={openLorebook} className="sm:hidden">
          Lorebook
        </MoreMenuItem>
        {state.storyId ? (
          <MoreMenuItem icon={<GitBranch aria-hidden />} href={branchesPath(state.storyId)}>
            Branches
          </MoreMenuItem>
        ) : null}
        <MoreMenuItem icon={<BookPlus aria-hidden />} disabled={!canRestart || state.beginningNewStory} onSelect={() => void client.newStory()}>
          New story
        </MoreMenuItem>
        <MoreMenuItem icon={<RotateCcw aria-hidden />} disabled={!canRestart} onSelect={confirmStartOver} className="sm:hidden">
          Start Over
        </MoreMenuItem>
        <MoreMenuItem icon={<Save aria-hidden />} disabled={!canSave} onSelect={() => void client.saveChat()} className="sm:hidden">
          {saveLabel}
        </MoreMenuItem>
      </MoreMenu>
      <LorebookDialog open={readingLore} onOpenChange={setReadingLore} opener={loreOpener} />
      <StartOverDialog open={confirmingStartOver} onOpenChange={setConfirmingStartOver} opener={startOverOpener} />
    </div>
  );
}

/** The play screen's header: the game, the player, the balance and the story's tools. */
export function PlayHeader() {
  const { game, offline, playerEmail, credits } = useStory();
  return (
    <header className="border-b border-ink-line bg-ink/95 px-3 py-2.5 sm:px-4 sm:py-3">
      <div className="flex items-center gap-2 sm:gap-3">
        <Button asChild variant="ghost" size="sm" className="-ml-1 shrink-0 px-2.5">
          <Link to="/games" title="Back to Games">
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
        <StoryTools />
      </div>
    </header>
  );
}
