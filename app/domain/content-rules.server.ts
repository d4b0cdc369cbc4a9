/** The content rules' numbered versions (/rules) and the admin's blocked terms, which moderation cites and publishing checks. */
import { desc, eq } from "drizzle-orm";
import { db } from "../db/database.server.ts";
import { blockedTerms, contentRules } from "../db/schema.ts";
import { isUniqueViolation } from "../db/unique-violation.server.ts";
import { ConflictError } from "./errors.server.ts";

export interface RulesVersion {
  version: number;
  rules: string[];
  publishedAt: string;
}

function asRulesVersion(row: typeof contentRules.$inferSelect): RulesVersion {
  return { version: row.version, rules: row.rules, publishedAt: row.createdAt.toISOString() };
}

/** The content rules in force: the latest version published. */
export async function currentRules(): Promise<RulesVersion> {
  const [row] = await db().select().from(contentRules).orderBy(desc(contentRules.version)).limit(1);
  if (!row) throw new Error("No content rules were ever published.");
  return asRulesVersion(row);
}

/** One version of the rules, old ones included; undefined for one never published. */
export async function findRulesVersion(version: number): Promise<RulesVersion | undefined> {
  const [row] = await db().select().from(contentRules).where(eq(contentRules.version, version));
  return row && asRulesVersion(row);
}

/** Every version, newest first, for /rules' list of earlier versions. */
export async function listRulesVersions(): Promise<{ version: number; publishedAt: string }[]> {
  const rows = await db()
    .select({ version: contentRules.version, createdAt: contentRules.createdAt })
    .from(contentRules)
    .orderBy(desc(contentRules.version));
  return rows.map((row) => ({ version: row.version, publishedAt: row.createdAt.toISOString() }));
}

/** Publishes the admin's rules as the next version; earlier versions stay as they were. */
export async function publishRules(adminId: string, rules: string[]): Promise<number> {
  const current = await currentRules();
  try {
    await db()
      .insert(contentRules)
      .values({ version: current.version + 1, rules, publishedBy: adminId });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError("Another admin published the rules at the same moment. Read them, then publish again.");
    throw error;
  }
  return current.version + 1;
}

/** The admin's blocked terms, alphabetically. */
export async function listBlockedTerms(): Promise<string[]> {
  const rows = await db().select({ term: blockedTerms.term }).from(blockedTerms).orderBy(blockedTerms.term);
  return rows.map((row) => row.term);
}

export async function addBlockedTerm(term: string): Promise<void> {
  await db().insert(blockedTerms).values({ term }).onConflictDoNothing();
}

export async function removeBlockedTerm(term: string): Promise<void> {
  await db().delete(blockedTerms).where(eq(blockedTerms.term, term));
}
