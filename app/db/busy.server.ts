import { setTimeout as sleep } from "node:timers/promises";

/**
 * pg-pool's error when no connection came free within its connectionTimeoutMillis: the database
 * has more work than connections, and the statement was never sent.
 */
const POOL_TIMEOUT_MESSAGE = "timeout exceeded when trying to connect";

const RETRY_PAUSE_MS = 500;

/** The database had no free connection in time (the error as Drizzle wraps it, or bare). */
export function isDatabaseBusy(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current.message === POOL_TIMEOUT_MESSAGE) return true;
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
      if (!isDatabaseBusy(error) || attempt >= attempts) throw error;
      await sleep(RETRY_PAUSE_MS * attempt);
    }
  }
}
