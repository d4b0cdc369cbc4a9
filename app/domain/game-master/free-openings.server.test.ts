import { describe, expect, it } from "vitest";
import { RESEND_CONFIRMATION_PATH } from "../../lib/play-texts.ts";
import { DomainError, RateLimitedError } from "../errors.server.ts";
import { freeOpeningsRefusal } from "./free-openings.server.ts";

const rules = { perMinute: 3, perDay: 20, perAddressPerDay: 60, beforeConfirmation: 3 };
const now = Date.UTC(2026, 0, 1, 12);
const inSeconds = (seconds: number) => new Date(now + seconds * 1000);

describe("freeOpeningsRefusal", () => {
  it("asks a player over the minute's allowance to wait, as a rate limit with Retry-After", () => {
    const refusal = freeOpeningsRefusal("minute", inSeconds(42), rules, now);
    expect(refusal).toBeInstanceOf(RateLimitedError);
    expect(refusal).toMatchObject({ code: "rate_limited", retryAfterSeconds: 42 });
    expect(refusal.message).toBe(
      "You have begun 3 stories in the last minute. Please wait 42 seconds before beginning another for free, or add credits to begin another story now.",
    );
  });

  it("says when the day's allowance of the account or of the address comes back, in hours", () => {
    expect(freeOpeningsRefusal("day", inSeconds(5 * 3600 + 1), rules, now)).toMatchObject({
      code: "free_openings_used",
      message:
        "You have used today's free story openings (20 a day). To play on, add credits to begin another story now, or come back in 6 hours.",
    });
    expect(freeOpeningsRefusal("address", inSeconds(90), rules, now).message).toBe(
      "The free story openings of your network are used up for today (60 a day). To play on, add credits to begin another story now, or come back in 2 minutes.",
    );
  });

  it("promises no return where none comes: a site that gives no free openings", () => {
    expect(freeOpeningsRefusal("day", null, { ...rules, perDay: 0 }, now).message).toBe(
      "You have used today's free story openings (0 a day). To play on, add credits to begin another story now.",
    );
  });

  it("points an unconfirmed account to its confirmation", () => {
    const refusal = freeOpeningsRefusal("unconfirmed", null, rules, now);
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({ code: "free_openings_used", details: { resendUrl: RESEND_CONFIRMATION_PATH } });
    expect(refusal.message).toContain(`ask for a new one at ${RESEND_CONFIRMATION_PATH}`);
  });
});
