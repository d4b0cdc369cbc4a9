import type { StoryState, TrackedStat } from "../../../lib/tracked-stats.ts";
import type { PlayerAction } from "./action.server.ts";
import { clockAt } from "./continuity.server.ts";
import { sameStat } from "./state.server.ts";
import { parseStatusLine, type Stat, type StatusLine } from "./status-line.server.ts";
import { type Random, shuffled } from "./teller.server.ts";
import type { World } from "./world.server.ts";

/** The status line a reply shows: the stats as the last reply left them, moved the way the action leans. */

// ---------------------------------------------------------------------------------------------
// Stats

export function formatStat(stat: Stat, change: number) {
  if (stat.kind === "fixed") return stat.label;
  const amount = `${stat.prefix}${stat.value.toLocaleString("en-US")}${stat.suffix}`;
  if (change === 0 || stat.kind === "time") return `${stat.label} ${amount}`;
  const sign = change > 0 ? "+" : "−";
  return `${stat.label} ${amount} (${sign}${Math.abs(change).toLocaleString("en-US")})`;
}

export function renderStatus(status: StatusLine, changes: number[]) {
  const text = status.stats.map((stat, index) => formatStat(stat, changes[index] ?? 0)).join(" · ");
  return `${status.emphasis}${text}${status.emphasis}`;
}

/** Moves one or two stats the way the action leans: kindness builds standing, force costs it. */
export function moveStats(status: StatusLine, action: PlayerAction, random: Random): { status: StatusLine; changes: number[] } {
  const changes = status.stats.map(() => 0);
  const scores = status.stats.flatMap((stat, index) => (stat.kind === "score" ? [index] : []));
  const [first, second] = shuffled(random, scores);
  const step = () => 1 + Math.floor(random() * 3);

  if (first !== undefined) changes[first] = action.tone === "harsh" ? step() + 1 : action.tone === "kind" ? step() : random() < 0.5 ? 1 : -1;
  if (second !== undefined && action.tone === "harsh") changes[second] = -(step() + 1);
  else if (second !== undefined && random() < 0.35) changes[second] = random() < 0.5 ? 1 : -1;

  status.stats.forEach((stat, index) => {
    if (stat.kind !== "money") return;
    const swing = Math.max(10, Math.round((stat.value * (0.02 + random() * 0.06)) / 10) * 10);
    if (action.money === "spend") changes[index] = -swing;
    else if (action.money === "earn") changes[index] = swing;
  });

  const stats = status.stats.map((stat, index) => {
    const limit = stat.kind === "score" ? 100 : Number.MAX_SAFE_INTEGER;
    const value = Math.min(limit, Math.max(0, stat.value + (changes[index] ?? 0)));
    changes[index] = value - stat.value;
    return { ...stat, value };
  });
  return { status: { ...status, stats }, changes };
}

/** The stats as the last reply left them (or the prompt's starting line), with the clock's days and weeks. */
export function currentStatus(world: World, previousReplies: string[], turn: number) {
  const start = world.status;
  if (!start) return undefined;
  let status = start;
  for (const reply of [...previousReplies].reverse()) {
    const line = parseStatusLine(reply);
    if (!line) continue;
    const labels = start.stats.map((stat) => stat.label);
    if (line.stats.length === labels.length && line.stats.every((stat, index) => stat.label === labels[index])) {
      status = { ...line, emphasis: start.emphasis };
      break;
    }
  }
  const { day } = clockAt(world, turn);
  const firstDay = clockAt(world, 0).day;
  const stats = status.stats.map((stat, index) => {
    if (stat.kind !== "time") return stat;
    const from = start.stats[index]?.value ?? stat.value;
    const days = day - firstDay;
    const value = /^week$/i.test(stat.label) ? from + Math.floor(days / 7) : /^day$/i.test(stat.label) ? from + days : stat.value;
    return { ...stat, value };
  });
  return { ...status, stats };
}

/** The tracked stat a status line's item shows: "Dao Heart 52" by its label, "Root: Poor" by the label before its colon, "Qi Condensation 2nd Layer" by a text value's first word. */
function trackedStatOf(stat: Stat, stats: readonly TrackedStat[], values: StoryState): TrackedStat | undefined {
  if (stat.kind === "time") return undefined;
  const label = stat.kind === "fixed" ? stat.label.replace(/[:\s]+[^:]*$/, "") : stat.label;
  const byLabel = stats.find(
    (tracked) =>
      tracked.kind !== "list" &&
      sameStat(tracked.name, stat.kind === "fixed" && !stat.label.includes(":") ? stat.label.replace(/\s+\d.*$/, "") : label),
  );
  if (byLabel) return byLabel;
  if (stat.kind !== "fixed") return undefined;
  const firstWord = (text: string) => text.split(/[\s,]+/)[0]?.toLowerCase();
  return stats.find((tracked) => tracked.kind === "text" && firstWord(String(values[tracked.name])) === firstWord(stat.label));
}

/**
 * The status line showing the tracked state: the State panel and the prose read one source. Each
 * item that shows a tracked stat takes its value (a number's change is measured from `before`);
 * the others keep theirs.
 */
export function showState(
  line: { status: StatusLine; changes: number[] },
  stats: readonly TrackedStat[],
  before: StoryState,
  after: StoryState,
): { status: StatusLine; changes: number[] } {
  const changes = [...line.changes];
  const shown = line.status.stats.map((stat, index): Stat => {
    const tracked = trackedStatOf(stat, stats, before);
    if (!tracked) return stat;
    const value = after[tracked.name];
    if (tracked.kind === "number" && typeof value === "number") {
      changes[index] = value - Number(before[tracked.name]);
      if (stat.kind === "fixed") return { ...stat, label: `${tracked.name} ${value}${tracked.max === 100 ? "/100" : ""}` };
      return { ...stat, value };
    }
    if (tracked.kind === "text" && typeof value === "string")
      return { ...stat, label: stat.label.includes(":") ? `${stat.label.split(":")[0] ?? ""}: ${value}` : value };
    return stat;
  });
  return { status: { ...line.status, stats: shown }, changes };
}
