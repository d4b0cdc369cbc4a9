import { BookOpen, Download, Plus, Upload } from "lucide-react";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { toast } from "#app/components/toast.ts";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input, Textarea } from "#app/components/ui/input.tsx";
import type { FieldErrors } from "#app/lib/admin-forms.ts";
import { ADMIN_TEXTS } from "#app/lib/admin-texts.ts";
import { LORE_TEXTS, loreEntryInputSchema, type LoreEntryView } from "#app/lib/lorebook.ts";
import { controlProps, EmptyState, Field, LoadFailed, NumberField, SwitchField } from "./form-controls.tsx";
import { DeleteButton, EditButton } from "./item-list.tsx";
import { useAdminRequest } from "./use-admin-request.ts";

interface EntryDraft {
  title: string;
  keys: string;
  content: string;
  priority: string;
  alwaysOn: boolean;
  enabled: boolean;
}

const EMPTY_DRAFT: EntryDraft = { title: "", keys: "", content: "", priority: "0", alwaysOn: false, enabled: true };

function draftOf(entry: LoreEntryView): EntryDraft {
  return { ...entry, priority: String(entry.priority) };
}

/**
 * The game editor's Lorebook section: the game's entries, a form to add or change one, and
 * SillyTavern world-info files in and out. It reads its own list, apart from the panel's data.
 */
