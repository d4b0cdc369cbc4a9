import { and, eq, sql } from "drizzle-orm";
import type { Queryable } from "../db/client.server.ts";
import { db } from "../db/database.server.ts";
import { creditLedger, profiles } from "../db/schema.ts";
import type { CreditReason } from "../lib/constants.ts";
import { PLAY_TOASTS } from "../lib/play-texts.ts";
import { DomainError } from "./errors.server.ts";

/**
 * Credits are money: every change of a balance is a ledger row written in the same transaction
 * as the balance, and (reason, reference) is unique, so a payment, a refund or a grant keyed by
 * the same reference can never be applied twice.
 */

export class InsufficientCreditsError extends DomainError {
  override name = "InsufficientCreditsError";
  constructor() {
    super("insufficient_credits", PLAY_TOASTS.insufficientCredits.description);
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
 * Applies one change exactly once, in one call of the database's apply_credit_change
 * (app/db/functions/apply_credit_change.sql): one round trip, atomic on its own, or part of the
 * caller's transaction when given one.
 * A debit that would take the balance below zero throws InsufficientCreditsError and changes
 * nothing.
 */
export async function applyCreditChange(change: CreditChange, executor: Queryable = db()): Promise<AppliedChange> {
  if (!Number.isInteger(change.delta) || change.delta === 0) {
    throw new RangeError("A credit change must be a non-zero whole number.");
  }
  const [row] = await executor
    .select({ outcome: sql<"applied" | "duplicate" | "insufficient">`outcome`, balance: sql<number | null>`balance` })
    .from(sql`apply_credit_change(${change.userId}, ${change.delta}, ${change.reason}, ${change.reference})`);
  if (!row) throw new Error("The balance could not be updated.");
  if (row.outcome === "insufficient") throw new InsufficientCreditsError();
  return { applied: row.outcome === "applied", balance: row.balance ?? 0 };
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
