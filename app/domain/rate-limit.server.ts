import { randomUUID } from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import { ipKeyGenerator } from "express-rate-limit";
import { db } from "../db/database.server.ts";
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
  /** When the window this attempt was counted in began (ms since the epoch): names it for releaseRateLimit. */
  windowStartedAt: number;
}

/** A key's counter as stored: attempts so far and when their window began. */
interface RateLimitCounter {
  count: number;
  windowStartedAt: number;
}

const consumeQuery = preparedQuery((database) => {
  const windowStart = sql.placeholder("windowStart");
  const now = sql.placeholder("now");
  return (
    database
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
      .prepare("consume_rate_limit")
  );
});

/**
 * Counts one attempt in a fixed window kept in the database, so every instance shares the count.
 * One atomic upsert: a new window starts when the stored one has expired.
 */
export async function consumeRateLimit(rule: RateLimitRule, subject: string, now = Date.now()): Promise<RateLimitResult> {
  const [row] = await consumeQuery().execute({ id: randomUUID(), key: rateLimitKey(rule, subject), now, windowStart: now - rule.windowMs });
  return rateLimitResult(rule, row ?? { count: 1, windowStartedAt: now }, now);
}

/** What a counter, just counted, allows at `now`. */
export function rateLimitResult(rule: RateLimitRule, counter: RateLimitCounter, now: number): RateLimitResult {
  const resetAt = counter.windowStartedAt + rule.windowMs;
  return {
    allowed: counter.count <= rule.limit,
    remaining: Math.max(0, rule.limit - counter.count),
    retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)),
    windowStartedAt: counter.windowStartedAt,
  };
}

/**
 * Takes back one attempt counted by consumeRateLimit, for an attempt that turned out not to be
 * the kind the rule limits. Only in the window it was counted in (one atomic update): once that
 * window has made way for a new one, there is nothing of it left to take back.
 */
export async function releaseRateLimit(rule: RateLimitRule, subject: string, windowStartedAt: number): Promise<void> {
  await db()
    .update(rateLimit)
    .set({ count: sql`${rateLimit.count} - 1` })
    .where(and(eq(rateLimit.key, rateLimitKey(rule, subject)), eq(rateLimit.lastRequest, windowStartedAt), gt(rateLimit.count, 0)));
}

/** Forgets every attempt of a subject under a rule: its next attempt starts a new window. */
export async function resetRateLimit(rule: RateLimitRule, subject: string): Promise<void> {
  await db()
    .delete(rateLimit)
    .where(eq(rateLimit.key, rateLimitKey(rule, subject)));
}

/** The rate_limit row's key for a subject under a rule. */
export function rateLimitKey(rule: RateLimitRule, subject: string): string {
  return `${rule.name}:${subject}`;
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

/**
 * An address as a limit per address counts it: an IPv4 address as it is, an IPv6 address by its
 * /56 network, as express-rate-limit's ipKeyGenerator keys them. One subscriber is usually given a
 * whole IPv6 network and may use any address in it.
 */
export function addressSubject(address: string): string {
  return ipKeyGenerator(address);
}

/** "45 seconds", "1 minute", "90 minutes", "5 hours": a wait of a day is said in hours. */
export function formatWait(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? "1 second" : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return minutes === 1 ? "1 minute" : `${minutes} minutes`;
  return `${Math.ceil(minutes / 60)} hours`;
}

/** The refusal of an attempt known to be over its limit, said with `message(wait)` (the wait as formatWait says it). */
export function rateLimitedError(result: RateLimitResult, message: (wait: string) => string): RateLimitedError {
  return new RateLimitedError(message(formatWait(result.retryAfterSeconds)), result.retryAfterSeconds);
}

/** The refusal of an attempt over its limit; undefined when the attempt is allowed. */
export function rateLimitRefusal(result: RateLimitResult, message: (wait: string) => string): RateLimitedError | undefined {
  return result.allowed ? undefined : rateLimitedError(result, message);
}

/** Counts one attempt; over the limit, throws its RateLimitedError. */
export async function enforceRateLimit(rule: RateLimitRule, subject: string, message: (wait: string) => string): Promise<void> {
  const refusal = rateLimitRefusal(await consumeRateLimit(rule, subject), message);
  if (refusal) throw refusal;
}
