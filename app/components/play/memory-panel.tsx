import { Brain } from "lucide-react";
import { useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from "#app/components/ui/dialog.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { MAX_MEMORY_LENGTH, type StoryMemoryView } from "#app/lib/story-view.ts";
import { useStory } from "./story-provider.tsx";
import { isPending } from "./story-selectors.ts";

const FIELD =
  "block w-full resize-y rounded-xl border border-ink-line bg-ink px-3 py-2 text-base leading-normal text-parchment placeholder:text-parchment-dim/70 focus-visible:border-gold focus-visible:ring-2 focus-visible:ring-gold/40 focus-visible:outline-none";

/** The three parts of the memory, in the order the panel shows them. */
const MEMORY_FIELDS: { part: keyof StoryMemoryView; label: string; hint: string; rows: number; placeholder: string }[] = [
  {
    part: "pinnedFacts",
    label: "Pinned facts",
    hint: "One a line: names, vows, relationships. Always in the Game Master's context.",
    rows: 4,
    placeholder: "My name is Lin Yue.\nI swore to protect the young Emperor.",
  },
  {
    part: "authorNote",
    label: "Author's note",
    hint: "Style and direction, given to the Game Master just before your next message.",
    rows: 2,
    placeholder: "Slow-burn court intrigue; keep the tone tense and witty.",
  },
  {
    part: "summary",
    label: "Story so far",
    hint: "Kept up to date as the story outgrows what the Game Master can read at once. Correct it if it got something wrong.",
    rows: 5,
    placeholder: "Nothing yet: the whole story still fits.",
  },
];

/**
 * Memory: what the Game Master is always given about this story — pinned facts, an author's note
 * and the story so far — shown to the player, who can change any of it and Save memory.
 */
export function MemoryPanel() {
  const { state, client } = useStory();
  const { storyId, memory } = state;
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState(memory);
  const [saving, setSaving] = useState(false);

  function openChange(next: boolean) {
    if (next) setDraft(memory);
    setOpen(next);
  }

  async function save(event: React.SyntheticEvent) {
    event.preventDefault();
    setSaving(true);
    if (await client.saveMemory(draft)) setOpen(false);
    setSaving(false);
  }

  return (
    <Dialog open={open} onOpenChange={openChange}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="sm" disabled={isPending(state) || !storyId} className="px-2.5">
          <Brain aria-hidden />
          Memory
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-xl">
        <DialogTitle>Memory</DialogTitle>
        <DialogDescription>What the Game Master always keeps in mind in this story. Change anything, then save.</DialogDescription>
        <form onSubmit={(event) => void save(event)} className="mt-4 flex flex-col gap-5">
          {MEMORY_FIELDS.map((field) => (
            <div key={field.part} className="flex flex-col gap-2">
              <Label htmlFor={`memory-${field.part}`}>{field.label}</Label>
              <p id={`memory-${field.part}-hint`} className="text-xs text-parchment-dim">
                {field.hint}
              </p>
              <textarea
                id={`memory-${field.part}`}
                aria-describedby={`memory-${field.part}-hint`}
                rows={field.rows}
                maxLength={MAX_MEMORY_LENGTH}
                className={FIELD}
                value={draft[field.part]}
                placeholder={field.placeholder}
                onChange={(event) => setDraft({ ...draft, [field.part]: event.target.value })}
              />
            </div>
          ))}
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
