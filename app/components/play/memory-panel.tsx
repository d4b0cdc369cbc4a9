import { Brain } from "lucide-react";
import { useState } from "react";
import { toast } from "#app/components/toast.ts";
import { Button } from "#app/components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from "#app/components/ui/dialog.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { MAX_MEMORY_LENGTH, type StoryMemoryView } from "#app/lib/story-view.ts";

const FIELD =
  "block w-full resize-y rounded-xl border border-ink-line bg-ink px-3 py-2 text-base leading-normal text-parchment placeholder:text-parchment-dim/70 focus-visible:border-gold focus-visible:ring-2 focus-visible:ring-gold/40 focus-visible:outline-none";

/**
 * Memory: what the Game Master is always given about this story — pinned facts, an author's note
 * and the story so far — shown to the player, who can change any of it and Save memory.
 */
export function MemoryPanel({
  storyId,
  memory,
  onSaved,
  disabled,
}: {
  storyId: string | null;
  memory: StoryMemoryView;
  onSaved: (memory: StoryMemoryView) => void;
  disabled: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState(memory);
  const [saving, setSaving] = useState(false);

  function openChange(next: boolean) {
    if (next) setDraft(memory);
    setOpen(next);
  }

  async function save(event: React.SyntheticEvent) {
    event.preventDefault();
    if (!storyId) return;
    setSaving(true);
    try {
      const response = await fetch(`/api/stories/${storyId}/memory`, {
        method: "PUT",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ pinned_facts: draft.pinnedFacts, author_note: draft.authorNote, summary: draft.summary }),
      });
      const answer = (await response.json().catch(() => ({}))) as { memory?: StoryMemoryView; error?: string };
      if (!response.ok || !answer.memory) throw new Error(answer.error ?? "The memory could not be saved. Please try again.");
      onSaved(answer.memory);
      toast.success("Memory saved", { description: "The Game Master uses it from the next reply on." });
      setOpen(false);
    } catch (error) {
      toast.error("Error", { description: (error as Error).message });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={openChange}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="sm" disabled={disabled || !storyId} className="px-2.5">
          <Brain aria-hidden />
          <span className="sr-only sm:not-sr-only">Memory</span>
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-xl">
        <DialogTitle>Memory</DialogTitle>
        <DialogDescription>What the Game Master always keeps in mind in this story. Change anything, then save.</DialogDescription>
        <form onSubmit={(event) => void save(event)} className="mt-4 flex flex-col gap-5">
          <div className="flex flex-col gap-2">
            <Label htmlFor="memory-pinned">Pinned facts</Label>
            <p id="memory-pinned-hint" className="text-xs text-parchment-dim">
              One a line: names, vows, relationships. Always in the Game Master&apos;s context.
            </p>
            <textarea
              id="memory-pinned"
              aria-describedby="memory-pinned-hint"
              rows={4}
              maxLength={MAX_MEMORY_LENGTH}
              className={FIELD}
              value={draft.pinnedFacts}
              placeholder={"My name is Lin Yue.\nI swore to protect the young Emperor."}
              onChange={(event) => setDraft({ ...draft, pinnedFacts: event.target.value })}
            />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="memory-note">Author&apos;s note</Label>
            <p id="memory-note-hint" className="text-xs text-parchment-dim">
              Style and direction, given to the Game Master just before your next message.
            </p>
            <textarea
              id="memory-note"
              aria-describedby="memory-note-hint"
              rows={2}
              maxLength={MAX_MEMORY_LENGTH}
              className={FIELD}
              value={draft.authorNote}
              placeholder="Slow-burn court intrigue; keep the tone tense and witty."
              onChange={(event) => setDraft({ ...draft, authorNote: event.target.value })}
            />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="memory-summary">Story so far</Label>
            <p id="memory-summary-hint" className="text-xs text-parchment-dim">
              Kept up to date as the story outgrows what the Game Master can read at once. Correct it if it got something wrong.
            </p>
            <textarea
              id="memory-summary"
              aria-describedby="memory-summary-hint"
              rows={5}
              maxLength={MAX_MEMORY_LENGTH}
              className={FIELD}
              value={draft.summary}
              placeholder="Nothing yet: the whole story still fits."
              onChange={(event) => setDraft({ ...draft, summary: event.target.value })}
            />
          </div>
          <div className="flex justify-end gap-2">
            <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={saving}>
              {saving ? "Saving..." : "Save memory"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
