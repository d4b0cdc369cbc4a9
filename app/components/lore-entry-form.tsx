import { useId, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Input, Textarea } from "#app/components/ui/input.tsx";
import { fieldErrorsOf, type FieldErrors } from "#app/lib/admin-forms.ts";
import { ADMIN_TEXTS } from "#app/lib/admin-texts.ts";
import { LORE_TEXTS, loreEntryInputSchema, type GameLoreEntryView, type LoreEntryInput } from "#app/lib/lorebook.ts";
import { cn } from "#app/lib/utils.ts";
import { controlProps, Field, NumberField, SwitchField } from "./admin/form-controls.tsx";

interface EntryDraft {
  title: string;
  keys: string;
  content: string;
  priority: string;
  alwaysOn: boolean;
  enabled: boolean;
  shownToPlayers: boolean;
}

const EMPTY_DRAFT: EntryDraft = { title: "", keys: "", content: "", priority: "0", alwaysOn: false, enabled: true, shownToPlayers: false };

function draftOf(entry: Partial<GameLoreEntryView>): EntryDraft {
  return { ...EMPTY_DRAFT, ...entry, priority: String(entry.priority ?? 0) };
}

/** An entry as the form sends it: a game's also says whether players are shown it. */
export type LoreEntrySubmitted = LoreEntryInput & { shownToPlayers?: boolean };

/** What saving an entry answered: nothing more to say, or the server's messages by field. */
export type LoreEntrySaved = { ok: true } | { ok: false; fieldErrors: FieldErrors };

/**
 * A lorebook entry's form, the game editor's and the play screen's: title, keys, content,
 * Always on, Enabled and priority (and, for a game's entry, Shown to players), checked here first
 * and then by the server, whose messages are shown by their fields. `entry` with an id is changed,
 * without one (or none) added.
 *
 * A div, not a form: in the game editor it sits inside the game's own form, and a nested form is
 * not valid HTML. Enter in its fields therefore saves the entry, not the game.
 */
export function LoreEntryForm({
  entry,
  game = false,
  onSave,
  onCancel,
  className,
}: {
  entry?: Partial<GameLoreEntryView>;
  /** A game's entry (the game editor's), which may be shown to players. */
  game?: boolean;
  onSave: (input: LoreEntrySubmitted) => Promise<LoreEntrySaved>;
  onCancel: () => void;
  className?: string;
}) {
  const prefix = useId();
  const id = (field: string) => `${prefix}-lore-${field}`;
  const [values, setValues] = useState<EntryDraft>(entry ? draftOf(entry) : EMPTY_DRAFT);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);
  const set = <Key extends keyof EntryDraft>(key: Key, value: EntryDraft[Key]) => setValues((current) => ({ ...current, [key]: value }));
  const existing = entry?.id !== undefined;

  async function save() {
    const parsed = loreEntryInputSchema.safeParse({ ...values, priority: Number(values.priority) });
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error));
      return;
    }
    setPending(true);
    const saved = await onSave(game ? { ...parsed.data, shownToPlayers: values.shownToPlayers } : parsed.data);
    setPending(false);
    if (!saved.ok) setErrors(saved.fieldErrors);
  }

  return (
    <div
      role="group"
      aria-labelledby={id("heading")}
      className={cn("grid gap-4 rounded-lg border border-gold/40 bg-ink/60 p-4 sm:grid-cols-2", className)}
      onKeyDown={(event) => {
        if (event.key === "Enter" && event.target instanceof HTMLInputElement) {
          event.preventDefault();
          void save();
        }
      }}
    >
      <h4 id={id("heading")} className="font-semibold sm:col-span-2">
        {existing ? `Edit ${entry.title ?? ""}` : "New lorebook entry"}
      </h4>
      <Field id={id("title")} label="Title" required error={errors.title}>
        <Input {...controlProps(id("title"), errors.title)} value={values.title} onChange={(event) => set("title", event.target.value)} />
      </Field>
      <NumberField
        id={id("priority")}
        label="Priority"
        value={values.priority}
        onChange={(priority) => set("priority", priority)}
        error={errors.priority}
        hint="Higher priorities stay when lore runs out of room."
      />
      <Field
        id={id("keys")}
        label="Keys"
        error={errors.keys}
        className="sm:col-span-2"
        hint={<p className="text-parchment-dim">{LORE_TEXTS.keysHint}</p>}
      >
        <Input {...controlProps(id("keys"), errors.keys)} value={values.keys} onChange={(event) => set("keys", event.target.value)} />
      </Field>
      <Field id={id("content")} label="Content" required error={errors.content} className="sm:col-span-2">
        <Textarea
          {...controlProps(id("content"), errors.content)}
          rows={4}
          value={values.content}
          onChange={(event) => set("content", event.target.value)}
        />
      </Field>
      <SwitchField
        id={id("alwaysOn")}
        label="Always on"
        description="In every turn's context, whatever is said."
        checked={values.alwaysOn}
        onChange={(alwaysOn) => set("alwaysOn", alwaysOn)}
      />
      <SwitchField
        id={id("enabled")}
        label="Enabled"
        description="A disabled entry is kept but never used."
        checked={values.enabled}
        onChange={(enabled) => set("enabled", enabled)}
      />
      {game ? (
        <SwitchField
          id={id("shownToPlayers")}
          label={LORE_TEXTS.shownToPlayers}
          description={LORE_TEXTS.shownToPlayersHint}
          checked={values.shownToPlayers}
          onChange={(shownToPlayers) => set("shownToPlayers", shownToPlayers)}
        />
      ) : null}
      <div className="flex flex-col-reverse gap-2 sm:col-span-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="secondary" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button type="button" onClick={() => void save()} disabled={pending}>
          {pending ? ADMIN_TEXTS.saving : existing ? "Update Entry" : "Add Entry"}
        </Button>
      </div>
    </div>
  );
}
