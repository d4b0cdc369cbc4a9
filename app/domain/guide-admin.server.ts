import { and, desc, eq, ne } from "drizzle-orm";
import { db } from "../db/database.server.ts";
import { guides, type Guide } from "../db/schema.ts";
import type { GuideInput } from "../lib/admin-forms.ts";
import { isUniqueViolation } from "../db/unique-violation.server.ts";
import { NotFoundError, SlugTakenError } from "./errors.server.ts";
import { slugForNew } from "./slugs.server.ts";

/**
 * The admin's side of guides (docs/spec.md §7 guides): all of them, newest first, published or not, with
 * create, update and delete. Public reads live in guides.server.ts.
 */

export async function listGuidesForAdmin(): Promise<Guide[]> {
  return db().select().from(guides).orderBy(desc(guides.createdAt), desc(guides.id));
}

async function slugOwner(slug: string, exceptId?: string) {
  const [owner] = await db()
    .select({ title: guides.title })
    .from(guides)
    .where(exceptId ? and(eq(guides.slug, slug), ne(guides.id, exceptId)) : eq(guides.slug, slug));
  return owner ? new SlugTakenError("guide", slug, owner) : undefined;
}

export async function createGuide(input: GuideInput): Promise<Guide> {
  const slug = await slugForNew(guides, input);
  const [created] = await db()
    .insert(guides)
    .values({ ...input, slug })
    .onConflictDoNothing({ target: guides.slug })
    .returning();
  if (created) return created;
  const taken = await slugOwner(slug);
  if (taken) throw taken;
  throw new Error("The guide could not be created.");
}

export async function updateGuide(id: string, input: GuideInput): Promise<Guide> {
  const taken = await slugOwner(input.slug, id);
  if (taken) throw taken;
  try {
    const [updated] = await db().update(guides).set(input).where(eq(guides.id, id)).returning();
    if (!updated) throw new NotFoundError("This guide no longer exists. It may have been deleted.");
    return updated;
  } catch (error) {
    if (isUniqueViolation(error)) throw (await slugOwner(input.slug, id)) ?? error;
    throw error;
  }
}

export async function deleteGuide(id: string): Promise<Pick<Guide, "id" | "title">> {
  const [deleted] = await db().delete(guides).where(eq(guides.id, id)).returning({ id: guides.id, title: guides.title });
  if (!deleted) throw new NotFoundError("This guide no longer exists. It may have been deleted already.");
  return deleted;
}
