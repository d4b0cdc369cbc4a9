import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { preparedQuery } from "../db/prepared.server.ts";
import { rateLimit } from "../db/schema.ts";
import { RateLimitedError } from "./errors.server.ts";

export interface RateLimitRule {
  /** What is limited, e.g. `chat`, `contact`; combined with the subject (user id, IP). */
  name: string;
  limit: number;
  windowMs: number;
}

export interface RateLimitResult {
  allowed: boolean;
  remaining: number;
  /** Seconds until the window resets (for Retry-After). */
  retryAfterSeconds: number;
}

const consumeQuery = preparedQuery((database) => {
  const windowStart = sql.placeholder("windowStart");
  const now = sql.placeholder("now");
  return database
    .insert(rateLimit)
    // The row's id is its own, so that `key` is the only unique index two first attempts of a key
    // can meet on, and ON CONFLICT settles that one (on a second unique index, PostgreSQL raises).
    .values({ id: sql.placeholder("id"), key: sql.placeholder("key"), count: 1, lastRequest: now })
    .onConflictDoUpdate({
      target: rateLimit.key,
      set: {
        count: sql`CASE WHEN ${rateLimit.lastRequest} <= ${windowStart} THEN 1 ELSE ${rateLimit.count} + 1 END`,
        lastRequest: sql`CASE WHEN ${rateLimit.lastRequest} <= ${windowStart} THEN ${now} ELSE ${rateLimit.lastRequest} END`,
      },
    })
    .returning({ count: rateLimit.count, windowStartedAt: rateLimit.lastRequest })
    .prepare("consume_rate_limit");
});

/**
 * Counts one attempt in a fixed window kept in the database, so every instance shares the count.
 * One atomic upsert: a new window starts when the stored one has expired.
 */
export async function consumeRateLimit(rule: RateLimitRule, subject: string, now = Date.now()): Promise<RateLimitResult> {
  const [row] = await consumeQuery().execute({ id: randomUUID(), key: `${rule.name}:${subject}`, now, windowStart: now - rule.windowMs });
  const count = row?.count ?? 1;
  const resetAt = (row?.windowStartedAt ?? now) + rule.windowMs;
  return {
    allowed: count <= rule.limit,
    remaining: Math.max(0, rule.limit - count),
    retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)),
  };
}

/**
 * The header server/app.ts sets on every request to the client's address as Express resolves it
 * (its trust-proxy rules), replacing whatever the client sent under that name.
 */
export const CLIENT_ADDRESS_HEADER = "x-client-ip";

/** The client's address, the usual rate-limit subject for visitors who are not signed in. */
export function clientAddress(request: Request): string {
  return request.headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown";
}

/** "45 seconds", "1 minute", "10 minutes". */
export function formatWait(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? "1 second" : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}

/** Counts one attempt; over the limit, throws RateLimitedError with `message(wait)` ("wait" as formatWait says it). */
export async function enforceRateLimit(rule: RateLimitRule, subject: string, message: (wait: string) => string): Promise<void> {
  const result = await consumeRateLimit(rule, subject);
  if (!result.allowed) throw new RateLimitedError(message(formatWait(result.retryAfterSeconds)), result.retryAfterSeconds);
}
