import { z } from "zod";

/**
 * A game's living state: the stats its admin tracks (Favour 0–100, Cultivation Realm, Allies…),
 * and a story's values of them. The Game Master ends each reply with a state block; the server
 * applies what it can read of it to the state before the reply, and the play screen shows the
 * result. Shared by the admin form, the server and the play screen.
 */

export const STAT_KINDS = [
  { kind: "number", label: "Number with range" },
  { kind: "text", label: "Text" },
  { kind: "list", label: "List" },
] as const;

export type StatKind = (typeof STAT_KINDS)[number]["kind"];

export type TrackedStat =
  | { name: string; kind: "number"; min: number; max: number; start: number }
  | { name: string; kind: "text"; start: string }
  | { name: string; kind: "list"; start: string[] };

export type StatValue = number | string | string[];

/** A story's values, by stat name. */
export type StoryState = Record<string, StatValue>;

export const STAT_LIMITS = {
  stats: 8,
  name: 40,
  text: 80,
  listItems: 12,
  listItem: 60,
  magnitude: 1_000_000_000,
} as const;

const ERROR = {
  name: "Each stat needs a name.",
  nameLength: `A stat's name must be at most ${STAT_LIMITS.name} characters.`,
  nameCharacters: "A stat's name cannot contain < > { } [ ] or quotes.",
  duplicate: "Two stats cannot share a name.",
  tooMany: `A game can track at most ${STAT_LIMITS.stats} stats.`,
  range: "The lowest value must be below the highest.",
  whole: "Use a whole number.",
  magnitude: `Use a number between -${STAT_LIMITS.magnitude.toLocaleString("en-US")} and ${STAT_LIMITS.magnitude.toLocaleString("en-US")}.`,
  startInRange: "The starting value must be within the range.",
  text: `A starting text must be at most ${STAT_LIMITS.text} characters.`,
  list: `A list starts with at most ${STAT_LIMITS.listItems} items of at most ${STAT_LIMITS.listItem} characters.`,
} as const;

/** One stat as the admin form holds it: numbers as typed, a list as one comma-separated line. */
export interface TrackedStatDraft {
  name: string;
  kind: StatKind;
  min: string;
  max: string;
  start: string;
}

/** A list's items single-spaced, without blanks or repeats. */
function cleanItems(items: readonly string[]): string[] {
  return [...new Set(items.map((item) => item.replace(/\s+/g, " ").trim()))].filter(Boolean);
}

/** A list typed on one line: items separated by commas. */
export function listItems(text: string): string[] {
  return cleanItems(text.split(","));
}

function wholeNumber(text: string | number | undefined): number | undefined {
  if (typeof text === "number") return Number.isInteger(text) ? text : undefined;
  if (!text?.trim() || !/^\s*-?\d+\s*$/.test(text)) return undefined;
  return Number(text);
}

const statDraftSchema = z.object({
  name: z.string({ error: ERROR.name }).trim(),
  kind: z.enum(["number", "text", "list"], { error: "Choose number, text or list." }),
  min: z.union([z.string(), z.number()]).optional(),
  max: z.union([z.string(), z.number()]).optional(),
  start: z.union([z.string(), z.number(), z.array(z.string())]).optional(),
});

/**
 * The admin's stats as the game stores them. Accepts the form's drafts (numbers as text) and
 * stored stats alike, so a game's stats can be read back into its form and saved unchanged.
 */
