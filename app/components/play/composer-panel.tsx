import { X } from "lucide-react";
import { Link } from "react-router";
import { CREDITS_PER_MESSAGE } from "#app/lib/constants.ts";
import { creditsInWords } from "#app/lib/site.ts";
import { ActionModeBar, SentAs } from "./action-mode-bar.tsx";
import { ChatComposer } from "./chat-composer.tsx";
import { costOf } from "./reply-controls.tsx";
import { useStory } from "./story-provider.tsx";
import { outOfCredits, priceOf } from "./story-selectors.ts";

/** Credits at or below this show a quiet warning above the composer. */
const LOW_CREDITS = 3;

/** Above the composer: a quiet warning when credits run low, and why it is closed when they are out. */
function CreditsNotice() {
  const { state, game, credits } = useStory();
  if (credits > LOW_CREDITS) return null;
  const blocked = outOfCredits(state, credits);
  const getCredits = (
    <Link to={`/credits?returnTo=${encodeURIComponent(`/play/${game.slug}`)}`} className="font-semibold text-gold underline underline-offset-2">
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

function EditingNotice() {
  const { state, dispatch } = useStory();
  if (!state.editing) return null;
  return (
    <p className="mb-2 flex items-center justify-between gap-2 rounded-lg bg-plum/40 px-3 py-1.5 text-xs text-parchment">
      <span>Editing your last message: sending replaces that exchange ({costOf(priceOf(state, "edit")).toLowerCase()}).</span>
      <button type="button" onClick={() => dispatch({ type: "editCancelled" })} className="inline-flex items-center gap-1 font-semibold text-gold">
        <X className="size-3.5" aria-hidden />
        Cancel edit
      </button>
    </p>
  );
}

/** The foot of the play screen: what the credits allow, the edit in progress, Do / Say / Story, the composer, what it sends and its keys. */
export function ComposerPanel() {
  return (
    <div className="border-t border-ink-line bg-ink px-3 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] sm:px-0">
      <CreditsNotice />
      <EditingNotice />
      <ActionModeBar />
      <ChatComposer />
      <SentAs />
      <p id="play-input-hint" className="mt-2 hidden text-center text-xs text-parchment-dim sm:block">
        Enter sends · Shift+Enter adds a line · ↑ edits your last message · Each message costs {creditsInWords(CREDITS_PER_MESSAGE)}
      </p>
    </div>
  );
}
