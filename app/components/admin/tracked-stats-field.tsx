import { Plus, Trash2 } from "lucide-react";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import type { FieldErrors } from "#app/lib/admin-forms.ts";
import { STAT_KINDS, STAT_LIMITS, type StatKind, type TrackedStatDraft } from "#app/lib/tracked-stats.ts";
import { controlProps, Field, SelectField } from "./form-controls.tsx";

const NEW_STAT: TrackedStatDraft = { name: "", kind: "number", min: "0", max: "100", start: "50" };

/**
 * The game's tracked stats (its living state): each with a name, a kind and where stories start.
 * Field ids follow the form's error keys ("trackedStats.0.name" → game-trackedStats-0-name), so a
 * mistake moves focus to its field.
 */
export function TrackedStatsField({
  prefix,
  stats,
  errors,
  onChange,
}: {
  prefix: string;
  stats: TrackedStatDraft[];
  errors: FieldErrors;
  onChange: (stats: TrackedStatDraft[]) => void;
}) {
  const id = (index: number, field: keyof TrackedStatDraft) => `${prefix}-trackedStats-${index}-${field}`;
  const error = (index: number, field: keyof TrackedStatDraft) => errors[`trackedStats.${index}.${field}`];
  const change = (index: number, patch: Partial<TrackedStatDraft>) =>
    onChange(stats.map((stat, at) => (at === index ? { ...stat, ...patch } : stat)));

  return (
    <fieldset className="flex flex-col gap-3 md:col-span-2">
      <legend className="text-sm font-semibold text-parchment">Tracked stats</legend>
      <p className="text-xs text-parchment-dim">
        The living state players see beside their story (Favour 0–100, Rank, Allies…). The Game Master keeps it up to date each turn; Undo and
        Retry bring back the state that goes with the story. Up to {STAT_LIMITS.stats}.
      </p>
      {errors.trackedStats ? <p className="text-xs font-medium text-danger">{errors.trackedStats}</p> : null}
      {stats.length === 0 ? <p className="text-sm text-parchment-dim">This game tracks no stats.</p> : null}
      <ol className="flex flex-col gap-3">
        {stats.map((stat, index) => (
          <li
            key={index}
            aria-label={`Stat ${index + 1}${stat.name ? `: ${stat.name}` : ""}`}
            className="grid gap-3 rounded-lg border border-ink-line bg-ink/40 p-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)_minmax(0,2fr)_auto] lg:items-start"
          >
            <Field id={id(index, "name")} label="Name" error={error(index, "name")}>
              <Input
                {...controlProps(id(index, "name"), error(index, "name"))}
                value={stat.name}
                maxLength={STAT_LIMITS.name}
                placeholder="Favour"
                onChange={(event) => change(index, { name: event.target.value })}
              />
            </Field>
            <SelectField<StatKind>
              id={id(index, "kind")}
              label="Kind"
              value={stat.kind}
              options={STAT_KINDS.map(({ kind, label }) => ({ value: kind, label }))}
              onChange={(kind) => change(index, { kind })}
              error={error(index, "kind")}
            />
            {stat.kind === "number" ? (
              <div className="grid grid-cols-3 gap-2">
                {(
                  [
                    ["min", "Lowest"],
                    ["max", "Highest"],
                    ["start", "Start"],
                  ] as const
                ).map(([field, label]) => (
                  <Field key={field} id={id(index, field)} label={label} error={error(index, field)}>
                    <Input
                      {...controlProps(id(index, field), error(index, field))}
                      inputMode="numeric"
                      value={stat[field]}
                      onChange={(event) => change(index, { [field]: event.target.value })}
                    />
                  </Field>
                ))}
              </div>
            ) : (
              <Field
                id={id(index, "start")}
                label={stat.kind === "list" ? "Starts with (separate with commas)" : "Starts as"}
                error={error(index, "start")}
              >
                <Input
                  {...controlProps(id(index, "start"), error(index, "start"))}
                  value={stat.start}
                  placeholder={stat.kind === "list" ? "Madam Lin, Pei Zhen" : "Empress Dowager"}
                  onChange={(event) => change(index, { start: event.target.value })}
                />
              </Field>
            )}
            <Button
              type="button"
              variant="ghost"
              size="sm"
              className="justify-self-start lg:mt-6"
              onClick={() => onChange(stats.filter((_, at) => at !== index))}
            >
              <Trash2 aria-hidden />
              Remove<span className="sr-only"> {stat.name || `stat ${index + 1}`}</span>
            </Button>
          </li>
        ))}
      </ol>
      {stats.length < STAT_LIMITS.stats ? (
        <Button type="button" variant="outline" size="sm" className="self-start" onClick={() => onChange([...stats, NEW_STAT])}>
          <Plus aria-hidden />
          Add stat
        </Button>
      ) : null}
    </fieldset>
  );
}
