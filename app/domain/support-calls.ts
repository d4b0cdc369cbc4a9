import { CommandError } from "../lib/operator-errors.ts";

/**
 * The operator commands behind `npm run admin:grant`, `admin:revoke` and `credits:grant`, with
 * their arguments checked. Apart from the commands themselves (support-commands.server.ts), which
 * need the database: the command line refuses a mistyped argument before it opens anything.
 */
export type SupportCall =
  { command: "admin:grant" | "admin:revoke"; email: string } | { command: "credits:grant"; email: string; credits: number };

const COMMANDS = ["admin:grant", "admin:revoke", "credits:grant"] as const;

function isSupportCommand(name: string): name is SupportCall["command"] {
  return (COMMANDS as readonly string[]).includes(name);
}

function emailArgument(email: string | undefined) {
  const trimmed = email?.trim();
  if (!trimmed) throw new CommandError("Give the user's email address.");
  return trimmed;
}

export function parseSupportCall(command: string, [email, amount]: string[]): SupportCall {
  if (!isSupportCommand(command)) throw new CommandError(`Unknown command "${command}". Known: ${COMMANDS.join(", ")}.`);
  if (command !== "credits:grant") return { command, email: emailArgument(email) };
  const credits = Number(amount);
  if (!amount || !Number.isInteger(credits) || credits === 0 || Math.abs(credits) > 1_000_000) {
    throw new CommandError("Give the number of credits as a whole number, for example: credits:grant -- player@example.com 50");
  }
  return { command, email: emailArgument(email), credits };
}
