import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { db } from "../db/database.server.ts";
import { user, userRoles } from "../db/schema.ts";
import { CommandError } from "../lib/operator-errors.ts";
import { applyCreditChange, InsufficientCreditsError } from "./credits.server.ts";
import type { SupportCall } from "./support-calls.ts";

async function findUserByEmail(email: string) {
  const [found] = await db().select({ id: user.id, email: user.email }).from(user).where(eq(user.email, email.toLowerCase()));
  if (!found) throw new CommandError(`No user with the email ${email} exists. They must sign up first.`);
  return found;
}

async function grantAdmin(email: string) {
  const found = await findUserByEmail(email);
  const inserted = await db().insert(userRoles).values({ userId: found.id, role: "admin" }).onConflictDoNothing().returning({ id: userRoles.id });
  return inserted.length > 0 ? `${found.email} is now an admin.` : `${found.email} was already an admin.`;
}

async function revokeAdmin(email: string) {
  const found = await findUserByEmail(email);
  const removed = await db()
    .delete(userRoles)
    .where(and(eq(userRoles.userId, found.id), eq(userRoles.role, "admin")))
    .returning({ id: userRoles.id });
  return removed.length > 0 ? `${found.email} is no longer an admin.` : `${found.email} was not an admin.`;
}

async function grantCredits(email: string, credits: number) {
  const found = await findUserByEmail(email);
  const { balance } = await applyCreditChange({
    userId: found.id,
    delta: credits,
    reason: "admin_grant",
    reference: `support:${randomUUID()}`,
  }).catch((error: unknown) => {
    if (error instanceof InsufficientCreditsError) {
      throw new CommandError(`${found.email} does not have ${-credits} credits to remove.`);
    }
    throw error;
  });
  return `${credits > 0 ? "Granted" : "Removed"} ${Math.abs(credits)} credits ${credits > 0 ? "to" : "from"} ${found.email}; the balance is now ${balance}.`;
}

/** Runs `npm run admin:grant`, `admin:revoke` or `credits:grant` (parseSupportCall); a mistake is a CommandError. */
export async function runSupportCall(call: SupportCall): Promise<string> {
  switch (call.command) {
    case "admin:grant":
      return grantAdmin(call.email);
    case "admin:revoke":
      return revokeAdmin(call.email);
    case "credits:grant":
      return grantCredits(call.email, call.credits);
  }
}
