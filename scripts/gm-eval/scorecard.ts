import { readFileSync } from "node:fs";
import { z } from "zod";
import { markdownTable } from "../bench/report.ts";
import {
  agency,
  brokenText,
  choicesWellFormed,
  clockConsistency,
  distribution,
  failedTurns,
  replyWords,
  stateMatchesProse,
  timings,
} from "./form-metrics.ts";
import { answersAddressee, followsMovement, memoryRecall, repetition, stockPhrases, type StockPhrases } from "./metrics.ts";
import { share, type Distribution, type Failure, type Rate } from "./rates.ts";
import type { PlayedSession } from "./transcript.ts";

/**
 * The scorecard: every metric for each game and for all games together, against the thresholds
 * file (the goals). A threshold applies to each game's figure and to the total, so one
 * good game cannot hide a bad one.
 */

export const METRICS = [
  { id: "turns-answered", label: "Turns answered", measure: failedTurns },
  { id: "repeated-sentences", label: "Repeated sentences", measure: (session: PlayedSession) => repetition(session).sentences },
  { id: "repeated-runs", label: "Repeated 8-word runs", measure: (session: PlayedSession) => repetition(session).runs },
  { id: "stock-phrases", label: "Stock phrases (5-word runs shared across games)" },
  { id: "answers-addressee", label: "The character spoken to answers", measure: answersAddressee },
  { id: "follows-movement", label: "The scene follows the player's move", measure: followsMovement },
  { id: "memory-recall", label: "Pinned facts and named people recalled", measure: memoryRecall },
  { id: "state-matches-prose", label: "State panel = the prose's status line", measure: stateMatchesProse },
  { id: "clock-consistent", label: "Days and weeks consistent", measure: clockConsistency },
  { id: "agency", label: "Leaves the player's words and choices to the player", measure: agency },
  { id: "choices-well-formed", label: "3–6 distinct, fresh numbered choices", measure: choicesWellFormed },
  { id: "text-intact", label: "No broken text (quotes, doubled clauses, wrong pronouns)", measure: brokenText },
] as const;

export type MetricId = (typeof METRICS)[number]["id"];

const thresholdSchema = z
  .object({ min: z.number().min(0).max(1).optional(), max: z.number().min(0).max(1).optional() })
  .strict()
  .refine((threshold) => threshold.min !== undefined || threshold.max !== undefined, "A threshold needs min or max.");
const metricIds = METRICS.map((metric) => metric.id) as [MetricId, ...MetricId[]];
export const thresholdsSchema = z.partialRecord(z.enum(metricIds), thresholdSchema);
export type Thresholds = z.infer<typeof thresholdsSchema>;
export type Threshold = z.infer<typeof thresholdSchema>;

