import { Dices } from "lucide-react";
import { useEffect, useId } from "react";
import { ACTION_MODES, type ActionMode } from "#app/lib/action-modes.ts";
import { CHECK_DIFFICULTIES, checkableStats, type CheckDifficulty } from "#app/lib/stat-checks.ts";
import { cn } from "#app/lib/utils.ts";
import { ReadAloudSettingsDialog } from "./read-aloud-controls.tsx";
import { rememberActionMode, rememberedActionMode } from "./remembered.ts";
import { useStory } from "./story-provider.tsx";
import { composedMessage } from "./story-selectors.ts";

export const SENT_AS_ID = "play-input-sent-as";

/**
 * Above the composer: Do / Say / Story, the way the player's text is sent (a radio group,
 * remembered in this browser), Check in a game with number stats, and the read-aloud settings.
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
    <div className="mb-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex items-center gap-1.5">
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
          <CheckToggle />
        </div>
        <ReadAloudSettingsDialog />
      </div>
      <CheckOptions />
    </div>
  );
}

const PILL_SELECT =
  "rounded-full border border-ink-line bg-ink-raised px-2 py-1 text-xs text-parchment focus-visible:outline-2 focus-visible:outline-gold sm:text-sm";

/** Check: the next message goes with a roll the server makes for one of the game's number stats (docs/decisions/061). */
function CheckToggle() {
  const { state, dispatch } = useStory();
  const stats = checkableStats(state.storyState?.stats ?? []);
  const first = stats[0];
  if (!first || state.editing) return null;
  const on = state.check !== null;
  return (
    <button
      type="button"
      aria-pressed={on}
      title="Send your next message as a check: the server rolls a d20 for a stat, and the Game Master must narrate the outcome."
      onClick={() => dispatch({ type: "checkChosen", check: on ? null : { stat: first.name, difficulty: "normal" } })}
      className={cn(
        "inline-flex items-center gap-1 rounded-full border border-ink-line px-3 py-1 text-xs font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-gold sm:text-sm [&_svg]:size-3.5",
        on ? "border-gold bg-gold text-ink" : "bg-ink-raised text-parchment-dim hover:text-gold",
      )}
    >
      <Dices aria-hidden />
      Check
    </button>
  );
}

/** The stat and difficulty of the Check the next message is sent with. */
function CheckOptions() {
  const { state, dispatch } = useStory();
  const { check } = state;
  if (!check || state.editing) return null;
  const stats = checkableStats(state.storyState?.stats ?? []);
  return (
    <div role="group" aria-label="Check" className="mt-2 flex flex-wrap items-center gap-2 text-xs text-parchment-dim sm:text-sm">
      <label className="inline-flex items-center gap-1.5">
        Stat
        <select
          className={PILL_SELECT}
          value={check.stat}
          onChange={(event) => dispatch({ type: "checkChosen", check: { ...check, stat: event.target.value } })}
        >
          {stats.map((stat) => (
            <option key={stat.name} value={stat.name}>
              {stat.name}
            </option>
          ))}
        </select>
      </label>
      <label className="inline-flex items-center gap-1.5">
        Difficulty
        <select
          className={PILL_SELECT}
          value={check.difficulty}
          onChange={(event) => dispatch({ type: "checkChosen", check: { ...check, difficulty: event.target.value as CheckDifficulty } })}
        >
          {CHECK_DIFFICULTIES.map(({ difficulty, label, target }) => (
            <option key={difficulty} value={difficulty}>
              {label} ({target})
            </option>
          ))}
        </select>
      </label>
      <span>d20 + your {check.stat}, rolled by the server when you send.</span>
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
