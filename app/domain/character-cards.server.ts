import { z } from "zod";
import { InvalidInputError } from "./errors.server.ts";
import { DEFAULT_SCAN_DEPTH, MAX_GAME_LORE_ENTRIES, MAX_LORE_PRIORITY, MAX_LORE_TITLE_CHARACTERS, MAX_SCAN_DEPTH } from "../lib/lorebook.ts";
import type { JsonObject, JsonValue, WorldExtra, WorldLoreEntry } from "../lib/worlds.ts";
import { splitLoreKeys } from "./game-master/lorebook.server.ts";
import { isPng, readPngTexts, writePngTexts } from "./png-text-chunks.server.ts";

/**
 * SillyTavern character cards (V2: github.com/malfoyslastname/character-card-spec-v2, V3:
 * github.com/kwaroran/character-card-spec-v3), read into a world and written back from one. A
 * card arrives as JSON or as a PNG whose `ccv3` (V3) or `chara` (V2) tEXt chunk holds the JSON in
 * base64. What the site does not use is kept in `extra` and written back, so a card that goes in
 * and comes out unedited is the same card. A file that is not a usable card is refused with a
 * sentence, before anything is stored. The card's lorebook becomes the game's lorebook entries
 * (docs/decisions/065); each keeps what the row cannot hold in its `extra`.
 */

/** A world as a card gives it, and as a card is written from it. */
export interface CardWorld {
  title: string;
  /** The Game Master's instructions: the card's description, personality and scenario. */
  instructions: string;
  /** The public description on the world's page. */
  description: string;
  opening: string;
  alternativeOpenings: string[];
  tags: string[];
  /** Shown to the creator; never sent to the model. */
  creatorNotes: string;
  lorebook: WorldLoreEntry[];
  /** How many exchanges back the lorebook's keys are looked for in: the book's scan_depth, within the site's bounds. */
  scanDepth: number;
  extra: WorldExtra;
}

export const CARD_LIMITS = {
  pngBytes: 8 * 1024 * 1024,
  jsonBytes: 2 * 1024 * 1024,
  /** Any one text anywhere in a card. */
  text: 100_000,
  depth: 32,
  title: 200,
  instructions: 50_000,
  description: 2_000,
  opening: 20_000,
  alternativeOpenings: 20,
  tags: 20,
  tag: 40,
  creatorNotes: 20_000,
  /** A world's lorebook is a game's, so it holds as many entries as a game's may. */
  loreEntries: MAX_GAME_LORE_ENTRIES,
  loreKeys: 50,
  loreKey: 200,
  loreContent: 20_000,
} as const;

/** Keys that would reach an object's prototype if a card's data were ever merged into an object. */
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);
/** The data fields a world reads; the rest go to `extra.data`. */
const MAPPED_DATA_KEYS = new Set([
  "name",
  "description",
  "personality",
  "scenario",
  "first_mes",
  "alternate_greetings",
  "character_book",
  "tags",
  "creator_notes",
]);
/**
 * The entry fields a lorebook row holds exactly; the rest are kept in the row's `extra`, including
 * keys, insertion_order, name and comment as they were, which the row holds only as the site reads
 * them (joined keys, a bounded priority, one title).
 */
const ROW_ENTRY_KEYS = new Set(["content", "constant", "enabled"]);
/** Fields a V3 card must have; a V2 card lacking them gets them on export. */
const V3_DEFAULTS: JsonObject = {
  mes_example: "",
  system_prompt: "",
  post_history_instructions: "",
  creator: "",
  character_version: "",
  extensions: {},
  group_only_greetings: [],
};

const FIELD = "card";

function refuse(message: string): InvalidInputError {
  return new InvalidInputError(message, FIELD);
}

