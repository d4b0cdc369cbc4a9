import { z } from "zod";

/**
 * A lorebook entry as it is written and exchanged: the admin editor's form, the API's bodies and
 * SillyTavern's world-info files all go through these schemas. Keys are checked further on the
 * server (patterns must be safe: app/domain/game-master/lorebook.server.ts).
 */

export const MAX_LORE_TITLE_CHARACTERS = 100;
export const MAX_LORE_KEYS_CHARACTERS = 1000;
export const MAX_LORE_CONTENT_CHARACTERS = 2000;
export const MAX_LORE_PRIORITY = 1000;
export const MAX_STORY_LORE_ENTRIES = 100;
export const MAX_GAME_LORE_ENTRIES = 300;

export interface LoreEntryInput {
  title: string;
  keys: string;
  content: string;
  alwaysOn: boolean;
  priority: number;
  enabled: boolean;
}

export interface LoreEntryView extends LoreEntryInput {
  id: string;
}

/** A game's entry also says whether players see it in the play screen's Lorebook panel. */
export interface GameLoreEntryInput extends LoreEntryInput {
  shownToPlayers: boolean;
}

export interface GameLoreEntryView extends GameLoreEntryInput {
  id: string;
}

/** A game's entry as its players read it (read-only, shown ones only): no priority or switches, which are the admin's. */
export interface PublicLoreEntry {
  id: string;
  title: string;
  keys: string;
  content: string;
}

/** How many exchanges before the message being sent a game's keys may be looked for in, and are unless it says otherwise. */
export const MAX_SCAN_DEPTH = 10;
export const DEFAULT_SCAN_DEPTH = 2;

/** The lorebook editor's words (the admin's and /create's) and the play screen's Lorebook panel's. */
export const LORE_TEXTS = {
  explanation: "Facts the Game Master reads only when their keys come up in the story, or always when marked Always on.",
  keysHint: "Words or phrases separated by commas, matched as whole words in any case. A key written /like this/ is a regular expression.",
  noKeys: "No keys",
  empty: "This game's lorebook has no entries yet.",
  worldEmpty: "Your world's lorebook has no entries yet. Add one, or import a SillyTavern world-info file.",
  storyEmpty: "This story's lorebook has no entries yet. Add one, or select words in a reply and choose Remember this.",
  shownToPlayers: "Shown to players",
  shownToPlayersHint: "Listed, read-only, in the play screen's Lorebook panel. Hidden entries stay the Game Master's.",
  gameEntriesHeading: "From the game",
  gameEntriesExplanation: "The game's own lore its players may read. Only the game's admins change it.",
  storyEntriesHeading: "This story's entries",
  storyExplanation:
    "Facts about this story the Game Master reads when their keys come up, or always when marked Always on. The game's own lore is not changed.",
  loadFailed: "The lorebook could not be loaded. Reload the page to try again.",
  saved: "The lorebook entry has been saved.",
  saveFailed: "The lorebook entry could not be saved.",
  pastLimits: "Longer than the editor allows: the Game Master reads it as it is, and Edit asks you to shorten it first.",
  lookBack: "Look back (exchanges)",
  lookBackHint: `Keys are looked for in the message being sent and this many exchanges before it (0 to ${MAX_SCAN_DEPTH}).`,
  lookBackSave: "Save look-back",
  lookBackSaved: (depth: number) => `Keys are now looked for ${depth === 1 ? "1 exchange" : `${depth} exchanges`} back.`,
  lookBackFailed: "The look-back could not be saved.",
  deleteFailed: "The lorebook entry could not be deleted.",
  deleted: (title: string) => `"${title}" has been deleted from the lorebook.`,
  importFailed: "The lorebook file could not be imported.",
  notJson: "The file is not JSON: export a world-info file from SillyTavern or from this editor.",
  imported: (entries: number) => `${entries} ${entries === 1 ? "entry was" : "entries were"} added to the lorebook.`,
} as const;

const count = (value: number) => value.toLocaleString("en-US");