export function LorebookEditor({ gameId }: { gameId: string }) {
  const base = `/api/admin/games/${gameId}/lore`;
  const [entries, setEntries] = useState<LoreEntryView[] | null | undefined>(undefined);
  const [editing, setEditing] = useState<LoreEntryView | "new" | null>(null);
  const { send, pending } = useAdminRequest();
  const fileInput = useRef<HTMLInputElement>(null);

  // Bumped after a change the server made, to read the list again.
  const [version, setVersion] = useState(0);
  const reload = useCallback(async () => setVersion((current) => current + 1), []);
  useEffect(() => {
    let current = true;
    void fetch(base)
      .then(async (response) => (response.ok ? ((await response.json()) as { entries: LoreEntryView[] }).entries : null))
      .catch(() => null)
      .then((list) => {
        if (current) setEntries(list);
      });
    return () => {
      current = false;
    };
  }, [base, version]);

  async function importFile(file: File) {
    let world: unknown;
    try {
      world = JSON.parse(await file.text());
    } catch {
      toast.error(LORE_TEXTS.importFailed, { description: LORE_TEXTS.notJson });
      return;
    }
    const result = await send<{ entries: LoreEntryView[] }>("POST", `${base}/world-info`, world);
    if (result.ok) {
      toast.success(LORE_TEXTS.imported(result.data.entries.length));
      await reload();
    } else toast.error(LORE_TEXTS.importFailed, { description: result.error });
  }

  return (
    <section aria-labelledby="lorebook-heading" className="space-y-4 md:col-span-2">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h3 id="lorebook-heading" className="text-2xl">
            Lorebook
          </h3>
          <p className="text-sm text-parchment-dim">{LORE_TEXTS.explanation}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="outline" size="sm" onClick={() => fileInput.current?.click()} disabled={pending}>
            <Upload aria-hidden />
            Import
          </Button>
          <input
            ref={fileInput}
            type="file"
            accept="application/json,.json"
            className="sr-only"
            tabIndex={-1}
            aria-label="Lorebook file to import"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = "";
              if (file) void importFile(file);
            }}
          />
          <Button asChild variant="outline" size="sm">
            <a href={`${base}/world-info`} download="lorebook.json">
              <Download aria-hidden />
              Export
            </a>
          </Button>
          <Button type="button" size="sm" onClick={() => setEditing("new")} disabled={editing !== null}>
            <Plus aria-hidden />
            Add entry
          </Button>
        </div>
      </div>
      {editing ? (
        <EntryForm
          key={editing === "new" ? "new" : editing.id}
          entry={editing === "new" ? undefined : editing}
          base={base}
          onClose={async (saved) => {
            setEditing(null);
            if (saved) await reload();
          }}
        />
      ) : null}
      {entries === undefined ? (
        <p className="text-sm text-parchment-dim">Loading the lorebook…</p>
      ) : entries === null ? (
        <LoadFailed message={LORE_TEXTS.loadFailed} />
      ) : entries.length === 0 ? (
        <EmptyState icon={<BookOpen />} title={LORE_TEXTS.empty} />
      ) : (
        <ul className="space-y-2">
          {entries.map((entry) => (
            <li
              key={entry.id}
              className="flex flex-col gap-2 rounded-lg border border-ink-line bg-ink/60 p-3.5 sm:flex-row sm:items-start sm:justify-between"
            >
              <div className="min-w-0 flex-1 space-y-1">
                <div className="flex flex-wrap items-center gap-2">
                  <h4 className="font-semibold">{entry.title}</h4>
                  {entry.alwaysOn ? <Badge variant="outline">Always on</Badge> : null}
                  {entry.enabled ? null : <Badge variant="outline">Disabled</Badge>}
                  <span className="text-xs text-parchment-dim">Priority {entry.priority}</span>
                </div>
                <p className="font-mono text-xs break-words text-parchment-dim">{entry.keys || LORE_TEXTS.noKeys}</p>
                <p className="line-clamp-2 text-sm">{entry.content}</p>
              </div>
              <div className="flex gap-1">
                <EditButton title={entry.title} onEdit={() => setEditing(entry)} />
                <DeleteButton
                  kind="lore entry"
                  title={entry.title}
                  url={`${base}/${entry.id}`}
                  deletedMessage={LORE_TEXTS.deleted(entry.title)}
                  failedMessage={LORE_TEXTS.deleteFailed}
                  onDeleted={reload}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * A div, not a form: it sits inside the game's own form, and a nested form is not valid HTML.
 * Enter in its fields therefore saves the entry, not the game.
 */
function EntryForm({ entry, base, onClose }: { entry?: LoreEntryView; base: string; onClose: (saved: boolean) => Promise<void> }) {
  const prefix = useId();
  const id = (field: string) => `${prefix}-lore-${field}`;
  const [values, setValues] = useState<EntryDraft>(entry ? draftOf(entry) : EMPTY_DRAFT);
  const [errors, setErrors] = useState<FieldErrors>({});
  const { send, pending } = useAdminRequest();
  const set = <Key extends keyof EntryDraft>(key: Key, value: EntryDraft[Key]) => setValues((current) => ({ ...current, [key]: value }));

  async function save() {
    const parsed = loreEntryInputSchema.safeParse({ ...values, priority: Number(values.priority) });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])));
      return;
    }
    const result = await send<{ entry: LoreEntryView }>(entry ? "PUT" : "POST", entry ? `${base}/${entry.id}` : base, parsed.data);
    if (result.ok) {
      toast.success(LORE_TEXTS.saved);
      await onClose(true);
    } else {
      setErrors(result.fieldErrors);
      toast.error(LORE_TEXTS.saveFailed, { description: result.error });
    }
  }

  return (
    <div
      role="group"
      aria-labelledby={id("heading")}
      className="grid gap-4 rounded-lg border border-gold/40 bg-ink/60 p-4 sm:grid-cols-2"
      onKeyDown={(event) => {
        if (event.key === "Enter" && event.target instanceof HTMLInputElement) {
          event.preventDefault();
          void save();
        }
      }}
    >
      <h4 id={id("heading")} className="font-semibold sm:col-span-2">
        {entry ? `Edit ${entry.title}` : "New lorebook entry"}
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
      <div className="flex flex-col-reverse gap-2 sm:col-span-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="secondary" onClick={() => void onClose(false)} disabled={pending}>
          Cancel
        </Button>
        <Button type="button" onClick={() => void save()} disabled={pending}>
          {pending ? ADMIN_TEXTS.saving : entry ? "Update Entry" : "Add Entry"}
        </Button>
      </div>
    </div>
  );
}