const text = z.string().default("");
const entrySchema = z.looseObject({
  keys: z.array(z.string()).max(CARD_LIMITS.loreKeys),
  content: z.string().max(CARD_LIMITS.loreContent),
  constant: z.boolean().optional(),
  enabled: z.boolean().default(true),
  insertion_order: z.number().default(0),
});
const dataSchema = z.looseObject({
  name: z.string().trim().min(1).max(CARD_LIMITS.title),
  description: text,
  personality: text,
  scenario: text,
  first_mes: text.pipe(z.string().max(CARD_LIMITS.opening)),
  alternate_greetings: z.array(z.string().max(CARD_LIMITS.opening)).max(CARD_LIMITS.alternativeOpenings).default([]),
  tags: z.array(z.string().trim().min(1).max(CARD_LIMITS.tag)).max(CARD_LIMITS.tags).default([]),
  creator_notes: text.pipe(z.string().max(CARD_LIMITS.creatorNotes)),
  character_book: z.looseObject({ entries: z.array(entrySchema).max(CARD_LIMITS.loreEntries) }).optional(),
});

/** What each field is called in a refusal, by the card's key. */
const FIELD_NAMES: Record<string, string> = {
  name: "name",
  first_mes: "first message",
  alternate_greetings: "alternate greetings",
  tags: "tags",
  creator_notes: "creator notes",
  character_book: "character book",
  entries: "character book's entries",
  keys: "lorebook keys",
  content: "lorebook content",
};

function fieldSentence(issue: z.core.$ZodIssue): string {
  const key = [...issue.path].reverse().find((part): part is string => typeof part === "string") ?? "data";
  const name = FIELD_NAMES[key] ?? `"${key}" field`;
  if (issue.code === "too_big") {
    return issue.origin === "array"
      ? `The card's ${name} has more than ${String(issue.maximum)} items.`
      : `The card's ${name} is longer than ${String(issue.maximum)} characters.`;
  }
  if (issue.code === "too_small") return `The card's ${name} is empty.`;
  return `The card's ${name} is not in the form the character card spec gives it.`;
}

/** Refuses nesting deeper than a card needs and any text longer than any field may be. */
function checkShape(value: unknown, depth = 0): void {
  if (depth > CARD_LIMITS.depth) throw refuse("The card is nested deeper than a character card can be.");
  if (typeof value === "string") {
    if (value.length > CARD_LIMITS.text) throw refuse(`The card holds a text longer than ${CARD_LIMITS.text.toLocaleString("en-US")} characters.`);
  } else if (Array.isArray(value)) {
    for (const item of value) checkShape(item, depth + 1);
  } else if (value !== null && typeof value === "object") {
    for (const item of Object.values(value)) checkShape(item, depth + 1);
  }
}

function parseJson(json: string): unknown {
  try {
    return JSON.parse(json, (key, value: unknown) => {
      if (FORBIDDEN_KEYS.has(key)) throw refuse(`The card has a field named "${key}", which no character card has.`);
      return value;
    });
  } catch (error) {
    if (error instanceof InvalidInputError) throw error;
    throw refuse("The card's JSON cannot be read: the file is damaged or is not a character card.");
  }
}

function decodeBase64(base64: string, keyword: string): string {
  const compact = base64.replace(/\s+/g, "");
  if (compact.length % 4 === 1 || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) {
    throw refuse(`The PNG's "${keyword}" text is not valid base64, so the card in it cannot be read.`);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(compact, "base64"));
  } catch {
    throw refuse(`The PNG's "${keyword}" text is not UTF-8 text, so the card in it cannot be read.`);
  }
}

/** The card's JSON: the file itself, or the PNG's V3 chunk, else its V2 chunk. */
function cardJson(bytes: Buffer): string {
  if (isPng(bytes)) {
    if (bytes.length > CARD_LIMITS.pngBytes) throw refuse(`A card picture may be at most ${CARD_LIMITS.pngBytes / (1024 * 1024)} MB.`);
    const texts = readPngTexts(bytes, ["ccv3", "chara"], FIELD);
    const [keyword, base64] = texts.has("ccv3") ? ["ccv3", texts.get("ccv3")] : ["chara", texts.get("chara")];
    if (base64 === undefined) throw refuse("This PNG holds no character card (it has no ccv3 or chara text).");
    return decodeBase64(base64, keyword);
  }
  if (bytes.length > CARD_LIMITS.jsonBytes) throw refuse(`A card's JSON may be at most ${CARD_LIMITS.jsonBytes / (1024 * 1024)} MB.`);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw refuse("The file is neither a PNG picture nor JSON text, so it is not a character card.");
  }
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function without(object: JsonObject, keys: ReadonlySet<string>): JsonObject {
  return Object.fromEntries(Object.entries(object).filter(([key]) => !keys.has(key)));
}

