import type { FieldErrors } from "#app/lib/admin-forms.ts";
import { LORE_TEXTS, type LoreEntryInput, type LoreEntryView, type PublicLoreEntry } from "#app/lib/lorebook.ts";
import type { HousekeepingConnection } from "./story-housekeeping.ts";

/** What saving an entry answered: the entry as stored, or the server's sentence and its messages by field. */
export type LoreSaveResult = { ok: true; entry: LoreEntryView } | { ok: false; error: string; fieldErrors: FieldErrors };

/** What the Lorebook panel lists: the story's own entries, and the game's it may read. */
export interface StoryLoreList {
  entries: LoreEntryView[];
  gameEntries: PublicLoreEntry[];
}

const NO_LORE: StoryLoreList = { entries: [], gameEntries: [] };

/**
 * The story's own lorebook (the Lorebook panel and Remember this): read, add, change and delete
 * its entries through /api/stories/{id}/lore. Part of story-client.ts's client. The game's
 * entries are canon and are never written from here.
 */
export function storyLore({ store, getJson, sendJson }: Pick<HousekeepingConnection, "store" | "getJson" | "sendJson">) {
  const lorePath = () => {
    const id = store.getState().storyId;
    return id ? `/api/stories/${id}/lore` : null;
  };
  return {
    /** The story's entries and the game's shown ones, or null when they could not be read. */
    async loreEntries(): Promise<StoryLoreList | null> {
      const path = lorePath();
      if (!path) return NO_LORE;
      try {
        const response = await getJson(path);
        if (!response.ok) return null;
        return (await response.json()) as StoryLoreList;
      } catch {
        return null;
      }
    },

    /** Adds an entry, or changes the one `entryId` names. */
    async saveLoreEntry(input: LoreEntryInput, entryId?: string): Promise<LoreSaveResult> {
      const path = lorePath();
      if (!path) return { ok: false, error: LORE_TEXTS.saveFailed, fieldErrors: {} };
      try {
        const response = await sendJson(entryId ? "PUT" : "POST", entryId ? `${path}/${entryId}` : path, input);
        const answer = (await response.json().catch(() => ({}))) as { entry?: LoreEntryView; error?: string; fieldErrors?: FieldErrors };
        if (response.ok && answer.entry) return { ok: true, entry: answer.entry };
        return { ok: false, error: answer.error ?? LORE_TEXTS.saveFailed, fieldErrors: answer.fieldErrors ?? {} };
      } catch {
        return { ok: false, error: LORE_TEXTS.saveFailed, fieldErrors: {} };
      }
    },

    /** True once the entry is gone. */
    async deleteLoreEntry(entryId: string): Promise<boolean> {
      const path = lorePath();
      if (!path) return false;
      try {
        return (await sendJson("DELETE", `${path}/${entryId}`)).ok;
      } catch {
        return false;
      }
    },
  };
}
