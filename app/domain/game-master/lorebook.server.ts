/**
 * The lorebook's matching engine: which entries enter this turn's context, on which key and which
 * words, and which were cut for lack of room. Pure: the caller loads the entries and the recent
 * exchanges; the context decides where the two lists go (always-on entries in its stable part,
 * triggered ones in its volatile tail, so a fired entry never invalidates the cached prefix).
 */
import { MAX_SCAN_DEPTH } from "../../lib/lorebook.ts";
import { estimateTokens } from "./tokens.server.ts";

export interface LoreEntry {
  title: string;
  /** Comma-separated words or phrases; a key written `/pattern/flags` is a regular expression. */
  keys: string;
  content: string;
  alwaysOn: boolean;
  /** Higher first; over the budget, lower priority is cut first. */
  priority: number;
  enabled: boolean;
}

export type LoreKey = { kind: "words"; text: string; folded: string } | { kind: "pattern"; text: string; pattern: RegExp };

export const MAX_KEYS_PER_ENTRY = 30;
export const MAX_KEY_CHARACTERS = 100;
export const MAX_PATTERN_CHARACTERS = 100;
/**
 * A pattern only ever sees this many characters of each text (its end: the newest words). With the
 * nested-quantifier check below, no pattern can make a turn wait on backtracking.
 */
export const MAX_PATTERN_SCAN_CHARACTERS = 8000;

export class LoreKeyError extends Error {
  override name = "LoreKeyError";
}

const PATTERN_KEY = /^\/(.+)\/([a-z]*)$/s;
const ALLOWED_FLAGS = new Set(["i", "m", "s", "u"]);

/**
 * Splits on commas, except inside a `/pattern/flags` key (whose pattern may hold `{1,3}`): such a
 * key runs to the first `/flags` followed by a comma or the end.
 */
export function splitLoreKeys(keys: string): string[] {
  const parts: string[] = [];
  let rest = keys;
  while (rest.length > 0) {
    const trimmed = rest.trimStart();
    if (trimmed.startsWith("/")) {
      const end = /\/[a-z]*\s*(,|$)/g;
      end.lastIndex = 1;
      const found = end.exec(trimmed);
      if (found && found.index > 1) {
        parts.push(trimmed.slice(0, found.index + found[0].length - (found[1] ?? "").length).trim());
        rest = trimmed.slice(found.index + found[0].length);
        continue;
      }
    }
    const comma = trimmed.indexOf(",");
    parts.push((comma === -1 ? trimmed : trimmed.slice(0, comma)).trim());
    rest = comma === -1 ? "" : trimmed.slice(comma + 1);
  }
  return parts.filter((part) => part.length > 0);
}

/**
 * Patterns whose backtracking can grow exponentially are refused rather than timed: a quantified
 * group that itself holds a quantifier or an alternation (`(a+)+`, `(a|aa)*`), and backreferences.
 */
function catastrophicReason(source: string): string | null {
  if (/\\[1-9]|\\k</.test(source)) return "back-references are not allowed";
  const groupStarts: { hasQuantifier: boolean; hasAlternation: boolean }[] = [];
  let inClass = false;
  for (let index = 0; index < source.length; index += 1) {
    const character = source.charAt(index);
    if (character === "\\") {
      index += 1;
      continue;
    }
    if (inClass) {
      if (character === "]") inClass = false;
      continue;
    }
    if (character === "[") inClass = true;
    else if (character === "(") groupStarts.push({ hasQuantifier: false, hasAlternation: false });
    else if (character === "|") {
      const group = groupStarts.at(-1);
      if (group) group.hasAlternation = true;
    } else if (character === ")") {
      const group = groupStarts.pop();
      const next = source[index + 1];
      const quantified = next === "*" || next === "+" || next === "{";
      if (group && quantified && (group.hasQuantifier || group.hasAlternation)) {
        return "a repeated group may not itself repeat or hold alternatives";
      }
      const outer = groupStarts.at(-1);
      if (outer && (quantified || group?.hasQuantifier)) outer.hasQuantifier = true;
    } else if (character === "*" || character === "+" || character === "{" || character === "?") {
      const group = groupStarts.at(-1);
      if (group && character !== "?") group.hasQuantifier = true;
    }
  }
  return null;
}