export function composeInstructions(source: { description: string; personality: string; scenario: string }): string {
  return [
    source.description.trim(),
    source.personality.trim() && `Personality: ${source.personality.trim()}`,
    source.scenario.trim() && `Scenario: ${source.scenario.trim()}`,
  ]
    .filter(Boolean)
    .join("\n\n");
}

/** The world's public description: the scenario, or else the character, cut to fit. */
function publicDescription(title: string, source: { description: string; scenario: string }): string {
  const whole = (source.scenario.trim() || source.description.trim() || `A world imported from the character card "${title}".`).replace(
    /\s+/g,
    " ",
  );
  if (whole.length <= CARD_LIMITS.description) return whole;
  return `${whole.slice(0, CARD_LIMITS.description - 1).replace(/\s+\S*$/, "")}…`;
}

/** An entry's title: the card entry's name, else its comment, else its first key, cut to the editor's length. */
function entryTitle(entry: JsonObject): string {
  const keys = Array.isArray(entry.keys) ? entry.keys : [];
  const title = [entry.name, entry.comment, ...keys].find((text): text is string => typeof text === "string" && text.trim() !== "");
  return (title?.trim() ?? "Untitled entry").slice(0, MAX_LORE_TITLE_CHARACTERS);
}

/** A card entry's keys as the editor writes them: one text, separated by commas. */
function joinedKeys(keys: readonly string[]): string {
  return keys
    .map((key) => key.trim())
    .filter((key) => key !== "")
    .join(", ");
}

/** A card entry's insertion_order as a priority the editor accepts. */
function priorityOf(order: number): number {
  return Math.max(-MAX_LORE_PRIORITY, Math.min(MAX_LORE_PRIORITY, Math.round(order)));
}

/**
 * A lorebook entry as a card's: each field the row reads from the card is written as the card
 * had it while the row still says the same (an unedited entry goes out as it came in), and as the
 * row has it once the creator changed it.
 */
function cardEntry(entry: WorldLoreEntry): JsonObject {
  const kept = entry.extra;
  const keptKeys = Array.isArray(kept.keys) && kept.keys.every((key) => typeof key === "string") ? kept.keys : undefined;
  const renamed = entryTitle(kept) !== entry.title;
  return {
    extensions: {},
    use_regex: false,
    ...kept,
    ...(renamed ? { comment: entry.title, ...(typeof kept.name === "string" ? { name: entry.title } : {}) } : {}),
    keys: keptKeys && joinedKeys(keptKeys) === entry.keys ? keptKeys : splitLoreKeys(entry.keys),
    content: entry.content,
    constant: entry.alwaysOn,
    enabled: entry.enabled,
    insertion_order:
      typeof kept.insertion_order === "number" && priorityOf(kept.insertion_order) === entry.priority ? kept.insertion_order : entry.priority,
  };
}

