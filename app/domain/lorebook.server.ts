import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import type { Transaction } from "../db/client.server.ts";
import { db } from "../db/database.server.ts";
import { gameLoreEntries, games, stories, storyLoreEntries } from "../db/schema.ts";
import {
  entriesFromSillyTavern,
  loreEntryInputSchema,
  MAX_GAME_LORE_ENTRIES,
  MAX_STORY_LORE_ENTRIES,
  sillyTavernWorldOf,
  type GameLoreEntryInput,
  type GameLoreEntryView,
  type LoreEntryInput,
  type LoreEntryView,
  type PublicLoreEntry,
  type SillyTavernWorld,
} from "../lib/lorebook.ts";
import { STORY_REFUSALS } from "../lib/play-texts.ts";
import type { WorldLoreEntry } from "../lib/worlds.ts";
import { InvalidInputError, NotFoundError } from "./errors.server.ts";
import { LoreKeyError, parseLoreKeys, splitLoreKeys } from "./game-master/lorebook.server.ts";

/**
 * Lorebooks: a game's (canon, edited by admins) and each story's (the player's own). The two live
 * in separate tables and nothing here writes one on behalf of the other, so a player's entries
 * never change the game's. Every change that could pass a bound locks the lorebook's owner row
 * (the game or the story) for its transaction, so two tabs cannot together exceed it.
 */

export type Lorebook = { kind: "game"; gameSlug: string } | { kind: "story"; storyId: string };
/** A game's entries carry Shown to players; a story's have no one else to be shown to. */
type InputOf<L extends Lorebook> = L extends { kind: "game" } ? GameLoreEntryInput : LoreEntryInput;
type ViewOf<L extends Lorebook> = L extends { kind: "game" } ? GameLoreEntryView : LoreEntryView;

const GAME_NOT_FOUND = "This game does not exist.";
const ENTRY_NOT_FOUND = "This lorebook entry does not exist.";

function tableOf(lorebook: Lorebook) {
  return lorebook.kind === "game"
    ? { table: gameLoreEntries, owned: eq(gameLoreEntries.gameSlug, lorebook.gameSlug), limit: MAX_GAME_LORE_ENTRIES }
    : { table: storyLoreEntries, owned: eq(storyLoreEntries.storyId, lorebook.storyId), limit: MAX_STORY_LORE_ENTRIES };
}

const viewColumns = (table: typeof gameLoreEntries | typeof storyLoreEntries) => ({
  id: table.id,
  title: table.title,
  keys: table.keys,
  content: table.content,
  alwaysOn: table.alwaysOn,
  priority: table.priority,
  enabled: table.enabled,
});

const gameViewColumns = { ...viewColumns(gameLoreEntries), shownToPlayers: gameLoreEntries.shownToPlayers };
const columnsOf = (lorebook: Lorebook) => (lorebook.kind === "game" ? gameViewColumns : viewColumns(storyLoreEntries));

/** The story's lorebook, if the story is the player's; otherwise NotFound, as for a story that does not exist. */
export async function storyLorebook(userId: string, storyId: string): Promise<Lorebook & { kind: "story" }> {
  const [story] = await db()
    .select({ id: stories.id })
    .from(stories)
    .where(and(eq(stories.id, storyId), eq(stories.userId, userId)));
  if (!story) throw new NotFoundError(STORY_REFUSALS.missing);
  return { kind: "story", storyId };
}

/** An active game's lorebook, by the game's id (the admin API's addresses). */
export async function gameLorebook(gameId: string): Promise<Lorebook & { kind: "game"; scanDepth: number }> {
  const [game] = await db()
    .select({ slug: games.slug, scanDepth: games.loreScanDepth })
    .from(games)
    .where(and(eq(games.id, gameId), eq(games.isActive, true)));
  if (!game) throw new NotFoundError(GAME_NOT_FOUND);
  return { kind: "game", gameSlug: game.slug, scanDepth: game.scanDepth };
}

