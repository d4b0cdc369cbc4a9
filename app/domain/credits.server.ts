import { and, eq, gte, sql } from "drizzle-orm";
import type { Queryable } from "../db/client.server.ts";
import { db } from "../db/database.server.ts";
import { creditLedger, profiles } from "../db/schema.ts";
import type { CreditReason } from "../lib/constants.ts";

/**
 * Credits are money: every change of a balance is a ledger row written in the same transaction
 * as the balance, and (reason, reference) is unique, so a payment, a refund or a grant keyed by
 * the same reference can never be applied twice.
 */

export class InsufficientCreditsError extends Error {
  override name = "InsufficientCreditsError";
  constructor() {
    super("Insufficient credits");
  }
}

export interface CreditChange {
  userId: string;
  delta: number;
  reason: CreditReason;
  /** Unique per reason: the payment session, the chat turn, the user for a sign-up bonus… */
  reference: string;
}

export interface AppliedChange {
  /** False when a change with the same reason and reference was applied before (nothing changed). */
  applied: boolean;
  balance: number;
}

export async function getBalance(userId: string, executor: Queryable = db()): Promise<number> {
  const [row] = await executor.select({ credits: profiles.credits }).from(profiles).where(eq(profiles.userId, userId));
  return row?.credits ?? 0;
}

/**
 * Applies one change exactly once. Runs inside the caller's transaction when given one; a
 * debit that would take the balance below zero throws InsufficientCreditsError and changes
 * nothing.
 */
export async function applyCreditChange(change: CreditChange, executor?: Queryable): Promise<AppliedChange> {
  if (!Number.isInteger(change.delta) || change.delta === 0) {
    throw new RangeError("A credit change must be a non-zero whole number.");
  }
  if (!executor) return db().transaction((tx) => applyCreditChange(change, tx));

  // Claim the (reason, reference) first: a concurrent duplicate waits on the unique index and
  // then does nothing, so the balance moves once.
  const claimed = await executor
    .insert(creditLedger)
    .values({ ...change, balanceAfter: 0 })
    .onConflictDoNothing({ target: [creditLedger.reason, creditLedger.reference] })
    .returning({ id: creditLedger.id });
  const ledgerRow = claimed[0];
  if (!ledgerRow) return { applied: false, balance: await getBalance(change.userId, executor) };

  const balance = change.delta > 0 ? await credit(executor, change) : await debit(executor, change);
  await executor.update(creditLedger).set({ balanceAfter: balance }).where(eq(creditLedger.id, ledgerRow.id));
  return { applied: true, balance };
}

async function credit(executor: Queryable, change: CreditChange) {
  const [row] = await executor
    .insert(profiles)
    .values({ userId: change.userId, credits: change.delta })
    .onConflictDoUpdate({
      target: profiles.userId,
      set: { credits: sql`${profiles.credits} + ${change.delta}`, updatedAt: new Date() },
    })
    .returning({ credits: profiles.credits });
  if (!row) throw new Error("The balance could not be updated.");
  return row.credits;
}

/** A debit is one conditional UPDATE, so concurrent debits of one account can never overspend. */
async function debit(executor: Queryable, change: CreditChange) {
  const [row] = await executor
    .update(profiles)
    .set({ credits: sql`${profiles.credits} + ${change.delta}`, updatedAt: new Date() })
    .where(and(eq(profiles.userId, change.userId), gte(profiles.credits, -change.delta)))
    .returning({ credits: profiles.credits });
  if (!row) throw new InsufficientCreditsError();
  return row.credits;
}

/** Whether a change with this reason and reference has been applied. */
export async function hasCreditChange(reason: CreditReason, reference: string, executor: Queryable = db()) {
  const [row] = await executor
    .select({ id: creditLedger.id })
    .from(creditLedger)
    .where(and(eq(creditLedger.reason, reason), eq(creditLedger.reference, reference)));
  return Boolean(row);
}

/** The sum of a user's ledger; equals their balance at all times (tested as an invariant). */
export async function ledgerTotal(userId: string, executor: Queryable = db()): Promise<number> {
  const [row] = await executor
    .select({ total: sql<string>`coalesce(sum(${creditLedger.delta}), 0)` })
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId));
  return Number(row?.total ?? 0);
}
