import { BookOpen, Pencil, Plus, Trash2 } from "lucide-react";
import { useEffect, useId, useState, type RefObject } from "react";
import { LoreEntryForm, type LoreEntrySaved } from "#app/components/lore-entry-form.tsx";
import { LoreEntrySummary } from "#app/components/lore-entry-summary.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "#app/components/ui/dialog.tsx";
import { LORE_TEXTS, type LoreEntryInput, type LoreEntryView, type PublicLoreEntry } from "#app/lib/lorebook.ts";
import { useStory } from "./story-provider.tsx";

/**
 * The Lorebook panel: the story's own lore entries (the player's, apart from the game's canon),
 * with Add entry, Edit and Delete, and the game's entries its admins show to players, read-only. Opened from the header (beside Memory) or its More menu, so it
 * is controlled from outside. It reads the entries each time it opens: Remember this may have
 * added one since.
 */
export function LorebookDialog({
  open,
  onOpenChange,
  opener,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** What opened it (a button, or the More menu's button), given the focus back. */
  opener: RefObject<HTMLElement | null>;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        className="max-h-[90dvh] overflow-y-auto sm:max-w-2xl"
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          opener.current?.focus();
        }}
      >
        <DialogTitle>Lorebook</DialogTitle>
        <DialogDescription>{LORE_TEXTS.storyExplanation}</DialogDescription>
        <Lorebook />
      </DialogContent>
    </Dialog>
  );
}

/** The panel's content, drawn afresh each time it opens. */
function Lorebook() {
  const { client } = useStory();
  const [entries, setEntries] = useState<LoreEntryView[] | null | undefined>(undefined);
  const [gameEntries, setGameEntries] = useState<PublicLoreEntry[]>([]);
  const [editing, setEditing] = useState<LoreEntryView | "new" | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const headingId = useId();

  useEffect(() => {
    let current = true;
    void client.loreEntries().then((list) => {
      if (!current) return;
      setEntries(list?.entries ?? null);
      setGameEntries(list?.gameEntries ?? []);
    });
    return () => {
      current = false;
    };
  }, [client]);

  async function save(input: LoreEntryInput): Promise<LoreEntrySaved> {
    const changing = editing === "new" ? undefined : editing?.id;
    const result = await client.saveLoreEntry(input, changing);
    if (!result.ok) {
      // The server's sentence for the form as a whole (the story's bound on entries, say); its fields' own messages sit by them.
      setAnnouncement(Object.keys(result.fieldErrors).length > 0 ? "" : result.error);
      return result;
    }
    setEntries((list) =>
      changing ? (list ?? []).map((entry) => (entry.id === changing ? result.entry : entry)) : [...(list ?? []), result.entry],
    );
    setEditing(null);
    setAnnouncement(LORE_TEXTS.saved);
    return result;
  }

  async function remove(entry: LoreEntryView) {
    if (!(await client.deleteLoreEntry(entry.id))) {
      setAnnouncement(LORE_TEXTS.deleteFailed);
      return;
    }
    setEntries((list) => (list ?? []).filter((kept) => kept.id !== entry.id));
    setAnnouncement(LORE_TEXTS.deleted(entry.title));
  }

  return (
    <div className="mt-4 flex flex-col gap-4">
      <div className="flex items-center justify-between gap-3">
        <p role="status" className="min-w-0 text-sm text-parchment-dim">
          {announcement}
        </p>
        <Button type="button" size="sm" onClick={() => setEditing("new")} disabled={editing !== null || !entries}>
          <Plus aria-hidden />
          Add entry
        </Button>
      </div>
      {editing ? (
        <LoreEntryForm
          key={editing === "new" ? "new" : editing.id}
          entry={editing === "new" ? undefined : editing}
          onSave={save}
          onCancel={() => setEditing(null)}
        />
      ) : null}
      <section aria-labelledby={`${headingId}-story`} className="flex flex-col gap-2">
        <h3 id={`${headingId}-story`} className="font-sans text-sm font-semibold tracking-wide text-gold uppercase">
          {LORE_TEXTS.storyEntriesHeading}
        </h3>
        <LoreEntries entries={entries} onEdit={setEditing} onDelete={(entry) => void remove(entry)} />
      </section>
      {gameEntries.length > 0 ? (
        <section aria-labelledby={`${headingId}-game`} className="flex flex-col gap-2">
          <h3 id={`${headingId}-game`} className="font-sans text-sm font-semibold tracking-wide text-gold uppercase">
            {LORE_TEXTS.gameEntriesHeading}
          </h3>
          <p className="text-sm text-parchment-dim">{LORE_TEXTS.gameEntriesExplanation}</p>
          <ul aria-label="The game's lore entries" className="flex flex-col gap-2">
            {gameEntries.map((entry) => (
              <li key={entry.id} className="rounded-lg border border-ink-line bg-ink/40 p-3">
                <LoreEntrySummary entry={entry} heading="h4" />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

function LoreEntries({
  entries,
  onEdit,
  onDelete,
}: {
  entries: LoreEntryView[] | null | undefined;
  onEdit: (entry: LoreEntryView) => void;
  onDelete: (entry: LoreEntryView) => void;
}) {
  if (entries === undefined) return <p className="text-sm text-parchment-dim">Loading the lorebook…</p>;
  if (entries === null) return <p role="alert">{LORE_TEXTS.loadFailed}</p>;
  if (entries.length === 0) {
    return (
      <p className="flex items-start gap-2 rounded-lg border border-dashed border-ink-line px-4 py-6 text-sm text-parchment-dim">
        <BookOpen className="mt-0.5 size-4 shrink-0 text-gold" aria-hidden />
        {LORE_TEXTS.storyEmpty}
      </p>
    );
  }
  return (
    <ul aria-label="The story's lore entries" className="flex flex-col gap-2">
      {entries.map((entry) => (
        <li key={entry.id} className="flex items-start gap-2 rounded-lg border border-ink-line bg-ink/60 p-3">
          <LoreEntrySummary entry={entry} heading="h4" />
          <Button
            type="button"
            variant="ghost"
            size="icon"
            className="size-9 shrink-0"
            aria-label={`Edit ${entry.title}`}
            onClick={() => onEdit(entry)}
          >
            <Pencil aria-hidden />
          </Button>
          <Button
            type="button"
            variant="ghost"
            size="icon"
            className="size-9 shrink-0 hover:text-danger"
            aria-label={`Delete ${entry.title}`}
            onClick={() => onDelete(entry)}
          >
            <Trash2 aria-hidden />
          </Button>
        </li>
      ))}
    </ul>
  );
}