/** How many exchanges before the message being sent the game's keys are looked for in (loreScanDepthSchema checks it). */
export async function setLoreScanDepth(lorebook: Lorebook & { kind: "game" }, scanDepth: number): Promise<number> {
  const [game] = await db()
    .update(games)
    .set({ loreScanDepth: scanDepth })
    .where(eq(games.slug, lorebook.gameSlug))
    .returning({ scanDepth: games.loreScanDepth });
  if (!game) throw new NotFoundError(GAME_NOT_FOUND);
  return game.scanDepth;
}

export async function listLore<L extends Lorebook>(lorebook: L): Promise<ViewOf<L>[]> {
  const { table, owned } = tableOf(lorebook);
  const rows = await db()
    .select(columnsOf(lorebook))
    .from(table)
    .where(owned)
    .orderBy(desc(table.priority), asc(table.title), asc(table.createdAt), asc(table.id));
  return rows as ViewOf<L>[];
}

/**
 * The entries of the story's game that its admins show to players, read-only, for the play
 * screen's Lorebook panel: enabled ones only, and only what a player may read. Hidden entries
 * never leave the server. The story must be the player's (storyLorebook checks it).
 */
export async function shownGameLore(lorebook: Lorebook & { kind: "story" }): Promise<PublicLoreEntry[]> {
  return db()
    .select({ id: gameLoreEntries.id, title: gameLoreEntries.title, keys: gameLoreEntries.keys, content: gameLoreEntries.content })
    .from(gameLoreEntries)
    .innerJoin(stories, eq(stories.gameSlug, gameLoreEntries.gameSlug))
    .where(and(eq(stories.id, lorebook.storyId), eq(gameLoreEntries.shownToPlayers, true), eq(gameLoreEntries.enabled, true)))
    .orderBy(desc(gameLoreEntries.priority), asc(gameLoreEntries.title), asc(gameLoreEntries.createdAt), asc(gameLoreEntries.id));
}

/** Keys that would never match safely are refused with the engine's sentence. */
function checkKeys(keys: string, field = "keys") {
  try {
    parseLoreKeys(keys);
  } catch (error) {
    if (error instanceof LoreKeyError) throw new InvalidInputError(error.message, field);
    throw error;
  }
}

/** Locks the lorebook's owner row and says how many entries it has. */
async function lockAndCount(tx: Transaction, lorebook: Lorebook): Promise<number> {
  const owner =
    lorebook.kind === "game"
      ? await tx.select({ id: games.id }).from(games).where(eq(games.slug, lorebook.gameSlug)).for("update")
      : await tx.select({ id: stories.id }).from(stories).where(eq(stories.id, lorebook.storyId)).for("update");
  if (owner.length === 0) throw new NotFoundError(lorebook.kind === "game" ? GAME_NOT_FOUND : STORY_REFUSALS.missing);
  const { table, owned } = tableOf(lorebook);
  const [row] = await tx.select({ entries: count() }).from(table).where(owned);
  return row?.entries ?? 0;
}

function tooMany(lorebook: Lorebook) {
  const { limit } = tableOf(lorebook);
  return new InvalidInputError(`A ${lorebook.kind === "game" ? "game's" : "story's"} lorebook holds at most ${limit} entries.`);
}

/** A game's entries may carry Shown to players (absent: hidden, the column's default). */
async function insertEntries<L extends Lorebook>(tx: Transaction, lorebook: L, entries: LoreEntryInput[]): Promise<ViewOf<L>[]> {
  if (lorebook.kind === "game") {
    const rows = await tx
      .insert(gameLoreEntries)
      .values(entries.map((entry) => ({ ...entry, gameSlug: lorebook.gameSlug })))
      .returning(gameViewColumns);
    return rows;
  }
  const rows = await tx
    .insert(storyLoreEntries)
    .values(entries.map((entry) => ({ ...entry, storyId: lorebook.storyId })))
    .returning(viewColumns(storyLoreEntries));
  return rows as ViewOf<L>[];
}

export async function createLoreEntry<L extends Lorebook>(lorebook: L, input: InputOf<L>): Promise<ViewOf<L>> {
  checkKeys(input.keys);
  return db().transaction(async (tx) => {
    if ((await lockAndCount(tx, lorebook)) >= tableOf(lorebook).limit) throw tooMany(lorebook);
    const [created] = await insertEntries(tx, lorebook, [input]);
    if (!created) throw new Error("The lorebook entry was not stored.");
    return created;
  });
}

