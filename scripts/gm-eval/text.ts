import { splitStoryChoices } from "#app/lib/story-choices.ts";
import type { Character, Place } from "./session-script.ts";

/**
 * Reading a Game Master's reply the way the metrics need it: its prose apart from its status line
 * and its choices, as words, sentences and runs of words, and where it names the game's people and
 * places. Written for any model's replies, not for one storyteller's habits: the choices are what
 * the play screen would offer as buttons (splitStoryChoices), a status line is any line of
 * "Label 12 · Label 34" items, whatever its emphasis.
 */

/** Lower-case words: letters and digits, apostrophes kept inside words ("don't", "emperor's"). */
export function words(text: string): string[] {
  return (
    text
      .toLowerCase()
      .replace(/[’‘]/g, "'")
      .match(/[\p{L}\p{N}]+(?:'[\p{L}\p{N}]+)*/gu) ?? []
  );
}

/** A text reduced to its words, for comparing sentences, clauses and choices whatever their punctuation. */
export function normalized(text: string) {
  return words(text).join(" ");
}

/** Sentences, split after . ! ? … (and closing quotes) and at line breaks. */
export function sentences(text: string): string[] {
  return (
    text
      // "Mr. Quill" is one name, not a sentence's end and the next one's start.
      .split(/(?<=(?<!\b(?:Mr|Mrs|Ms|Dr|St|Mt))[.!?…]["”’)*_]*)\s+|\n+/)
      .map((sentence) => sentence.trim())
      .filter(Boolean)
  );
}

/** Every run of `size` consecutive words. */
export function ngrams(list: readonly string[], size: number): string[] {
  const runs: string[] = [];
  for (let start = 0; start + size <= list.length; start += 1) runs.push(list.slice(start, start + size).join(" "));
  return runs;
}

/** The separators of a status line's items: "Grace 75 · Stability 68", "Grace: 75 | Stability: 68". */
const STATUS_SEPARATOR = /\s+[·|•]\s+/;

/** A line's text without the emphasis around it (`**…**`, `*…*`, `_…_`). */
function unemphasised(line: string) {
  return line
    .trim()
    .replace(/^[*_]+|[*_]+$/g, "")
    .trim();
}

export interface StatusItem {
  /** "Grace", "Root", "" for an item that is all value ("Qi Condensation 2nd Layer (14%)"). */
  label: string;
  /** The item's number, when it is "Label 75", "Label: 75", "Label $2,400", "Label 100/100", "Label 2,800 taels". */
  number?: number;
  /** The item as written, without a change note: "Root: Poor", "Qi Condensation 2nd Layer (14%)". */
  text: string;
}

/** A change note after a value: "(+2)", "(−3)", "(-1)", "→ Ally". */
const CHANGE_NOTE = /\s*\(\s*[+−–-]\s*[\d,]+\s*\)|\s*(?:→|->)\s*.*$/g;

/** The items of a status line. */
export function statusItems(line: string): StatusItem[] {
  return unemphasised(line)
    .split(STATUS_SEPARATOR)
    .map((raw) => {
      const text = raw.replace(CHANGE_NOTE, "").trim();
      const bare = text.replace(/\s*\([^)]*\)/g, "").trim();
      const numeric = /^(\D*?\p{L}\D*?)[:\s]\s*([+−-]?)\$?([\d,]+(?:\.\d+)?)(?:\s*\/\s*[\d,]+)?(?:\s+[\p{L}]+)?$/u.exec(bare);
      if (numeric) {
        const [, label = "", sign = "", digits = ""] = numeric;
        const value = Number(digits.replaceAll(",", ""));
        return { label: label.trim(), number: sign ? -value : value, text };
      }
      const labelled = /^([^:]+):\s*(.+)$/.exec(text);
      return labelled ? { label: (labelled[1] ?? "").trim(), text: (labelled[2] ?? "").trim() } : { label: "", text };
    });
}

/** A line of separated items, at least two of them a label and its number ("Grace 75"): a status line. */
export function isStatusLine(line: string) {
  return line.includes("·") || line.includes("|") || line.includes("•")
    ? statusItems(line).filter((item) => item.number !== undefined).length >= 2
    : false;
}

/** The status lines of a reply. */
export function statusLines(reply: string): string[] {
  return reply.split("\n").filter(isStatusLine);
}

export interface ReplyParts {
  /** The reply without its choices and status lines: what the story says. */
  prose: string;
  choices: string[];
}

/** A reply taken apart: its prose, and the numbered choices it ends with (as the play screen would show them). */
export function replyParts(reply: string): ReplyParts {
  const { body, choices } = splitStoryChoices(reply);
  const prose = body
    .split("\n")
    .filter((line) => !isStatusLine(line))
    .join("\n")
    .trim();
  return { prose, choices };
}

/** Lines wholly in emphasis that are not status lines: scene headings such as "*Day 2, morning — Cinnabar Peak*". */
export function emphasisedLines(prose: string): string[] {
  return prose
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => /^([*_]{1,2})[^*_\n]+\1$/.test(line) && !isStatusLine(line));
}

export interface Mention<T> {
  who: T;
  /** Where the name starts and ends in the text. */
  start: number;
  end: number;
}

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Where `text` names any of `named` (by name or alias, in any case, as whole words), in order.
 * Longer names win where two overlap, so "Consort Qiao" is not also "Qiao".
 */
export function mentions<T extends Character | Place>(text: string, named: readonly T[]): Mention<T>[] {
  const forms = named.flatMap((who) => [who.name, ...who.aliases].map((form) => ({ who, form }))).sort((a, b) => b.form.length - a.form.length);
  const found: Mention<T>[] = [];
  for (const { who, form } of forms) {
    for (const match of text.matchAll(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(form)}(?![\\p{L}\\p{N}])`, "giu"))) {
      const start = match.index;
      const end = start + match[0].length;
      if (found.some((other) => start < other.end && end > other.start)) continue;
      found.push({ who, start, end });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** Whether `text` names this person or place at all. */
export function names(text: string, who: Character | Place) {
  return mentions(text, [who]).length > 0;
}

/**
 * Sentences of a reply that only restate the player's message ("You go to Cinnabar Peak." after
 * "I go to Cinnabar Peak."): most of their words are the message's, with "I" as "you".
 */
export function isEcho(sentence: string, message: string) {
  const asSaid = new Set(words(message).map((word) => (word === "i" || word === "me" ? "you" : word === "my" ? "your" : word)));
  const said = words(sentence);
  if (said.length === 0 || asSaid.size === 0) return false;
  return said.filter((word) => asSaid.has(word)).length / said.length >= 0.8;
}

/** The value at the given share of the sorted values (nearest rank): 0.5 is the median, 0.9 the 90th percentile. */
export function percentile(values: readonly number[], share: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))];
}

/** Speech in a paragraph: “…” or "…", in order. */
export function speeches(paragraph: string): { start: number; end: number }[] {
  return [...paragraph.matchAll(/“[^“”]*”|"[^"]*"/g)].map((match) => ({ start: match.index, end: match.index + match[0].length }));
}
