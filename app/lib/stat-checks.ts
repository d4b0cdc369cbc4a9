import type { TrackedStat } from "./tracked-stats.ts";

/**
 * A Check (issue 35, docs/decisions/061): the player names one of the game's number stats and a
 * difficulty; the server rolls a d20 (stat-check-roll.server.ts), adds a modifier from where the
 * stat's value stands in its range, and the total against the difficulty's target decides. The
 * rules dispose, the Game Master narrates. Shared by the server, the play screen and the export.
 */

export const CHECK_DIFFICULTIES = [
  { difficulty: "easy", label: "Easy", target: 10 },
  { difficulty: "normal", label: "Normal", target: 15 },
  { difficulty: "hard", label: "Hard", target: 20 },
] as const;

export type CheckDifficulty = (typeof CHECK_DIFFICULTIES)[number]["difficulty"];

export const DIE_FACES = 20;
/** The modifier runs from -MODIFIER_REACH (the stat at its lowest) to +MODIFIER_REACH (at its highest). */
const MODIFIER_REACH = 5;

/** What the player asks for: a stat by name and a difficulty. */
export interface CheckRequest {
  stat: string;
  difficulty: CheckDifficulty;
}

/** A check as the rules settled it, stored with the exchange's player message (game_messages.roll). */
export interface StatCheck {
  stat: string;
  /** The stat's value before the reply, and its range. */
  value: number;
  min: number;
  max: number;
  modifier: number;
  /** The d20's face, 1–20. */
  die: number;
  total: number;
  difficulty: CheckDifficulty;
  target: number;
  success: boolean;
}

/** The game's stats a check can use: numbers with a range. */
export function checkableStats(stats: readonly TrackedStat[]) {
  return stats.filter((stat): stat is Extract<TrackedStat, { kind: "number" }> => stat.kind === "number");
}

/**
 * The modifier of a value in min…max: its tenth of the range, centred on the middle, so the
 * lowest value gives -5, the highest +5, and a 0–100 stat gives floor((value - 50) / 10).
 */
export function checkModifier(value: number, min: number, max: number) {
  const clamped = Math.min(max, Math.max(min, value));
  return Math.floor((2 * MODIFIER_REACH * (clamped - min)) / (max - min)) - MODIFIER_REACH;
}

export function difficultyOf(difficulty: CheckDifficulty) {
  return CHECK_DIFFICULTIES.find((entry) => entry.difficulty === difficulty) ?? CHECK_DIFFICULTIES[1];
}

/** The check a die's face settles for a stat at `value` (the face comes from the server's roll). */
export function settleCheck(request: CheckRequest, stat: { min: number; max: number }, value: number, die: number): StatCheck {
  const modifier = checkModifier(value, stat.min, stat.max);
  const { target } = difficultyOf(request.difficulty);
  const total = die + modifier;
  return {
    stat: request.stat,
    value,
    min: stat.min,
    max: stat.max,
    modifier,
    die,
    total,
    difficulty: request.difficulty,
    target,
    success: total >= target,
  };
}

/** "+ 2" or "− 3": a modifier as the roll line writes it. */
function signed(modifier: number) {
  return modifier < 0 ? `− ${-modifier}` : `+ ${modifier}`;
}

/** The roll line shown in the story and the export: "Check · Cunning d20 14 + 2 = 16 vs 15 — success". */
export function rollLine(check: StatCheck) {
  return `Check · ${check.stat} d20 ${check.die} ${signed(check.modifier)} = ${check.total} vs ${check.target} — ${check.success ? "success" : "failure"}`;
}
