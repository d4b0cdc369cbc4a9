/** Figures drawn from turn results: percentiles, first tokens, failures, and how they are printed. */
import type { TurnResult } from "./turn-client.ts";

export function percentile(values: number[], p: number) {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

export const firstTokens = (results: TurnResult[]) =>
  results.flatMap((result) => (result.ok && result.firstToken !== undefined ? [result.firstToken] : []));
export const refusedAtAdmission = (results: TurnResult[]) => results.filter((result) => result.error === "HTTP 503").length;
export const failures = (results: TurnResult[]) => results.filter((result) => !result.ok && result.error !== "HTTP 503");

export const ms = (value: number) => (Number.isNaN(value) ? "—" : value < 10 ? value.toFixed(1) : value.toFixed(0));
export const ratio = (site: number, relay: number) => (relay > 0 ? `${(site / relay).toFixed(2)}×` : "—");
