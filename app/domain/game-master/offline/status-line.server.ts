/**
 * The status line a game's prompt shows as its example ("**Grace 75 · Imperial Stability 68 · …**"),
 * read into its stats: how each is labelled and written, and which follow the story's clock.
 */

export interface Stat {
  label: string;
  value: number;
  /** How the value is written: "$" before it, " taels" after it, " of 90" after a day. */
  prefix: string;
  suffix: string;
  /** "fixed" items (a realm, "Root: Poor") are repeated as written; "time" follows the story's clock. */
  kind: "score" | "money" | "time" | "fixed";
}

export interface StatusLine {
  stats: Stat[];
  /** The emphasis the game's prompt uses for its status line: "**" or "*". */
  emphasis: string;
}

const TIME_LABELS = /^(week|day|year|month|season|turn|chapter)$/i;

// ---------------------------------------------------------------------------------------------
// The status line

/** The example status line of the prompt, e.g. **Grace 75 · Imperial Stability 68 · …**. */
export function parseStatusLine(text: string): StatusLine | undefined {
  let best: StatusLine | undefined;
  for (const match of text.matchAll(/(\*{1,2})([^*\n]*\d[^*\n]*·[^*\n]*)\1/g)) {
    const stats = (match[2] ?? "").split("·").flatMap((item): Stat[] => {
      const clock = /^\s*(day|week|month|year)\s+(\d+)(\s+of\s+\d+)?\s*$/i.exec(item);
      if (clock) return [{ label: clock[1] ?? "", value: Number(clock[2]), prefix: "", suffix: clock[3] ?? "", kind: "time" }];
      const parsed = /^\s*([^\d$]*?[A-Za-z][^\d$]*?)\s+(\$?)([\d,]+)(\s*[A-Za-z]+)?(?:\s*\([^)]*\))?\s*$/.exec(item);
      // A relationship that just changed ("June: Warm → Ally") is news, not a standing fact.
      if (!parsed) return item.includes("→") || !item.trim() ? [] : [{ label: item.trim(), value: 0, prefix: "", suffix: "", kind: "fixed" }];
      const [, label = "", prefix = "", digits = "", unit = ""] = parsed;
      const value = Number(digits.replaceAll(",", ""));
      const kind = TIME_LABELS.test(label.trim()) ? "time" : prefix || unit.trim() || value >= 1000 ? "money" : "score";
      return [{ label: label.trim(), value, prefix, suffix: unit ? ` ${unit.trim()}` : "", kind }];
    });
    const counted = stats.filter((stat) => stat.kind !== "fixed").length;
    if (counted >= 2 && (!best || stats.length > best.stats.length)) best = { stats, emphasis: match[1] ?? "**" };
  }
  return best;
}
