import { useEffect, useId } from "react";
import { ACTION_MODES, type ActionMode } from "#app/lib/action-modes.ts";
import { cn } from "#app/lib/utils.ts";
import { ReadAloudSettingsDialog } from "./read-aloud-controls.tsx";
import { rememberActionMode, rememberedActionMode } from "./remembered.ts";
import { useStory } from "./story-provider.tsx";
import { composedMessage } from "./story-selectors.ts";

export const SENT_AS_ID = "play-input-sent-as";

/**
 * Above the composer: Do / Say / Story, the way the player's text is sent (a radio group,
 * remembered in this browser), and the read-aloud settings.
 */
export function ActionModeBar() {
  const { state, dispatch } = useStory();
  const name = useId();
  // The remembered mode, once the page is the browser's (the server drew the default).
  useEffect(() => {
    const mode = rememberedActionMode();
    if (mode) dispatch({ type: "actionModeChosen", mode });
  }, [dispatch]);

  function choose(mode: ActionMode) {
    dispatch({ type: "actionModeChosen", mode });
    rememberActionMode(mode);
  }

  return (
    <div className="mb-2 flex items-center justify-between gap-2">
      <fieldset className="flex items-center">
        <legend className="sr-only">Send your text as</legend>
        <div className="inline-flex rounded-full border border-ink-line bg-ink-raised p-0.5">
          {ACTION_MODES.map(({ mode, label, hint }) => (
            <label
              key={mode}
              title={hint}
              className={cn(
                "relative cursor-pointer rounded-full px-3 py-1 text-xs font-semibold transition-colors has-focus-visible:outline-2 has-focus-visible:outline-gold sm:text-sm",
                state.actionMode === mode ? "bg-gold text-ink" : "text-parchment-dim hover:text-gold",
              )}
            >
              <input
                type="radio"
                name={name}
                value={mode}
                checked={state.actionMode === mode}
                onChange={() => choose(mode)}
                // Over its label, unseen: the label is what shows, the input what is clicked and announced.
                className="absolute inset-0 cursor-pointer appearance-none rounded-full opacity-0"
                aria-describedby={`${name}-${mode}`}
              />
              {label}
              <span id={`${name}-${mode}`} className="sr-only">
                {hint}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <ReadAloudSettingsDialog />
    </div>
  );
}

/** Under the composer: what will be sent, when the mode changes what was typed. */
export function SentAs() {
  const { state } = useStory();
  const sent = composedMessage(state);
  const changed = sent !== "" && sent !== state.draft.trim();
  return (
    <p id={SENT_AS_ID} className={cn("mt-1.5 truncate px-1 text-xs text-parchment-dim", !changed && "sr-only")}>
      {changed ? (
        <>
          Sends: <span className="text-parchment">{sent}</span>
        </>
      ) : null}
    </p>
  );
}
