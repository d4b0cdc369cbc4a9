import { randomInt } from "node:crypto";
import { checkableStats, DIE_FACES, settleCheck, type CheckRequest, type StatCheck } from "../../lib/stat-checks.ts";
import type { StoryState, TrackedStat } from "../../lib/tracked-stats.ts";
import { InvalidInputError } from "../errors.server.ts";

/**
 * The server's side of a Check (docs/decisions/061): the request refused with a sentence before
 * anything is paid, and the d20 rolled from the operating system's cryptographic source, never
 * from anything a player or a model can see or steer.
 */

/** One face of a fair d20, 1–20 (node:crypto's randomInt draws without modulo bias). */
export function rollD20(): number {
  return randomInt(1, DIE_FACES + 1);
}

/** The stat a check names, or a refusal a player understands. */
export function checkedStat(stats: readonly TrackedStat[], request: CheckRequest) {
  const numbers = checkableStats(stats);
  if (numbers.length === 0) throw new InvalidInputError("This game has no number stats to make a check with.", "check");
  const stat = numbers.find((candidate) => candidate.name === request.stat);
  if (!stat) {
    throw new InvalidInputError(
      `This game has no number stat called "${request.stat}". Choose one of: ${numbers.map((candidate) => candidate.name).join(", ")}.`,
      "check.stat",
    );
  }
  return stat;
}

/** The check settled by a fresh roll, for the stat's value before the reply. */
export function rollCheck(stats: readonly TrackedStat[], values: StoryState, request: CheckRequest): StatCheck {
  const stat = checkedStat(stats, request);
  const value = values[stat.name];
  return settleCheck(request, stat, typeof value === "number" ? value : stat.start, rollD20());
}