export function readThresholds(file: string): Thresholds {
  const parsed = thresholdsSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`${file} is not a thresholds file: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

export interface MetricRow {
  id: MetricId;
  label: string;
  threshold: Threshold | undefined;
  byGame: Record<string, Rate | undefined>;
  overall: Rate | undefined;
}

export interface Scorecard {
  date: string;
  model: string;
  games: { slug: string; title: string; scriptVersion: number; turns: number }[];
  metrics: MetricRow[];
  replyWords: Record<string, Distribution>;
  firstTokenMs: Record<string, Distribution>;
  replyMs: Record<string, Distribution>;
  stockPhrases: StockPhrases["top"];
  /** Each figure that misses its threshold, as a sentence. */
  misses: string[];
}

/** All games' counts added up. */
function pooled(rates: (Rate | undefined)[]): Rate | undefined {
  const present = rates.filter((each): each is Rate => each !== undefined && each.of > 0);
  if (present.length === 0) return undefined;
  return {
    count: present.reduce((sum, each) => sum + each.count, 0),
    of: present.reduce((sum, each) => sum + each.of, 0),
    failures: present.flatMap((each) => each.failures),
  };
}

export function percent(value: number | undefined) {
  if (value === undefined) return "—";
  const shown = value * 100;
  return `${Number.isInteger(shown) ? shown : shown.toFixed(1)}%`;
}

function goal(threshold: Threshold | undefined) {
  if (!threshold) return "—";
  return [threshold.min !== undefined ? `≥ ${percent(threshold.min)}` : "", threshold.max !== undefined ? `≤ ${percent(threshold.max)}` : ""]
    .filter(Boolean)
    .join(" and ");
}

export function meets(value: number | undefined, threshold: Threshold | undefined) {
  if (value === undefined || !threshold) return true;
  return (threshold.min === undefined || value >= threshold.min) && (threshold.max === undefined || value <= threshold.max);
}

export const ALL_GAMES = "all games";

export function buildScorecard(
  sessions: readonly PlayedSession[],
  thresholds: Thresholds,
  { model, date }: { model: string; date: string },
): Scorecard {
  const stock = stockPhrases(sessions);
  const metrics: MetricRow[] = METRICS.map((metric) => {
    const byGame: Record<string, Rate | undefined> = {};
    for (const session of sessions) {
      // Stock phrases are shared across games: with one game there are none to find.
      byGame[session.game] = "measure" in metric ? metric.measure(session) : stock.overall && stock.byGame[session.game];
    }
    const overall = "measure" in metric ? pooled(Object.values(byGame)) : stock.overall;
    return { id: metric.id, label: metric.label, threshold: thresholds[metric.id], byGame, overall };
  });
  const perGame = (measure: (session: PlayedSession) => number[]) => {
    const result: Record<string, Distribution> = {};
    for (const session of sessions) result[session.game] = distribution(measure(session));
    result[ALL_GAMES] = distribution(sessions.flatMap(measure));
    return result;
  };
  const misses = metrics.flatMap((row) =>
    [...Object.entries(row.byGame), [ALL_GAMES, row.overall] as const].flatMap(([game, value]) => {
      const figure = value && share(value);
      return meets(figure, row.threshold) ? [] : [`${row.label} (${row.id}), ${game}: ${percent(figure)}, goal ${goal(row.threshold)}`];
    }),
  );
  return {
    date,
    model,
    games: sessions.map((session) => ({
      slug: session.game,
      title: session.title,
      scriptVersion: session.scriptVersion,
      turns: session.turns.length,
    })),
    metrics,
    replyWords: perGame(replyWords),
    firstTokenMs: perGame((session) => timings(session).firstTokenMs),
    replyMs: perGame((session) => timings(session).replyMs),
    stockPhrases: stock.top,
    misses,
  };
}

function cell(rate: Rate | undefined, threshold: Threshold | undefined) {
  if (!rate || rate.of === 0) return "—";
  const figure = share(rate);
  return `${percent(figure)} (${rate.count}/${rate.of})${meets(figure, threshold) ? "" : " ✗"}`;
}

function examples(failures: readonly Failure[], game: string, limit: number) {
  return failures.slice(0, limit).map((failure) => `  - ${game}, turn ${failure.turn}: ${failure.detail}`);
}

function milliseconds(value: number | undefined) {
  return value === undefined ? "—" : `${Math.round(value).toLocaleString("en-US")} ms`;
}

/** The scorecard as Markdown: the metrics table, length and time, where each metric failed, and the stock phrases. */
export function scorecardMarkdown(card: Scorecard, { examplesPerGame = 2 } = {}): string {
  const games = card.games.map((game) => game.slug);
  const metricTable = markdownTable(
    ["metric", ...games, ALL_GAMES, "goal"],
    card.metrics.map((row) => [
      `${row.label} \`${row.id}\``,
      ...games.map((game) => cell(row.byGame[game], row.threshold)),
      cell(row.overall, row.threshold),
      goal(row.threshold),
    ]),
  );
  const figures = (label: string, values: Record<string, Distribution>, format: (value: number | undefined) => string) =>
    [...games, ALL_GAMES].map((game) => {
      const figure = values[game];
      return [label, game, format(figure?.median), format(figure?.p90), figure?.count ?? 0];
    });
  const timeTable = markdownTable(
    ["figure", "game", "median", "p90", "replies"],
    [
      ...figures("reply length (words)", card.replyWords, (value) => (value === undefined ? "—" : String(value))),
      ...figures("first token", card.firstTokenMs, milliseconds),
      ...figures("whole reply", card.replyMs, milliseconds),
    ],
  );
  const failureLines = card.metrics.flatMap((row) => {
    const lines = Object.entries(row.byGame).flatMap(([game, rate]) => (rate ? examples(rate.failures, game, examplesPerGame) : []));
    return lines.length > 0 ? [`- **${row.label}** (\`${row.id}\`)`, ...lines] : [];
  });
  const versions = card.games.map((game) => `${game.slug} v${game.scriptVersion} (${game.turns} turns)`).join(", ");
  return [
    `# Game Master scorecard: ${card.model}`,
    "",
    `Played ${card.date} by \`npm run gm:eval\` through the site's HTTP API; scripts ${versions}. ` +
      "Each cell is the share of what the metric checked (passed, or for repetition and stock phrases repeated); ✗ misses the goal.",
    "",
    metricTable,
    "",
    card.misses.length === 0 ? "**Every figure meets its goal.**" : `**${card.misses.length} figures miss their goal.**`,
    "",
    "## Length and time",
    "",
    timeTable,
    "",
    "## Where the metrics failed (first examples per game)",
    "",
    ...(failureLines.length > 0 ? failureLines : ["Nowhere."]),
    "",
    "## Stock phrases (most used)",
    "",
    ...(card.stockPhrases.length > 0
      ? card.stockPhrases.map((phrase) => `- "${phrase.phrase}": ${phrase.replies} replies, ${phrase.games} games`)
      : ["None."]),
    "",
  ].join("\n");
}
