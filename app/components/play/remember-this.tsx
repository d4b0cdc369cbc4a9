import { Bookmark } from "lucide-react";
import { createContext, use, useEffect, useId, useState, type ReactNode } from "react";
import { LoreEntryForm, type LoreEntrySaved } from "#app/components/lore-entry-form.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "#app/components/ui/dialog.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { MAX_LORE_CONTENT_CHARACTERS, MAX_LORE_TITLE_CHARACTERS, type LoreEntryInput } from "#app/lib/lorebook.ts";
import { MAX_MEMORY_LENGTH } from "#app/lib/story-view.ts";
import { cn } from "#app/lib/utils.ts";
import { useStory } from "./story-provider.tsx";

/**
 * Remember this: words of a reply kept as a story lore entry or a pinned fact. Selecting text
 * in a reply offers it in a small button by the selection; each reply's tools offer it too (for
 * the keyboard), taking the selection in that reply or else the whole reply.
 */

const RememberContext = createContext<(text: string) => void>(() => undefined);

/** Opens Remember this with the words given. */
export function useRemember() {
  return use(RememberContext);
}

/** The words selected inside one reply of the story, or "" when the selection is not that. */
export function selectedReplyText(within?: Element | null): string {
  const selection = typeof window === "undefined" ? null : window.getSelection();
  if (!selection || selection.isCollapsed || selection.rangeCount === 0) return "";
  const reply = (node: Node | null) => (node instanceof Element ? node : node?.parentElement)?.closest('li[data-role="assistant"]') ?? null;
  const start = reply(selection.anchorNode);
  if (!start || start !== reply(selection.focusNode) || (within && start !== within)) return "";
  return selection.toString().trim();
}

interface Offer {
  text: string;
  top: number;
  left: number;
}

/** The story's replies with Remember this: the button by a selection, and the dialog. */
export function RememberThis({ children }: { children: ReactNode }) {
  const [remembering, setRemembering] = useState<string | null>(null);
  const [offer, setOffer] = useState<Offer | null>(null);

  useEffect(() => {
    const page = new AbortController();
    const offerSelection = () => {
      const text = selectedReplyText();
      const range = text ? window.getSelection()?.getRangeAt(0) : undefined;
      const box = range?.getBoundingClientRect();
      setOffer(box && text ? { text, top: Math.max(8, box.top - 44), left: Math.min(Math.max(8, box.left), window.innerWidth - 160) } : null);
    };
    document.addEventListener("selectionchange", offerSelection, { signal: page.signal });
    // The story scrolls under a fixed button: it goes until the next selection.
    document.addEventListener("scroll", () => setOffer(null), { capture: true, signal: page.signal });
    return () => page.abort();
  }, []);

  return (
    <RememberContext value={setRemembering}>
      {children}
      {offer ? (
        <Button
          type="button"
          size="sm"
          className="fixed z-40 shadow-lg shadow-ink"
          style={{ top: offer.top, left: offer.left }}
          // Pressing it must not clear the selection it was offered for.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => {
            setRemembering(offer.text);
            setOffer(null);
          }}
        >
          <Bookmark aria-hidden />
          Remember this
        </Button>
      ) : null}
      <RememberDialog text={remembering} onClose={() => setRemembering(null)} />
    </RememberContext>
  );
}

type Keeping = "lore" | "fact";

function RememberDialog({ text, onClose }: { text: string | null; onClose: () => void }) {
  return (
    <Dialog open={text !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-2xl">
        <DialogTitle>Remember this</DialogTitle>
        <DialogDescription>Keep these words for the Game Master in this story, as a lore entry or a pinned fact.</DialogDescription>
        {text === null ? null : <RememberForm key={text} text={text} onClose={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function RememberForm({ text, onClose }: { text: string; onClose: () => void }) {
  const { state, client } = useStory();
  const [keeping, setKeeping] = useState<Keeping>("lore");
  const [fact, setFact] = useState(() => text.replace(/\s+/g, " "));
  const [problem, setProblem] = useState("");
  const [saving, setSaving] = useState(false);
  const factId = useId();
  const choiceName = useId();

  async function saveLore(input: LoreEntryInput): Promise<LoreEntrySaved> {
    const result = await client.saveLoreEntry(input);
    if (!result.ok) {
      setProblem(Object.keys(result.fieldErrors).length > 0 ? "" : result.error);
      return result;
    }
    onClose();
    return result;
  }

  async function pinFact(event: React.SyntheticEvent) {
    event.preventDefault();
    const pinned = state.memory.pinnedFacts.trimEnd();
    setSaving(true);
    if (await client.saveMemory({ ...state.memory, pinnedFacts: pinned ? `${pinned}\n${fact.trim()}` : fact.trim() })) onClose();
    setSaving(false);
  }

  const choices: { value: Keeping; label: string; hint: string }[] = [
    { value: "lore", label: "A lore entry", hint: "Read when its keys come up" },
    { value: "fact", label: "A pinned fact", hint: "Always in mind" },
  ];
  return (
    <>
      <fieldset className="mt-4">
        <legend className="mb-2 text-sm font-medium">Keep it as</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {choices.map((choice) => (
            <label
              key={choice.value}
              className={cn(
                "flex cursor-pointer items-start gap-2.5 rounded-lg border px-3 py-2.5 text-sm has-focus-visible:ring-2 has-focus-visible:ring-gold/60",
                keeping === choice.value ? "border-gold bg-gold/10" : "border-ink-line bg-ink/60",
              )}
            >
              <input
                type="radio"
                name={choiceName}
                value={choice.value}
                checked={keeping === choice.value}
                onChange={() => setKeeping(choice.value)}
                className="mt-0.5 accent-[var(--color-gold)]"
              />
              <span>
                <span className="block font-semibold">{choice.label}</span>
                <span className="block text-xs text-parchment-dim">{choice.hint}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {problem ? (
        <p role="alert" className="mt-3 text-sm font-medium text-danger">
          {problem}
        </p>
      ) : null}
      {keeping === "lore" ? (
        <LoreEntryForm
          className="mt-4"
          entry={{ title: titleOf(text), content: text.slice(0, MAX_LORE_CONTENT_CHARACTERS) }}
          onSave={saveLore}
          onCancel={onClose}
        />
      ) : (
        <form onSubmit={(event) => void pinFact(event)} className="mt-4 flex flex-col gap-2">
          <Label htmlFor={factId}>Pinned fact</Label>
          <textarea
            id={factId}
            rows={4}
            maxLength={MAX_MEMORY_LENGTH}
            value={fact}
            onChange={(event) => setFact(event.target.value)}
            className="block w-full resize-y rounded-xl border border-ink-line bg-ink px-3 py-2 text-base text-parchment focus-visible:border-gold focus-visible:ring-2 focus-visible:ring-gold/40 focus-visible:outline-none"
          />
          <div className="flex justify-end gap-2">
            <Button type="button" variant="ghost" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={saving || fact.trim() === ""}>
              {saving ? "Saving..." : "Pin fact"}
            </Button>
          </div>
        </form>
      )}
    </>
  );
}

/** A title from the first words: what the player selected, cut at a word. */
function titleOf(text: string): string {
  const words = text
    .replace(/[*_`#>]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  if (words.length <= 40) return words.slice(0, MAX_LORE_TITLE_CHARACTERS);
  const cut = words.slice(0, 40);
  return `${cut.slice(0, cut.lastIndexOf(" ") > 10 ? cut.lastIndexOf(" ") : 40)}…`;
}
