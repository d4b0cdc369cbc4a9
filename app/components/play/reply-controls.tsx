import { ChevronLeft, ChevronRight, FastForward, Pencil, RefreshCw, Undo2 } from "lucide-react";
import { useState } from "react";
import { creditsInWords } from "#app/lib/site.ts";
import { speakableText } from "#app/lib/speakable-text.ts";
import { splitStoryChoices } from "#app/lib/story-choices.ts";
import { BranchFromHere } from "./branch-from-here.tsx";
import { ContextViewerDialog, contextViewPath } from "./context-viewer.tsx";
import { ControlButton } from "./control-button.tsx";
import { ReadAloudButton } from "./read-aloud-controls.tsx";
import { selectedReplyText, useRemember } from "./remember-this.tsx";
import { ReplyRating } from "./reply-rating.tsx";
import { ReplyIcon } from "./reply-icons.tsx";
import { useStory } from "./story-provider.tsx";
import { controlsFor, priceOf } from "./story-selectors.ts";
import type { ChatMessage } from "./story-state.ts";

/** What a paid control says it costs (tooltip and accessible description), priced by turnCost. */
export function costOf(price: number) {
  return price === 0 ? "Free: this is the opening scene" : `Costs ${creditsInWords(price)}`;
}

const STEP = "grid size-8 place-items-center rounded-full hover:bg-gold/10 hover:text-gold disabled:opacity-40 [&_svg]:size-4";

function VersionSwitcher({ version, versions }: { version: number; versions: number }) {
  const { client } = useStory();
  return (
    <span className="inline-flex items-center gap-0.5 text-xs text-parchment-dim" role="group" aria-label="Versions of this reply">
      <button
        type="button"
        aria-label="Previous version"
        title="Previous version (←)"
        disabled={version <= 1}
        onClick={() => void client.showVersion(version - 1)}
        className={STEP}
      >
        <ChevronLeft aria-hidden />
      </button>
      <span aria-label={`Version ${version} of ${versions}`} className="min-w-8 text-center tabular-nums">
        {version} / {versions}
      </span>
      <button
        type="button"
        aria-label="Next version"
        title="Next version (→)"
        disabled={version >= versions}
        onClick={() => void client.showVersion(version + 1)}
        className={STEP}
      >
        <ChevronRight aria-hidden />
      </button>
    </span>
  );
}

/** The controls that call the Game Master: what each does, and the kind of call turnCost prices. */
const PAID_CONTROLS = {
  retry: {
    label: "Retry",
    does: "Ask the Game Master for another version of this reply; earlier versions are kept.",
    Icon: RefreshCw,
    priced: "retry",
  },
  continue: { label: "Continue", does: "Ask the Game Master to write more of this reply.", Icon: FastForward, priced: "continue" },
  sendAgain: { label: "Send again", does: "Send your message to the Game Master again.", Icon: RefreshCw, priced: "edit" },
} as const;

/** A paid control: says its price, and is closed when the player cannot pay it. */
function PaidControl({ kind }: { kind: keyof typeof PAID_CONTROLS }) {
  const { state, client, credits } = useStory();
  const { label, does, Icon, priced } = PAID_CONTROLS[kind];
  const price = priceOf(state, priced);
  return (
    <ControlButton
      label={label}
      description={`${does} ${costOf(price)}.`}
      icon={<Icon aria-hidden />}
      onClick={() => void client.control(kind)}
      disabled={credits < price}
    />
  );
}

function UndoControl({ what }: { what: string }) {
  const { client } = useStory();
  return <ControlButton label="Undo" description={what} icon={<Undo2 aria-hidden />} onClick={() => void client.undo()} />;
}

/** What is under a message: the story controls on the latest exchange; on each reply its rating, Read aloud and Remember this. */
export function ReplyControls({ message }: { message: ChatMessage }) {
  return (
    <>
      <StoryControls message={message} />
      {message.role === "assistant" && message.status === "complete" && message.content ? <ReplyTools message={message} /> : null}
      <ReplyRating message={message} />
    </>
  );
}

/** Read aloud, Remember this (the words selected in this reply, or else the whole reply's words without its choices) and What the Game Master sees. */
function ReplyTools({ message }: { message: ChatMessage }) {
  const remember = useRemember();
  const { state } = useStory();
  const [seeing, setSeeing] = useState(false);
  return (
    <span className="inline-flex flex-wrap items-center gap-0.5">
      <ReadAloudButton messageKey={message.key} content={message.content} />
      <ControlButton
        label="Remember this"
        sharedDescription="remember"
        icon={<ReplyIcon name="remember" />}
        onClick={() => {
          const reply = document.querySelector(`li[data-role="assistant"][data-exchange="${String(message.exchange)}"]`);
          // The whole reply as plain words: its Markdown marks would be kept as they are typed.
          remember(selectedReplyText(reply) || speakableText(splitStoryChoices(message.content).body));
        }}
      />
      <BranchFromHere message={message} />
      {state.storyId && message.id !== undefined ? (
        <>
          <ControlButton
            label="What the Game Master sees"
            sharedDescription="context"
            icon={<ReplyIcon name="context" />}
            onClick={() => setSeeing(true)}
          />
          <ContextViewerDialog open={seeing} onOpenChange={setSeeing} path={contextViewPath(state.storyId, message.id, message.version)} />
        </>
      ) : null}
    </span>
  );
}

/** The story controls under a message of the latest exchange, each saying what it costs. */
function StoryControls({ message }: { message: ChatMessage }) {
  const { state, dispatch } = useStory();
  const controls = controlsFor(state, message);
  if (!controls) return null;
  if (controls.kind === "edit") {
    return (
      <ControlButton
        label="Edit"
        description={`Change your message and send it again. ${costOf(priceOf(state, "edit"))}. (↑ in an empty message box)`}
        icon={<Pencil aria-hidden />}
        onClick={() => dispatch({ type: "editStarted" })}
      />
    );
  }
  if (controls.kind === "lost") {
    return (
      <span className="inline-flex flex-wrap items-center gap-0.5">
        {controls.message !== null ? <PaidControl kind="sendAgain" /> : null}
        <UndoControl what="Take back this exchange: your message leaves the story. Free." />
      </span>
    );
  }
  return (
    <span className="inline-flex flex-wrap items-center gap-0.5">
      {controls.versions > 1 ? <VersionSwitcher version={controls.version} versions={controls.versions} /> : null}
      <PaidControl kind="retry" />
      <PaidControl kind="continue" />
      <UndoControl what="Take back this exchange: your message and this reply leave the story. Free; no credit is returned." />
    </span>
  );
}
