import type { Environment } from "../../env.server.ts";
import { RESEND_CONFIRMATION_PATH } from "../../lib/play-texts.ts";
import { DomainError, RateLimitedError } from "../errors.server.ts";
import { formatWait } from "../rate-limit.server.ts";
import type { FreeOpeningRules, FreeOpeningsUsedUp } from "./begun-turn.server.ts";

/**
 * The reply that opens a story is free while the player has free openings left (turnCost in
 * app/lib/turn-cost.ts; docs/decisions/041): a few a minute and a day per account, a day per
 * client address, and a handful in all until the account's email address is confirmed. Once they
 * are used up an opening costs what any turn costs; only a player who cannot pay is refused, and
 * told which allowance ran out and what to do.
 */

export function freeOpeningRules(
  config: Pick<
    Environment,
    "FREE_OPENINGS_PER_MINUTE" | "FREE_OPENINGS_PER_DAY" | "FREE_OPENINGS_PER_ADDRESS_PER_DAY" | "FREE_OPENINGS_BEFORE_CONFIRMATION"
  >,
): FreeOpeningRules {
  return {
    perMinute: config.FREE_OPENINGS_PER_MINUTE,
    perDay: config.FREE_OPENINGS_PER_DAY,
    perAddressPerDay: config.FREE_OPENINGS_PER_ADDRESS_PER_DAY,
    beforeConfirmation: config.FREE_OPENINGS_BEFORE_CONFIRMATION,
  };
}

const ADD_CREDITS = "add credits to begin another story now";

/** What a player without the credits to pay is told, by the allowance that is used up; `wait` until the next free opening, if one comes. */
export const FREE_OPENINGS_USED_UP: Record<FreeOpeningsUsedUp, (rules: FreeOpeningRules, wait: string | null) => string> = {
  minute: ({ perMinute }, wait) =>
    `You have begun ${perMinute} stories in the last minute. Please wait ${wait ?? "a moment"} before beginning another for free, or ${ADD_CREDITS}.`,
  day: ({ perDay }, wait) =>
    `You have used today's free story openings (${perDay} a day). To play on, ${ADD_CREDITS}${wait ? `, or come back in ${wait}` : ""}.`,
  address: ({ perAddressPerDay }, wait) =>
    `The free story openings of your network are used up for today (${perAddressPerDay} a day). To play on, ${ADD_CREDITS}${wait ? `, or come back in ${wait}` : ""}.`,
  unconfirmed: ({ beforeConfirmation }) =>
    `You have used the ${beforeConfirmation} free story openings an account has before its email address is confirmed. Confirm yours for more (open the link we sent you, or ask for a new one at ${RESEND_CONFIRMATION_PATH}), or ${ADD_CREDITS}.`,
};

/**
 * The refusal of a call that would have been a free opening, for a player who cannot pay for it:
 * a short wait is a rate limit (429 with Retry-After), a day's or the unconfirmed account's
 * allowance is `free_openings_used` (402, with where to ask for a confirmation mail).
 */
export function freeOpeningsRefusal(usedUp: FreeOpeningsUsedUp, retryAt: Date | null, rules: FreeOpeningRules, now = Date.now()): DomainError {
  const waitSeconds = retryAt ? Math.max(1, Math.ceil((retryAt.getTime() - now) / 1000)) : null;
  const message = FREE_OPENINGS_USED_UP[usedUp](rules, waitSeconds === null ? null : formatWait(waitSeconds));
  if (usedUp === "minute") return new RateLimitedError(message, waitSeconds ?? 60);
  return new DomainError("free_openings_used", message, usedUp === "unconfirmed" ? { details: { resendUrl: RESEND_CONFIRMATION_PATH } } : {});
}
