import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import { db } from "../../db/database.server.ts";
import { TURN_LEASE_SECONDS } from "../stories.server.ts";

/**
 * Turn leases (docs/decisions/030). A Game Master turn in flight belongs to the instance writing
 * its reply: begin_turn gives it a lease of TURN_LEASE_SECONDS, and the instance renews the
 * leases of all the turns it holds in one statement every TURN_HEARTBEAT_MS. An instance that
 * dies (kill -9, a crashed machine) stops renewing; once a lease has run out, every instance's
 * sweeper looks for such turns and settles them (app/db/functions/finish_turn.sql): the
 * player's message stays, the reply is marked interrupted, the credit comes back, and the
 * player's tabs hear of it on the live channel. From the last heartbeat to the settling takes at
 * most TURN_LEASE_SECONDS + TURN_SWEEP_MS.
 */

/** How often an instance renews the leases of the turns it is writing. */
export const TURN_HEARTBEAT_MS = 5_000;
/** How often each instance looks for turns whose lease ran out. */
export const TURN_SWEEP_MS = 5_000;
/** Turns one sweep settles at most; the next sweep takes the rest. */
const SWEEP_BATCH = 100;

const held = new Set<string>();

/** This instance is writing the reply of `turnId`: its lease is renewed until the returned function is called. */
export function holdTurnLease(turnId: string): () => void {
  held.add(turnId);
  return () => held.delete(turnId);
}

async function renewHeldLeases() {
  if (held.size === 0) return;
  await db().execute(
    sql`UPDATE stories SET active_turn_lease_until = now() + make_interval(secs => ${TURN_LEASE_SECONDS})
      WHERE active_turn_id = ANY(${`{${[...held].join(",")}}`}::uuid[])`,
  );
}

/**
 * Settles turns whose lease ran out; returns how many. Instances sweeping at once share the work:
 * a story another sweeper (or a page, or the next turn) is settling is skipped, and one settled
 * meanwhile is left alone by finish_turn.
 */
export async function settleExpiredTurns(): Promise<{ storyId: string; outcome: string }[]> {
  return db()
    .select({ storyId: sql<string>`expired.id`, outcome: sql<string>`settled.outcome` })
    .from(
      sql`(SELECT id, active_turn_id FROM stories
        WHERE active_turn_id IS NOT NULL AND active_turn_lease_until <= now()
        ORDER BY active_turn_lease_until LIMIT ${SWEEP_BATCH} FOR UPDATE SKIP LOCKED) AS expired
      CROSS JOIN LATERAL finish_turn(expired.id, expired.active_turn_id, '', NULL, NULL) AS settled`,
    );
}

/** Starts this instance's heartbeat and sweeper; the returned function stops both. */
export function keepTurnLeases(log: Logger): () => void {
  let failing = false;
  const attempt = (work: () => Promise<void>) => () => {
    work().then(
      () => {
        if (failing) log.info("turn leases are renewed and swept again");
        failing = false;
      },
      (error: unknown) => {
        // The database is down or busy: said once, not every few seconds until it is back.
        if (!failing) log.warn({ err: error }, "turn leases could not be renewed or swept");
        failing = true;
      },
    );
  };
  const heartbeat = setInterval(attempt(renewHeldLeases), TURN_HEARTBEAT_MS);
  const sweeper = setInterval(
    attempt(async () => {
      for (const { storyId, outcome } of await settleExpiredTurns()) {
        log.warn({ storyId, outcome }, "settled a turn whose instance stopped renewing its lease");
      }
    }),
    TURN_SWEEP_MS,
  );
  heartbeat.unref();
  sweeper.unref();
  return () => {
    clearInterval(heartbeat);
    clearInterval(sweeper);
  };
}