export const trackedStatsSchema = z
  .array(statDraftSchema)
  .max(STAT_LIMITS.stats, ERROR.tooMany)
  .transform((drafts, context): TrackedStat[] => {
    const seen = new Set<string>();
    return drafts.flatMap((draft, index): TrackedStat[] => {
      const issue = (field: string, message: string) => {
        context.addIssue({ code: "custom", path: [index, field], message });
        return [];
      };
      // Checked here rather than in the draft's schema, so every field's mistake is told at once.
      if (!draft.name) return issue("name", ERROR.name);
      if (draft.name.length > STAT_LIMITS.name) return issue("name", ERROR.nameLength);
      if (/[<>{}[\]"]/.test(draft.name)) return issue("name", ERROR.nameCharacters);
      const key = statKey(draft.name);
      if (seen.has(key)) return issue("name", ERROR.duplicate);
      seen.add(key);
      const start = Array.isArray(draft.start) ? draft.start.join(", ") : String(draft.start ?? "");
      if (draft.kind === "text") {
        const text = start.trim();
        return text.length > STAT_LIMITS.text ? issue("start", ERROR.text) : [{ name: draft.name, kind: "text", start: text }];
      }
      if (draft.kind === "list") {
        const items = listItems(start);
        if (items.length > STAT_LIMITS.listItems || items.some((item) => item.length > STAT_LIMITS.listItem)) return issue("start", ERROR.list);
        return [{ name: draft.name, kind: "list", start: items }];
      }
      const bounds = { min: wholeNumber(draft.min), max: wholeNumber(draft.max), start: wholeNumber(draft.start as string | number | undefined) };
      for (const field of ["min", "max", "start"] as const) {
        const value = bounds[field];
        if (value === undefined) return issue(field, ERROR.whole);
        if (Math.abs(value) > STAT_LIMITS.magnitude) return issue(field, ERROR.magnitude);
      }
      const { min = 0, max = 0, start: first = 0 } = bounds;
      if (min >= max) return issue("max", ERROR.range);
      if (first < min || first > max) return issue("start", ERROR.startInRange);
      return [{ name: draft.name, kind: "number", min, max, start: first }];
    });
  });

/** A stat as the admin form edits it. */
export function statDraft(stat: TrackedStat): TrackedStatDraft {
  if (stat.kind === "number") return { name: stat.name, kind: "number", min: String(stat.min), max: String(stat.max), start: String(stat.start) };
  return { name: stat.name, kind: stat.kind, min: "", max: "", start: stat.kind === "list" ? stat.start.join(", ") : stat.start };
}

/** Stat names match whatever their case and spacing ("court favour" is "Court Favour"). */
function statKey(name: string) {
  return name.replace(/\s+/g, " ").trim().toLowerCase();
}

/** A value for a stat, if it is one: numbers rounded into range, text and lists trimmed and bounded. */
function valueFor(stat: TrackedStat, value: unknown): StatValue | undefined {
  if (stat.kind === "number") {
    const number = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : Number.NaN;
    return Number.isFinite(number) ? Math.min(stat.max, Math.max(stat.min, Math.round(number))) : undefined;
  }
  if (stat.kind === "text") {
    if (typeof value !== "string" && typeof value !== "number") return undefined;
    const text = String(value).replace(/\s+/g, " ").trim();
    return text && text.length <= STAT_LIMITS.text ? text : undefined;
  }
  // A model may write a list as an array or as one line of text.
  const items = Array.isArray(value)
    ? cleanItems(value.filter((item) => typeof item === "string" || typeof item === "number").map(String))
    : typeof value === "string"
      ? listItems(value)
      : undefined;
  if (!items || items.length > STAT_LIMITS.listItems || items.some((item) => item.length > STAT_LIMITS.listItem)) return undefined;
  return items;
}

/** The values a story starts with. */
export function startingState(stats: readonly TrackedStat[]): StoryState {
  return Object.fromEntries(stats.map((stat) => [stat.name, stat.start]));
}

/**
 * `changes` applied to `state`: each stat the changes name (in any case) with a value it can take
 * changes; everything else — unknown names, values of the wrong kind, a state that is not an
 * object at all — leaves the value as it was. Stats missing from `state` take their starting value.
 */
export function applyStateChanges(stats: readonly TrackedStat[], state: unknown, changes: unknown): StoryState {
  const byKey = (record: unknown) =>
    new Map(
      record && typeof record === "object" && !Array.isArray(record) ? Object.entries(record).map(([name, value]) => [statKey(name), value]) : [],
    );
  const before = byKey(state);
  const after = byKey(changes);
  return Object.fromEntries(
    stats.map((stat) => {
      const key = statKey(stat.name);
      return [stat.name, valueFor(stat, after.get(key)) ?? valueFor(stat, before.get(key)) ?? stat.start];
    }),
  );
}

/** A stored state read for the game's stats as they are now (renamed or new stats take their start). */
export function resolveState(stats: readonly TrackedStat[], state: unknown): StoryState {
  return applyStateChanges(stats, state, undefined);
}

/** How a stat moved since the previous turn: a number's difference, a text's change, a list's new and lost items. */
export type StatChange = { kind: "number"; delta: number } | { kind: "text"; from: string } | { kind: "list"; added: string[]; removed: string[] };

export function statChange(stat: TrackedStat, before: StatValue, after: StatValue): StatChange | undefined {
  if (stat.kind === "number") {
    const delta = Number(after) - Number(before);
    return delta === 0 ? undefined : { kind: "number", delta };
  }
  if (stat.kind === "text") return before === after ? undefined : { kind: "text", from: String(before) };
  const [was, now] = [new Set(before as string[]), new Set(after as string[])];
  const added = [...now].filter((item) => !was.has(item));
  const removed = [...was].filter((item) => !now.has(item));
  return added.length || removed.length ? { kind: "list", added, removed } : undefined;
}