/** A card file (JSON or PNG, V2 or V3) as a world; throws InvalidInputError with a sentence. */
export function readCharacterCard(bytes: Buffer): CardWorld {
  const card = parseJson(cardJson(bytes));
  if (!isObject(card)) throw refuse("The file is JSON but not a character card.");
  const spec = card.spec;
  if (spec !== "chara_card_v2" && spec !== "chara_card_v3") {
    throw refuse(
      typeof spec === "string"
        ? `The card says it follows "${spec.slice(0, 40)}"; only character cards V2 and V3 can be imported.`
        : "The file has no character card spec; only character cards V2 and V3 can be imported.",
    );
  }
  if (!isObject(card.data)) throw refuse("The card has no data.");
  checkShape(card.data);
  const parsed = dataSchema.safeParse(card.data);
  if (!parsed.success)
    throw refuse(parsed.error.issues.map(fieldSentence)[0] ?? "The card's data is not in the form the character card spec gives it.");
  const data = parsed.data;
  const source = { description: data.description, personality: data.personality, scenario: data.scenario };
  const instructions = composeInstructions(source);
  if (instructions.length > CARD_LIMITS.instructions) {
    throw refuse(
      `The card's description, personality and scenario together are longer than ${CARD_LIMITS.instructions.toLocaleString("en-US")} characters.`,
    );
  }
  const original = card.data;
  const book = isObject(original.character_book) ? original.character_book : undefined;
  const entries = Array.isArray(book?.entries) ? book.entries : [];
  return {
    title: data.name,
    instructions,
    description: publicDescription(data.name, source),
    opening: data.first_mes,
    alternativeOpenings: data.alternate_greetings,
    tags: data.tags,
    creatorNotes: data.creator_notes,
    lorebook: (data.character_book?.entries ?? []).map((entry, index) => {
      const kept = without(isObject(entries[index]) ? entries[index] : {}, ROW_ENTRY_KEYS);
      return {
        title: entryTitle(kept),
        keys: joinedKeys(entry.keys),
        content: entry.content,
        alwaysOn: entry.constant ?? false,
        priority: priorityOf(entry.insertion_order),
        enabled: entry.enabled,
        extra: kept,
      };
    }),
    scanDepth: scanDepthOf(book?.scan_depth),
    extra: {
      data: without(original, MAPPED_DATA_KEYS),
      ...(book ? { book: without(book, new Set(["entries"])) } : {}),
      source,
    },
  };
}

/** A book's scan_depth as the site's look-back: a whole number within its bounds, else the site's default. */
function scanDepthOf(scanDepth: unknown): number {
  if (typeof scanDepth !== "number" || !Number.isFinite(scanDepth)) return DEFAULT_SCAN_DEPTH;
  return Math.max(0, Math.min(MAX_SCAN_DEPTH, Math.round(scanDepth)));
}

/** The world as a character card V3 (an object ready for JSON). */
export function characterCardV3(world: CardWorld): JsonObject {
  const source =
    world.extra.source && composeInstructions(world.extra.source) === world.instructions
      ? world.extra.source
      : { description: world.instructions, personality: "", scenario: "" };
  const hasBook = world.extra.book !== undefined || world.lorebook.length > 0;
  const data: JsonObject = {
    ...V3_DEFAULTS,
    ...world.extra.data,
    name: world.title,
    ...source,
    first_mes: world.opening,
    alternate_greetings: world.alternativeOpenings,
    tags: world.tags,
    creator_notes: world.creatorNotes,
    ...(hasBook
      ? {
          character_book: {
            extensions: {},
            ...world.extra.book,
            // The site's look-back, where the card had one or the creator set one.
            ...(world.extra.book?.scan_depth !== undefined || world.scanDepth !== DEFAULT_SCAN_DEPTH ? { scan_depth: world.scanDepth } : {}),
            entries: world.lorebook.map(cardEntry),
          },
        }
      : {}),
  };
  return { spec: "chara_card_v3", spec_version: "3.0", data };
}

function base64Json(value: JsonValue): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64");
}

/**
 * The world as a card picture: the PNG with a `ccv3` chunk, and a `chara` chunk holding the same
 * data as a V2 card for readers that know only V2.
 */
export function characterCardPng(world: CardWorld, picture: Buffer): Buffer {
  const v3 = characterCardV3(world);
  const v2: JsonObject = { spec: "chara_card_v2", spec_version: "2.0", data: v3.data ?? {} };
  return writePngTexts(
    picture,
    new Map([
      ["chara", base64Json(v2)],
      ["ccv3", base64Json(v3)],
    ]),
  );
}