export async function updateLoreEntry<L extends Lorebook>(lorebook: L, entryId: string, input: InputOf<L>): Promise<ViewOf<L>> {
  checkKeys(input.keys);
  const { table, owned } = tableOf(lorebook);
  const [updated] = await db()
    .update(table)
    .set(input)
    .where(and(owned, eq(table.id, entryId)))
    .returning(columnsOf(lorebook));
  if (!updated) throw new NotFoundError(ENTRY_NOT_FOUND);
  return updated as ViewOf<L>;
}

export async function deleteLoreEntry(lorebook: Lorebook, entryId: string): Promise<void> {
  const { table, owned } = tableOf(lorebook);
  const deleted = await db()
    .delete(table)
    .where(and(owned, eq(table.id, entryId)))
    .returning({ id: table.id });
  if (deleted.length === 0) throw new NotFoundError(ENTRY_NOT_FOUND);
}

/**
 * Adds a SillyTavern world-info file's entries to the lorebook: all of them or, if any entry does
 * not fit, none, with a sentence naming the first that does not.
 */
export async function importLore<L extends Lorebook>(lorebook: L, world: SillyTavernWorld): Promise<ViewOf<L>[]> {
  const read = entriesFromSillyTavern(world);
  if (read.length === 0) throw new InvalidInputError("The file has no entries to import.");
  if (read.length > tableOf(lorebook).limit) throw tooMany(lorebook);
  const entries = read.map((raw, index) => {
    const name = `Entry ${index + 1}${typeof raw.title === "string" ? ` (“${raw.title.slice(0, 40)}”)` : ""}`;
    const parsed = loreEntryInputSchema.safeParse(raw);
    if (!parsed.success) throw new InvalidInputError(`${name}: ${parsed.error.issues[0]?.message ?? "it is not valid."}`);
    try {
      parseLoreKeys(parsed.data.keys);
    } catch (error) {
      if (error instanceof LoreKeyError) throw new InvalidInputError(`${name}: ${error.message}`);
      throw error;
    }
    return parsed.data;
  });
  return db().transaction(async (tx) => {
    if ((await lockAndCount(tx, lorebook)) + entries.length > tableOf(lorebook).limit) throw tooMany(lorebook);
    return insertEntries(tx, lorebook, entries);
  });
}

/** The lorebook as a SillyTavern world-info file. */
export async function exportLore(lorebook: Lorebook) {
  const entries = await listLore(lorebook);
  return sillyTavernWorldOf(entries.map((entry) => ({ ...entry, keyList: splitLoreKeys(entry.keys) })));
}

/**
 * A character card's entries as the game's lorebook rows (docs/decisions/065), in the card's order:
 * each is created a millisecond after the one before, and the card is written again in that order.
 */
export async function insertCardLore(tx: Transaction, gameSlug: string, entries: readonly WorldLoreEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const start = Date.now();
  await tx.insert(gameLoreEntries).values(entries.map((entry, index) => ({ ...entry, gameSlug, createdAt: new Date(start + index) })));
}

/** The game's lorebook as a card is written from it: every entry, in the order they were created. */
export function cardLore(gameSlug: string): Promise<WorldLoreEntry[]> {
  return db()
    .select({ ...viewColumns(gameLoreEntries), extra: gameLoreEntries.extra })
    .from(gameLoreEntries)
    .where(eq(gameLoreEntries.gameSlug, gameSlug))
    .orderBy(asc(gameLoreEntries.createdAt), asc(gameLoreEntries.id));
}

/** A remix's lorebook: the entries of the world it copies, as they are, in their order. */
export async function copyGameLore(tx: Transaction, fromSlug: string, toSlug: string): Promise<void> {
  await tx.execute(sql`
    INSERT INTO game_lore_entries (game_slug, title, keys, content, always_on, priority, enabled, extra, created_at)
    SELECT ${toSlug}, title, keys, content, always_on, priority, enabled, extra, created_at FROM game_lore_entries
    WHERE game_slug = ${fromSlug}`);
}
