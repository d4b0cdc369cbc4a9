import { Gauge } from "lucide-react";
import { Button } from "#app/components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from "#app/components/ui/dialog.tsx";
import type { StoryStateView } from "#app/lib/story-view.ts";
import { statChange, type StatChange, type StatValue, type TrackedStat } from "#app/lib/tracked-stats.ts";
import { cn } from "#app/lib/utils.ts";

/**
 * The story's living state: every stat the game tracks, where the story stands on it, and what
 * the latest turn changed (highlighted). Beside the story on wide screens; a sheet from the State
 * button on narrow ones.
 */

/** Stats with at most this range (0–100, 1–1000) are scores, drawn as a bar. */
const SCORE_RANGE = 1000;

function signed(delta: number) {
  return `${delta > 0 ? "+" : "−"}${Math.abs(delta).toLocaleString("en-US")}`;
}

function changeInWords(stat: TrackedStat, change: StatChange) {
  if (change.kind === "number") return `${change.delta > 0 ? "up" : "down"} ${Math.abs(change.delta).toLocaleString("en-US")} since the last turn`;
  if (change.kind === "text") return `changed since the last turn, from ${change.from || "nothing"}`;
  const parts = [change.added.length ? `${change.added.join(", ")} joined` : "", change.removed.length ? `${change.removed.join(", ")} left` : ""];
  return `${stat.name}: ${parts.filter(Boolean).join("; ")} since the last turn`;
}

function NumberStat({ stat, value, change }: { stat: Extract<TrackedStat, { kind: "number" }>; value: number; change?: StatChange }) {
  const share = Math.round(((value - stat.min) / (stat.max - stat.min)) * 100);
  const delta = change?.kind === "number" ? change.delta : 0;
  return (
    <>
      <div className="flex items-baseline justify-between gap-2">
        <span className="text-sm text-parchment-dim">{stat.name}</span>
        <span className="flex items-baseline gap-1.5 font-semibold text-parchment tabular-nums">
          {delta !== 0 ? (
            <span className={cn("text-xs font-semibold", delta > 0 ? "text-beginner" : "text-danger")} aria-hidden>
              {signed(delta)}
            </span>
          ) : null}
          {value.toLocaleString("en-US")}
        </span>
      </div>
      {/* A purse of thousands has no meaningful "full": only a score gets a bar. */}
      {stat.max - stat.min <= SCORE_RANGE ? (
        <div
          className="mt-1.5 h-1.5 overflow-hidden rounded-full bg-ink-line"
          role="meter"
          aria-label={stat.name}
          aria-valuemin={stat.min}
          aria-valuemax={stat.max}
          aria-valuenow={value}
        >
          <div className="h-full rounded-full bg-gold transition-[width] duration-500" style={{ width: `${share}%` }} />
        </div>
      ) : null}
    </>
  );
}

function StatRow({ stat, value, previous }: { stat: TrackedStat; value: StatValue; previous: StatValue }) {
  const change = statChange(stat, previous, value);
  return (
    <li
      data-stat={stat.name}
      data-changed={change ? "true" : undefined}
      className={cn("rounded-lg px-3 py-2.5 transition-colors", change ? "bg-gold/10 ring-1 ring-gold/40" : "bg-ink/60")}
    >
      {stat.kind === "number" ? (
        <NumberStat stat={stat} value={Number(value)} change={change} />
      ) : stat.kind === "text" ? (
        <div className="flex flex-col gap-0.5">
          <span className="text-sm text-parchment-dim">{stat.name}</span>
          <span className="font-semibold text-parchment">{String(value) || "—"}</span>
        </div>
      ) : (
        <div className="flex flex-col gap-1.5">
          <span className="text-sm text-parchment-dim">{stat.name}</span>
          <div>
            {(value as string[]).length === 0 ? (
              <span className="text-sm text-parchment-dim">None yet</span>
            ) : (
              <ul className="flex flex-wrap gap-1.5">
                {(value as string[]).map((item) => {
                  const added = change?.kind === "list" && change.added.includes(item);
                  return (
                    <li
                      key={item}
                      className={cn(
                        "rounded-full border px-2 py-0.5 text-xs",
                        added ? "border-gold bg-gold/15 text-gold" : "border-ink-line text-parchment",
                      )}
                    >
                      {item}
                    </li>
                  );
                })}
              </ul>
            )}
          </div>
        </div>
      )}
      {change ? <p className="sr-only">{changeInWords(stat, change)}</p> : null}
    </li>
  );
}

export function StateList({ state }: { state: StoryStateView }) {
  return (
    <ul className="flex flex-col gap-2">
      {state.stats.map((stat) => (
        <StatRow key={stat.name} stat={stat} value={state.values[stat.name] ?? stat.start} previous={state.previous[stat.name] ?? stat.start} />
      ))}
    </ul>
  );
}

/** How many stats the latest turn changed. */
function changedCount(state: StoryStateView) {
  return state.stats.filter((stat) => statChange(stat, state.previous[stat.name] ?? stat.start, state.values[stat.name] ?? stat.start)).length;
}

/** Beside the story, on wide screens. */
export function StateSidebar({ state }: { state: StoryStateView }) {
  return (
    <aside aria-labelledby="story-state-heading" className="hidden min-h-0 overflow-y-auto border-l border-ink-line py-4 pr-1 pl-4 lg:block">
      <h2 id="story-state-heading" className="mb-1 text-xl">
        State
      </h2>
      <p className="mb-3 text-xs text-parchment-dim">Changes in the latest turn are highlighted.</p>
      <StateList state={state} />
    </aside>
  );
}

/** The State button and its sheet, on narrow screens. */
export function StateSheet({ state }: { state: StoryStateView }) {
  const changed = changedCount(state);
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="ghost" size="sm" className="relative px-2.5 lg:hidden">
          <Gauge aria-hidden />
          State
          {changed > 0 ? (
            <>
              <span className="absolute top-1 right-1 size-2 rounded-full bg-gold" aria-hidden />
              <span className="sr-only">: {changed} changed in the latest turn</span>
            </>
          ) : null}
        </Button>
      </DialogTrigger>
      <DialogContent className="top-auto bottom-0 left-0 max-h-[80dvh] w-full max-w-none translate-x-0 translate-y-0 rounded-b-none pb-[max(1.5rem,env(safe-area-inset-bottom))]">
        <DialogTitle>State</DialogTitle>
        <DialogDescription>Where your story stands. Changes in the latest turn are highlighted.</DialogDescription>
        <StateList state={state} />
      </DialogContent>
    </Dialog>
  );
}
