import { and, desc, eq, ilike, or, sql } from "drizzle-orm";
import { db } from "../db/database.server.ts";
import { creditLedger, payments, profiles, session, user, userRoles } from "../db/schema.ts";
import type { CreditReason, PaymentStatus } from "../lib/constants.ts";
import { applyCreditChange } from "./credits.server.ts";
import { closeAccountStreams } from "./realtime.server.ts";
import { listStories, type StorySummary } from "./story-library.server.ts";
import { DomainError, NotFoundError } from "./errors.server.ts";

/**
 * The admin's side of players: find them, read what they have (credits, ledger, payments, stories),
 * grant credits and disable or re-enable an account. Reading never changes anything; a grant is a
 * ledger row like every other credit change.
 */

/** How many players a search lists, and how many of a player's rows the detail shows per list. */
export const PLAYERS_SHOWN = 50;
export const PLAYER_ROWS_SHOWN = 100;

export interface PlayerSummary {
  id: string;
  name: string;
  email: string;
  credits: number;
  isAdmin: boolean;
  createdAt: Date;
  disabledAt: Date | null;
}

export interface PlayerDetail extends PlayerSummary {
  emailVerified: boolean;
  ledger: { id: number; delta: number; balanceAfter: number; reason: CreditReason; note: string | null; createdAt: Date }[];
  payments: {
    id: string;
    packageId: string;
    credits: number;
    amountCents: number;
    status: PaymentStatus;
    createdAt: Date;
    completedAt: Date | null;
  }[];
  stories: StorySummary[];
}

/** `text` for LIKE, matching itself only: its %, _ and \ are escaped. */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

const summaryColumns = {
  id: user.id,
  name: user.name,
  email: user.email,
  credits: sql<number>`coalesce(${profiles.credits}, 0)`.mapWith(Number),
  isAdmin: sql<boolean>`exists (select 1 from ${userRoles} where ${userRoles.userId} = ${user.id} and ${userRoles.role} = 'admin')`,
  createdAt: user.createdAt,
  disabledAt: user.disabledAt,
};

/** Players whose email or name contains `query` (any case), newest first; the newest players without one. */
export async function searchPlayers(query: string): Promise<PlayerSummary[]> {
  const pattern = `%${likeLiteral(query.trim())}%`;
  return db()
    .select(summaryColumns)
    .from(user)
    .leftJoin(profiles, eq(profiles.userId, user.id))
    .where(query.trim() ? or(ilike(user.email, pattern), ilike(user.name, pattern)) : undefined)
    .orderBy(desc(user.createdAt), desc(user.id))
    .limit(PLAYERS_SHOWN);
}

export async function getPlayer(id: string): Promise<PlayerDetail> {
  const [summary] = await db()
    .select({ ...summaryColumns, emailVerified: user.emailVerified })
    .from(user)
    .leftJoin(profiles, eq(profiles.userId, user.id))
    .where(eq(user.id, id));
  if (!summary) throw new NotFoundError("No player has this id.");
  const [ledger, paymentRows, storyRows] = await Promise.all([
    db()
      .select({
        id: creditLedger.id,
        delta: creditLedger.delta,
        balanceAfter: creditLedger.balanceAfter,
        reason: creditLedger.reason,
        note: creditLedger.note,
        createdAt: creditLedger.createdAt,
      })
      .from(creditLedger)
      .where(eq(creditLedger.userId, id))
      .orderBy(desc(creditLedger.createdAt), desc(creditLedger.id))
      .limit(PLAYER_ROWS_SHOWN),
    db()
      .select({
        id: payments.id,
        packageId: payments.packageId,
        credits: payments.credits,
        amountCents: payments.amountCents,
        status: payments.status,
        createdAt: payments.createdAt,
        completedAt: payments.completedAt,
      })
      .from(payments)
      .where(eq(payments.userId, id))
      .orderBy(desc(payments.createdAt))
      .limit(PLAYER_ROWS_SHOWN),
    listStories(id),
  ]);
  return { ...summary, ledger, payments: paymentRows, stories: storyRows };
}

export interface CreditGrant {
  playerId: string;
  credits: number;
  /** The admin's reason, kept on the ledger row. */
  note: string;
  /** Made once per grant by the admin's form: the same grant sent twice is applied once. */
  requestId: string;
  adminId: string;
}

/**
 * Grants credits as one ledger row (reason admin_grant) with the admin's note, in one transaction;
 * the balance change reaches the player's open tabs like any other. A repeated request (a double
 * click, a retry) finds its row and changes nothing.
 */
export async function grantCredits(grant: CreditGrant): Promise<{ applied: boolean; balance: number }> {
  return db().transaction(async (tx) => {
    const [player] = await tx.select({ id: user.id }).from(user).where(eq(user.id, grant.playerId));
    if (!player) throw new NotFoundError("No player has this id.");
    const reference = `admin:${grant.adminId}:${grant.requestId}`;
    const change = await applyCreditChange({ userId: grant.playerId, delta: grant.credits, reason: "admin_grant", reference }, tx);
    if (change.applied) {
      await tx
        .update(creditLedger)
        .set({ note: grant.note })
        .where(and(eq(creditLedger.reason, "admin_grant"), eq(creditLedger.reference, reference)));
    }
    return change;
  });
}

/**
 * Disables an account (its sessions and live streams end at once; signing in and playing are refused) or enables it
 * again. An admin cannot disable their own account, so the panel always keeps someone who can undo it.
 */
export async function setPlayerDisabled(playerId: string, disabled: boolean, adminId: string): Promise<PlayerSummary> {
  if (disabled && playerId === adminId) {
    throw new DomainError("conflict", "You cannot disable your own account.");
  }
  await db().transaction(async (tx) => {
    const [changed] = await tx
      .update(user)
      .set({ disabledAt: disabled ? sql`coalesce(${user.disabledAt}, now())` : null })
      .where(eq(user.id, playerId))
      .returning({ id: user.id });
    if (!changed) throw new NotFoundError("No player has this id.");
    if (disabled) {
      await tx.delete(session).where(eq(session.userId, playerId));
      // Sent when the transaction commits: the player's open streams end on every instance (issue 31).
      await closeAccountStreams(playerId, tx);
    }
  });
  const [summary] = await db().select(summaryColumns).from(user).leftJoin(profiles, eq(profiles.userId, user.id)).where(eq(user.id, playerId));
  if (!summary) throw new NotFoundError("No player has this id.");
  return summary;
}
