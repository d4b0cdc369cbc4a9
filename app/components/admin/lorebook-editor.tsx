import { BookOpen, Download, Plus, Upload } from "lucide-react";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { LoreEntryForm, type LoreEntrySaved, type LoreEntrySubmitted } from "#app/components/lore-entry-form.tsx";
import { toast } from "#app/components/toast.ts";
import { LoreEntrySummary } from "#app/components/lore-entry-summary.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { LORE_TEXTS, loreEntryInputSchema, type GameLoreEntryView } from "#app/lib/lorebook.ts";
import { EmptyState, LoadFailed, NumberField } from "./form-controls.tsx";
import { DeleteButton, EditButton } from "./item-list.tsx";
import { useAdminRequest } from "./use-admin-request.ts";

/**
 * A game's Lorebook section: the game's entries, a form to add or change one, and SillyTavern
 * world-info files in and out. The admin's game editor shows it under its h2s, and /create shows it
 * for the creator's world (docs/decisions/065): `base` is the lorebook's API, `heading` its level.
 * It reads its own list, apart from the page's data.
 */
export function LorebookEditor({ base, empty, heading }: { base: string; empty: string; heading: "h2" | "h3" }) {
  const Heading = heading;
  const [entries, setEntries] = useState<GameLoreEntryView[] | null | undefined>(undefined);
  const [scanDepth, setScanDepth] = useState<number>();
  const [editing, setEditing] = useState<GameLoreEntryView | "new" | null>(null);
  const { send, pending } = useAdminRequest();
  const fileInput = useRef<HTMLInputElement>(null);

  // Bumped after a change the server made, to read the list again.
  const [version, setVersion] = useState(0);
  const reload = useCallback(async () => setVersion((current) => current + 1), []);
  useEffect(() => {
    let current = true;
    void fetch(base)
      .then(async (response) => (response.ok ? ((await response.json()) as { scanDepth: number; entries: GameLoreEntryView[] }) : null))
      .catch(() => null)
      .then((lorebook) => {
        if (!current) return;
        setEntries(lorebook?.entries ?? null);
        setScanDepth(lorebook?.scanDepth);
      });
    return () => {
      current = false;
    };
  }, [base, version]);

  async function save(input: LoreEntrySubmitted): Promise<LoreEntrySaved> {
    const entry = editing === "new" ? null : editing;
    const result = await send<{ entry: GameLoreEntryView }>(entry ? "PUT" : "POST", entry ? `${base}/${entry.id}` : base, input);
    if (!result.ok) {
      toast.error(LORE_TEXTS.saveFailed, { description: result.error });
      return result;
    }
    toast.success(LORE_TEXTS.saved);
    setEditing(null);
    await reload();
    return result;
  }

  async function importFile(file: File) {
    let world: unknown;
    try {
      world = JSON.parse(await file.text());
    } catch {
      toast.error(LORE_TEXTS.importFailed, { description: LORE_TEXTS.notJson });
      return;
    }
    const result = await send<{ entries: GameLoreEntryView[] }>("POST", `${base}/world-info`, world);
    if (result.ok) {
      toast.success(LORE_TEXTS.imported(result.data.entries.length));
      await reload();
    } else toast.error(LORE_TEXTS.importFailed, { description: result.error });
  }

  return (
    <section aria-labelledby="lorebook-heading" className="space-y-4 md:col-span-2">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <Heading id="lorebook-heading" className="text-2xl">
            Lorebook
          </Heading>
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
      {scanDepth === undefined ? null : <LookBack key={scanDepth} base={base} saved={scanDepth} onSaved={setScanDepth} />}
      {editing ? (
        <LoreEntryForm
          key={editing === "new" ? "new" : editing.id}
          entry={editing === "new" ? undefined : editing}
          game
          onSave={save}
          onCancel={() => setEditing(null)}
        />
      ) : null}
      {entries === undefined ? (
        <p className="text-sm text-parchment-dim">Loading the lorebook…</p>
      ) : entries === null ? (
        <LoadFailed message={LORE_TEXTS.loadFailed} />
      ) : entries.length === 0 ? (
        <EmptyState icon={<BookOpen />} title={empty} />
      ) : (
        <ul className="space-y-2">
          {entries.map((entry) => (
            <li
              key={entry.id}
              className="flex flex-col gap-2 rounded-lg border border-ink-line bg-ink/60 p-3.5 sm:flex-row sm:items-start sm:justify-between"
            >
              <div className="min-w-0">
                <LoreEntrySummary entry={entry} heading={heading === "h2" ? "h3" : "h4"} />
                {/* A card's entry is stored as it came, even past the editor's limits: say so before Edit refuses it. */}
                {loreEntryInputSchema.safeParse(entry).success ? null : <p className="mt-1 text-sm text-gold">{LORE_TEXTS.pastLimits}</p>}
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
 * How many exchanges before the message being sent the keys are looked for in, saved on its own:
 * the editor sits inside the admin's game form, so this is a button, not a form of its own.
 */
function LookBack({ base, saved, onSaved }: { base: string; saved: number; onSaved: (scanDepth: number) => void }) {
  const id = useId();
  const [value, setValue] = useState(String(saved));
  const [error, setError] = useState<string>();
  const { send, pending } = useAdminRequest();
  async function save() {
    const typed = value.trim();
    const result = await send<{ scanDepth: number }>("PATCH", base, { scanDepth: typed === "" ? null : Number(typed) });
    if (!result.ok) {
      setError(result.fieldErrors.scanDepth ?? result.error ?? LORE_TEXTS.lookBackFailed);
      return;
    }
    setError(undefined);
    toast.success(LORE_TEXTS.lookBackSaved(result.data.scanDepth));
    onSaved(result.data.scanDepth);
  }
  return (
    <div className="flex flex-wrap items-start gap-3">
      <div className="w-full max-w-xs">
        <NumberField id={id} label={LORE_TEXTS.lookBack} value={value} onChange={setValue} error={error} hint={LORE_TEXTS.lookBackHint} />
      </div>
      <Button type="button" variant="outline" size="sm" className="mt-7" onClick={() => void save()} disabled={pending || value === String(saved)}>
        {LORE_TEXTS.lookBackSave}
      </Button>
    </div>
  );
}