function compilePattern(text: string): RegExp {
  const parts = PATTERN_KEY.exec(text);
  if (!parts) throw new LoreKeyError(`The key ${text} is not a /pattern/.`);
  const [, source, flags] = parts as unknown as [string, string, string];
  if (source.length > MAX_PATTERN_CHARACTERS) {
    throw new LoreKeyError(`The pattern ${text} is longer than ${MAX_PATTERN_CHARACTERS} characters.`);
  }
  for (const flag of flags) {
    if (!ALLOWED_FLAGS.has(flag)) throw new LoreKeyError(`The pattern ${text} uses the flag "${flag}"; only i, m, s and u are allowed.`);
  }
  const reason = catastrophicReason(source);
  if (reason) throw new LoreKeyError(`The pattern ${text} could take too long to match: ${reason}.`);
  try {
    // Case-insensitive like every other key unless the writer chose flags; "g" to find each match.
    return new RegExp(source, `${flags || "i"}gu`.replace(/(.)(?=.*\1)/g, ""));
  } catch {
    throw new LoreKeyError(`The pattern ${text} is not a valid regular expression.`);
  }
}

/** An entry's keys, checked: throws LoreKeyError with a sentence for the writer. */
export function parseLoreKeys(keys: string): LoreKey[] {
  const parts = splitLoreKeys(keys);
  if (parts.length > MAX_KEYS_PER_ENTRY) throw new LoreKeyError(`An entry may have at most ${MAX_KEYS_PER_ENTRY} keys.`);
  return parts.map((text): LoreKey => {
    if (PATTERN_KEY.test(text)) return { kind: "pattern", text, pattern: compilePattern(text) };
    if (text.length > MAX_KEY_CHARACTERS)
      throw new LoreKeyError(`The key "${text.slice(0, 20)}…" is longer than ${MAX_KEY_CHARACTERS} characters.`);
    return { kind: "words", text, folded: foldText(text).folded };
  });
}

/**
 * Case folding that keeps Turkish dotted and dotless i together with i: "İstanbul" lower-cases to
 * "i̇stanbul" (i and a combining dot) under the default locale, which would never match a key typed
 * "istanbul". Each folded UTF-16 unit remembers where it came from, so matches are reported in the
 * player's own spelling.
 */
function foldText(text: string): { folded: string; origins: number[]; original: string } {
  const original = text.normalize("NFC");
  let folded = "";
  const origins: number[] = [];
  let index = 0;
  for (const character of original) {
    let lower = character === "İ" || character === "ı" ? "i" : character.toLowerCase();
    if (lower.length > 1) lower = lower.replace(/\u0307/g, "");
    folded += lower;
    for (let unit = 0; unit < lower.length; unit += 1) origins.push(index);
    index += character.length;
  }
  origins.push(index);
  return { folded, origins, original };
}

const WORD_CHARACTER = /[\p{L}\p{N}\p{M}_]/u;
/**
 * Scripts written without spaces between words. There a whole-word test is impossible without a
 * dictionary, so a key in them matches anywhere, and the edge between such a character and any
 * other counts as a word boundary ("東京" in "私は東京に行った", "Tokyo" in "東京Tokyo駅").
 */
const SPACELESS_CHARACTER =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}ー]/u;

function joinsWord(left: string | undefined, right: string | undefined): boolean {
  if (left === undefined || right === undefined) return false;
  if (!WORD_CHARACTER.test(left) || !WORD_CHARACTER.test(right)) return false;
  return !SPACELESS_CHARACTER.test(left) && !SPACELESS_CHARACTER.test(right);
}

function lastCharacter(text: string, end: number): string | undefined {
  if (end <= 0) return undefined;
  const code = text.charCodeAt(end - 1);
  return code >= 0xdc00 && code <= 0xdfff && end >= 2 ? text.slice(end - 2, end) : text[end - 1];
}

function firstCharacter(text: string, start: number): string | undefined {
  const code = text.codePointAt(start);
  return code === undefined ? undefined : String.fromCodePoint(code);
}

const MAX_WORDS_REPORTED = 5;

/** The distinct spellings of `key` as whole words in `text`, in the player's spelling. */
function matchWords(key: LoreKey, text: ReturnType<typeof foldText>): string[] {
  const words = new Set<string>();
  if (key.kind === "pattern") {
    const scanned = text.original.slice(-MAX_PATTERN_SCAN_CHARACTERS);
    key.pattern.lastIndex = 0;
    for (const match of scanned.matchAll(key.pattern)) {
      if (match[0].length > 0) words.add(match[0]);
      if (words.size >= MAX_WORDS_REPORTED) break;
    }
    return [...words];
  }
  const { folded, origins, original } = text;
  for (let at = folded.indexOf(key.folded); at !== -1; at = folded.indexOf(key.folded, at + 1)) {
    const end = at + key.folded.length;
    const whole =
      !joinsWord(lastCharacter(folded, at), firstCharacter(folded, at)) && !joinsWord(lastCharacter(folded, end), firstCharacter(folded, end));
    if (!whole) continue;
    words.add(original.slice(origins[at], origins[end]));
    if (words.size >= MAX_WORDS_REPORTED) break;
  }
  return [...words];
}

