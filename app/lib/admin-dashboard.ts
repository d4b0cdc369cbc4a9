/** The admin overview's figures, as the server computes them and the panel shows them. Safe on both sides. */

import { likedShare } from "./reply-ratings.ts";
import type { SpendPart } from "./model-calls.ts";

export const DASHBOARD_PERIODS = [7, 30, 90] as const;
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];
export const DEFAULT_DASHBOARD_PERIOD: DashboardPeriod = 30;

/** `?days=` as a period the dashboard offers; anything else is the default. */
export function dashboardPeriod(value: string | null | undefined): DashboardPeriod {
  return DASHBOARD_PERIODS.find((period) => String(period) === value) ?? DEFAULT_DASHBOARD_PERIOD;
}

/** One UTC day of a time series: `day` is YYYY-MM-DD, every day of the period present (zero when nothing happened). */
export interface PlayersDay {
  day: string;
  newPlayers: number;
}
export interface TurnsDay {
  day: string;
  turns: number;
}
export interface CreditsDay {
  day: string;
  bought: number;
  spent: number;
  granted: number;
}
export interface RevenueDay {
  day: string;
  payments: number;
  revenueCents: number;
}
export interface PackageRevenue {
  packageId: string;
  payments: number;
  credits: number;
  revenueCents: number;
}
export interface PlayedGame {
  slug: string;
  title: string;
  turns: number;
  players: number;
}
export interface OpenPayment {
  id: string;
  email: string;
  packageId: string;
  amountCents: number;
  status: "pending" | "failed";
  createdAt: string;
}

/** Good reply / Bad reply counts (issue 33) of a day, a game or a model, counting only replies still in their story. */
export interface RatingCounts {
  good: number;
  bad: number;
}
export interface RatingsDay extends RatingCounts {
  day: string;
}
export interface RatedGame extends RatingCounts {
  slug: string;
  title: string;
}
/** Provider and model as configured when the reply was written; null for replies written before models were recorded. */
export interface RatedModel extends RatingCounts {
  provider: string | null;
  model: string | null;
}

/**
 * What model calls used and cost (issue 34), from the calls recorded. Spend is in US dollars, the
 * revenue's currency: calls priced in another currency are not in it.
 */
export interface SpendTotals {
  calls: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  spend: number;
}
export interface SpendDay extends SpendTotals {
  day: string;
}
/** One game's or one model's calls of one part: its turns, its stories' summaries, its advisory ratings, each on a line. */
export interface SpendLine extends SpendTotals {
  part: SpendPart;
  /** Calls of a model with no price (their cost is unknown, and not in `spend`). */
  unpricedCalls: number;
}
/** A game's spend; slug and title are null for calls whose game was deleted. */
export interface GameSpend extends SpendLine {
  slug: string | null;
  title: string | null;
}
export interface ModelSpend extends SpendLine {
  provider: string;
  model: string;
}

export interface Dashboard {
  days: DashboardPeriod;
  /** The first and last day of the period (UTC). */
  from: string;
  to: string;
  totalPlayers: number;
  players: PlayersDay[];
  turns: TurnsDay[];
  credits: CreditsDay[];
  revenue: RevenueDay[];
  packages: PackageRevenue[];
  games: PlayedGame[];
  openPayments: OpenPayment[];
  ratings: RatingsDay[];
  ratedGames: RatedGame[];
  ratedModels: RatedModel[];
  spend: SpendDay[];
  spendGames: GameSpend[];
  spendModels: ModelSpend[];
}

