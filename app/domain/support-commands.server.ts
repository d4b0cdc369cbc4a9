import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { db } from "../db/database.server.ts";
import { user, userRoles } from "../db/schema.ts";
import { applyCreditChange, InsufficientCreditsError } from "./credits.server.ts";

/** A mistake of the operator's (unknown email, bad number): shown as is, exit code 1. */
export class CommandError extends Error {
  override name = "CommandError";
}

type SupportCommand = (args: string[]) => Promise<string>;

async function findUserByEmail(email: string | undefined) {
  if (!email) throw new CommandError("Give the user's email address.");
  const [found] = await db().select({ id: user.id, email: user.email }).from(user).where(eq(user.email, email.trim().toLowerCase()));
  if (!found) throw new CommandError(`No user with the email ${email} exists. They must sign up first.`);
  return found;
}

/** The operator commands behind `npm run admin:grant`, `admin:revoke` and `credits:grant`. */
export const supportCommands: Record<string, SupportCommand> = {
  async "admin:grant"([email]) {
    const found = await findUserByEmail(email);
    const inserted = await db()
      .insert(userRoles)
      .values({ userId: found.id, role: "admin" })
      .onConflictDoNothing()
      .returning({ id: userRoles.id });
    return inserted.length > 0 ? `${found.email} is now an admin.` : `${found.email} was already an admin.`;
  },

  async "admin:revoke"([email]) {
    const found = await findUserByEmail(email);
    const removed = await db()
      .delete(userRoles)
      .where(and(eq(userRoles.userId, found.id), eq(userRoles.role, "admin")))
      .returning({ id: userRoles.id });
    return removed.length > 0 ? `${found.email} is no longer an admin.` : `${found.email} was not an admin.`;
  },

  async "credits:grant"([email, amount]) {
    const credits = Number(amount);
    if (!amount || !Number.isInteger(credits) || credits === 0 || Math.abs(credits) > 1_000_000) {
      throw new CommandError("Give the number of credits as a whole number, for example: credits:grant -- player@example.com 50");
    }
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
  },
};

export async function runSupportCommand(name: string, args: string[]): Promise<string> {
  const command = supportCommands[name];
  if (!command) throw new CommandError(`Unknown command "${name}". Known: ${Object.keys(supportCommands).join(", ")}.`);
  return command(args);
}