export const loreEntryInputSchema = z.object({
  title: z
    .string({ error: "Give the entry a title." })
    .trim()
    .min(1, "Give the entry a title.")
    .max(MAX_LORE_TITLE_CHARACTERS, `Keep the title under ${count(MAX_LORE_TITLE_CHARACTERS)} characters.`),
  keys: z
    .string({ error: "Send the keys as text, separated by commas." })
    .trim()
    .max(MAX_LORE_KEYS_CHARACTERS, `Keep the keys under ${count(MAX_LORE_KEYS_CHARACTERS)} characters.`),
  content: z
    .string({ error: "Write what the Game Master should know." })
    .trim()
    .min(1, "Write what the Game Master should know.")
    .max(MAX_LORE_CONTENT_CHARACTERS, `Keep the content under ${count(MAX_LORE_CONTENT_CHARACTERS)} characters.`),
  alwaysOn: z.boolean({ error: "Say whether the entry is always on." }).default(false),
  priority: z
    .number({ error: "The priority is a whole number." })
    .int("The priority is a whole number.")
    .min(-MAX_LORE_PRIORITY, `The priority is between -${count(MAX_LORE_PRIORITY)} and ${count(MAX_LORE_PRIORITY)}.`)
    .max(MAX_LORE_PRIORITY, `The priority is between -${count(MAX_LORE_PRIORITY)} and ${count(MAX_LORE_PRIORITY)}.`)
    .default(0),
  enabled: z.boolean({ error: "Say whether the entry is enabled." }).default(true),
});

/** A game's look-back (PATCH of its lorebook's API, the admin's and a world creator's). */
export const loreScanDepthSchema = z.object({
  scanDepth: z
    .number({ error: "Say how many exchanges to look back (scanDepth)." })
    .int(`Look back between 0 and ${MAX_SCAN_DEPTH} exchanges.`)
    .min(0, `Look back between 0 and ${MAX_SCAN_DEPTH} exchanges.`)
    .max(MAX_SCAN_DEPTH, `Look back between 0 and ${MAX_SCAN_DEPTH} exchanges.`),
});

export const gameLoreEntryInputSchema = loreEntryInputSchema.extend({
  shownToPlayers: z.boolean({ error: "Say whether players are shown the entry." }).default(false),
});

/**
 * One entry of a SillyTavern world-info file, the fields we read. SillyTavern's secondary keys
 * (`keysecondary`, an extra filter) have no equivalent here: an entry that uses them is refused
 * rather than imported to fire more often than its writer meant. SillyTavern has no field for
 * Shown to players, so files neither carry it out nor in: an imported entry is hidden.
 */
const sillyTavernEntrySchema = z.object({
  key: z.array(z.string().max(MAX_LORE_KEYS_CHARACTERS)).max(100).default([]),
  keysecondary: z
    .array(z.string().max(MAX_LORE_KEYS_CHARACTERS))
    .max(100)
    .default([])
    .refine(
      (keys) => keys.every((key) => key.trim() === ""),
      "Secondary keys (keysecondary) are not supported: remove them or fold them into the keys.",
    ),
  comment: z.string().max(10_000).default(""),
  content: z.string().max(100_000).default(""),
  constant: z.boolean().default(false),
  order: z.number().default(0),
  disable: z.boolean().default(false),
});

/** SillyTavern writes `entries` as an object keyed by uid; older files and other tools, as a list. */
export const sillyTavernWorldSchema = z.object(
  {
    entries: z.preprocess(
      (entries) => (typeof entries === "object" && entries !== null && !Array.isArray(entries) ? Object.values(entries) : entries),
      z.array(sillyTavernEntrySchema, { error: "A lorebook file has an entries list (SillyTavern's world info format)." }).max(1000),
    ),
  },
  { error: "A lorebook file is a JSON object with entries (SillyTavern's world info format)." },
);

export type SillyTavernWorld = z.infer<typeof sillyTavernWorldSchema>;

/**
 * Entries read from a SillyTavern file, not yet checked: the caller runs each through
 * loreEntryInputSchema so one sentence names the first entry that does not fit.
 */
export function entriesFromSillyTavern(world: SillyTavernWorld): Record<keyof LoreEntryInput, unknown>[] {
  return world.entries.map((entry) => ({
    title: entry.comment.trim() || entry.key.find((key) => key.trim() !== "")?.trim() || "Untitled entry",
    keys: entry.key
      .map((key) => key.trim())
      .filter((key) => key !== "")
      .join(", "),
    content: entry.content,
    alwaysOn: entry.constant,
    priority: Math.round(entry.order),
    enabled: !entry.disable,
  }));
}

/** A lorebook as a SillyTavern world-info file: its fields, with SillyTavern's defaults for the rest. */
export function sillyTavernWorldOf(entries: readonly (LoreEntryInput & { keyList: string[] })[]) {
  return {
    entries: Object.fromEntries(
      entries.map((entry, uid) => [
        String(uid),
        {
          uid,
          key: entry.keyList,
          keysecondary: [],
          comment: entry.title,
          content: entry.content,
          constant: entry.alwaysOn,
          selective: false,
          order: entry.priority,
          position: 0,
          disable: !entry.enabled,
        },
      ]),
    ),
  };
}
