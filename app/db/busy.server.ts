import { setTimeout as sleep } from "node:timers/promises";

/**
 * pg-pool's error when no connection came free within its connectionTimeoutMillis: the database
 * has more work than connections, and the statement was never sent.
 */
const POOL_TIMEOUT_MESSAGE = "timeout exceeded when trying to connect";

/** PostgreSQL's query_canceled: here, a statement that ran past statement_timeout and was rolled back. */
const STATEMENT_CANCELED = "57014";

const RETRY_PAUSE_MS = 500;

/** The database had no free connection in time (the error as Drizzle wraps it, or bare). */
function isPoolTimeout(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current.message === POOL_TIMEOUT_MESSAGE) return true;
  }
  return false;
}

/**
 * Signs that the database cannot be reached: the connection refused or lost (the server is
 * restarting, or its host is gone), or PostgreSQL shutting down, starting up, or ending the session.
 */
const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EAI_AGAIN", "EPIPE"]);
/** PostgreSQL's admin_shutdown, crash_shutdown, cannot_connect_now and its connection exceptions (class 08). */
const UNREACHABLE_SQLSTATE = /^(57P0[123]|08...)$/;
const CONNECTION_LOST = /^Connection terminated/;

function codeOf(error: Error): unknown {
  return (error as Error & { code?: unknown }).code;
}

/** The database cannot be reached right now (pg's errors, wrapped by Drizzle or bare). */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = codeOf(current);
    if (typeof code === "string" && (UNREACHABLE_CODES.has(code) || UNREACHABLE_SQLSTATE.test(code))) return true;
    if (CONNECTION_LOST.test(current.message)) return true;
  }
  return false;
}

/**
 * The database cannot take the request now: no connection came free in time, a statement ran out
 * of time, or the database cannot be reached (a restart). The same request may succeed in a moment.
 */
export function isDatabaseBusy(error: unknown): boolean {
  if (isPoolTimeout(error) || isDatabaseUnreachable(error)) return true;
  for (let current = error; current instanceof Error; current = current.cause) {
    if (codeOf(current) === STATEMENT_CANCELED) return true;
  }
  return false;
}

/**
 * Runs a write that must not be lost (a refund, a reply the player has already read) again while
 * the database is too busy to take it. A busy pool never sent the statement, so trying again
 * cannot apply it twice; any other failure is thrown at once.
 */
export async function retryWhileDatabaseBusy<T>(write: () => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await write();
    } catch (error) {
      // Only a write that never reached the database is tried again.
      if (!isPoolTimeout(error) || attempt >= attempts) throw error;
      await sleep(RETRY_PAUSE_MS * attempt);
    }
  }
}