/** Where an entry's key was found: in the message being sent, or in the exchanges before it. */
export type LoreSource = "message" | "recent exchanges";

export interface LoreFiring {
  key: string;
  words: string[];
  foundIn: LoreSource;
}

export interface IncludedLore<Entry extends LoreEntry> {
  entry: Entry;
  /** What the model reads for this entry. */
  text: string;
  tokens: number;
  /** Absent for an always-on entry. */
  firing?: LoreFiring;
}

export interface CutLore<Entry extends LoreEntry> {
  entry: Entry;
  tokens: number;
  firing?: LoreFiring;
}

export interface LoreForTurn<Entry extends LoreEntry> {
  /** For the stable part of the context: the same every turn until an entry changes. */
  alwaysOn: IncludedLore<Entry>[];
  /** For the volatile tail: fired by this turn's words. */
  triggered: IncludedLore<Entry>[];
  /** Would have entered but did not fit the lore's share of the budget. */
  cut: CutLore<Entry>[];
  tokens: number;
}

export interface LoreTurnInput<Entry extends LoreEntry> {
  /** Game entries then story entries; a story entry never replaces a game entry, both can enter. */
  entries: readonly Entry[];
  /** The message being sent: an entry it mentions shapes the very reply to it. */
  message: string;
  /** The texts of earlier exchanges, oldest first (player messages and replies). */
  recentExchanges: readonly { playerText: string; reply: string }[];
  /** How many of the newest exchanges are scanned (the game's setting). */
  scanDepth: number;
  /** The lore's share of the context budget. */
  budgetTokens: number;
}

/** One line per entry; a newline between entries is counted with the entry. */
export function loreEntryText(entry: Pick<LoreEntry, "title" | "content">): string {
  return `${entry.title}: ${entry.content}`;
}

function fire(keys: readonly LoreKey[], sources: readonly { source: LoreSource; text: ReturnType<typeof foldText> }[]): LoreFiring | null {
  for (const { source, text } of sources) {
    for (const key of keys) {
      const words = matchWords(key, text);
      if (words.length > 0) return { key: key.text, words, foundIn: source };
    }
  }
  return null;
}

function keysOf(entry: LoreEntry): LoreKey[] {
  try {
    return parseLoreKeys(entry.keys);
  } catch {
    // Keys are checked when saved; one that no longer parses (a rule tightened since) fires nothing.
    return [];
  }
}

/**
 * Lore for this turn. Always-on entries take the budget first (they are present every turn, so the
 * cached prefix stays put), then triggered ones; within each, by priority. Over the budget, the
 * lowest priorities are cut first: what enters is the longest highest-priority run that fits.
 */
export function loreForTurn<Entry extends LoreEntry>(input: LoreTurnInput<Entry>): LoreForTurn<Entry> {
  const depth = Math.max(0, Math.min(MAX_SCAN_DEPTH, Math.floor(input.scanDepth)));
  const earlier = depth === 0 ? [] : input.recentExchanges.slice(-depth);
  const sources = [
    { source: "message" as const, text: foldText(input.message) },
    ...earlier
      .toReversed()
      .map((exchange) => ({ source: "recent exchanges" as const, text: foldText(`${exchange.playerText}\n${exchange.reply}`) })),
  ];
  const byPriority = (left: { entry: Entry }, right: { entry: Entry }) => right.entry.priority - left.entry.priority;
  const alwaysOn = input.entries.filter((entry) => entry.enabled && entry.alwaysOn).map((entry) => ({ entry }));
  const triggered = input.entries
    .filter((entry) => entry.enabled && !entry.alwaysOn)
    .flatMap((entry) => {
      const firing = fire(keysOf(entry), sources);
      return firing ? [{ entry, firing }] : [];
    });
  const result: LoreForTurn<Entry> = { alwaysOn: [], triggered: [], cut: [], tokens: 0 };
  let full = false;
  const place = (candidates: { entry: Entry; firing?: LoreFiring }[], into: IncludedLore<Entry>[]) => {
    for (const candidate of candidates.toSorted(byPriority)) {
      const text = loreEntryText(candidate.entry);
      const tokens = estimateTokens(text) + 1;
      if (!full && result.tokens + tokens <= input.budgetTokens) {
        into.push({ ...candidate, text, tokens });
        result.tokens += tokens;
      } else {
        full = true;
        result.cut.push({ ...candidate, tokens });
      }
    }
  };
  place(alwaysOn, result.alwaysOn);
  full = false;
  place(triggered, result.triggered);
  return result;
}