/** The datasets the overview offers as CSV, with their columns (`GET /api/admin/dashboard/export?dataset=…`). */
export const DASHBOARD_DATASETS = {
  players: { label: "New players per day", columns: ["day", "new_players"] },
  turns: { label: "Turns per day", columns: ["day", "turns"] },
  credits: { label: "Credits per day", columns: ["day", "bought", "spent", "granted"] },
  revenue: { label: "Revenue per day", columns: ["day", "payments", "revenue_usd"] },
  packages: { label: "Revenue per package", columns: ["package", "payments", "credits", "revenue_usd"] },
  games: { label: "Most played games", columns: ["game", "slug", "turns", "players"] },
  payments: { label: "Failed and pending payments", columns: ["created_at", "status", "email", "package", "amount_usd"] },
  ratings: { label: "Reply ratings per day", columns: ["day", "good", "bad", "liked_share"] },
  rated_games: { label: "Liked replies per game", columns: ["game", "slug", "good", "bad", "liked_share"] },
  rated_models: { label: "Liked replies per model", columns: ["provider", "model", "good", "bad", "liked_share"] },
  spend: { label: "Model spend per day", columns: ["date", "calls", "input_tokens", "cached_input_tokens", "output_tokens", "spend"] },
  spend_games: {
    label: "Model spend per game",
    columns: ["game", "slug", "calls_for", "calls", "input_tokens", "cached_input_tokens", "output_tokens", "spend", "unpriced_calls"],
  },
  spend_models: {
    label: "Model spend per model",
    columns: ["provider", "model", "calls_for", "calls", "input_tokens", "cached_input_tokens", "output_tokens", "spend", "unpriced_calls"],
  },
} as const satisfies Record<string, { label: string; columns: readonly string[] }>;
export type DashboardDataset = keyof typeof DASHBOARD_DATASETS;
export const DASHBOARD_DATASET_NAMES = Object.keys(DASHBOARD_DATASETS) as DashboardDataset[];

const dollars = (cents: number) => (cents / 100).toFixed(2);
/** The liked share as a fraction with four decimals; empty where nothing was rated. */
const share = ({ good, bad }: RatingCounts) => likedShare(good, bad)?.toFixed(4) ?? "";

/** Spend in US dollars to the cent's hundredth, as the CSV writes it. */
const spendUsd = (spend: number) => spend.toFixed(4);
const spendFigures = (row: SpendLine) => [
  row.part,
  row.calls,
  row.inputTokens,
  row.cachedInputTokens,
  row.outputTokens,
  spendUsd(row.spend),
  row.unpricedCalls,
];

/** What a model is called in the overview: its id and provider, or a note for replies written before models were recorded. */
export function modelLabel({ provider, model }: Pick<RatedModel, "provider" | "model">): string {
  if (!provider) return "Not recorded";
  if (provider === "offline") return "Offline storyteller";
  return model ? `${model} (${provider})` : provider;
}

/** A dataset's rows, in its columns' order. */
export function datasetRows(dashboard: Dashboard, dataset: DashboardDataset): (string | number)[][] {
  switch (dataset) {
    case "players":
      return dashboard.players.map((row) => [row.day, row.newPlayers]);
    case "turns":
      return dashboard.turns.map((row) => [row.day, row.turns]);
    case "credits":
      return dashboard.credits.map((row) => [row.day, row.bought, row.spent, row.granted]);
    case "revenue":
      return dashboard.revenue.map((row) => [row.day, row.payments, dollars(row.revenueCents)]);
    case "packages":
      return dashboard.packages.map((row) => [row.packageId, row.payments, row.credits, dollars(row.revenueCents)]);
    case "games":
      return dashboard.games.map((row) => [row.title, row.slug, row.turns, row.players]);
    case "payments":
      return dashboard.openPayments.map((row) => [row.createdAt, row.status, row.email, row.packageId, dollars(row.amountCents)]);
    case "ratings":
      return dashboard.ratings.map((row) => [row.day, row.good, row.bad, share(row)]);
    case "rated_games":
      return dashboard.ratedGames.map((row) => [row.title, row.slug, row.good, row.bad, share(row)]);
    case "rated_models":
      return dashboard.ratedModels.map((row) => [row.provider ?? "", row.model ?? "", row.good, row.bad, share(row)]);
    case "spend":
      return dashboard.spend.map((row) => [row.day, row.calls, row.inputTokens, row.cachedInputTokens, row.outputTokens, spendUsd(row.spend)]);
    case "spend_games":
      return dashboard.spendGames.map((row) => [row.title ?? "Deleted game", row.slug ?? "", ...spendFigures(row)]);
    case "spend_models":
      return dashboard.spendModels.map((row) => [row.provider, row.model, ...spendFigures(row)]);
  }
}

/**
 * RFC 4180 CSV (CRLF, fields quoted when they hold a comma, quote or line break). A text cell that
 * a spreadsheet would run as a formula (= + - @, tab, carriage return first) gets a leading
 * apostrophe, so an email or a title typed by a player cannot become one (OWASP "CSV injection").
 */
export function toCsv(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cell = (value: string | number) => {
    let text = String(value);
    if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return [header, ...rows].map((row) => row.map(cell).join(",")).join("\r\n") + "\r\n";
}
