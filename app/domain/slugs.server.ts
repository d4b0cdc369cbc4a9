import { like } from "drizzle-orm";
import { db } from "../db/database.server.ts";
import { games, guides } from "../db/schema.ts";
import { SLUG_MAX_LENGTH } from "../lib/admin-forms.ts";
import { firstFreeSlug, slugify } from "../lib/slugify.ts";

/**
 * The slug a new game or guide gets. One the admin typed is theirs: if it is taken, saving is
 * refused and they choose. One made from the title ("Pirate Queen" → "pirate-queen") is the
 * site's: when taken, the first free "pirate-queen-2", "-3"… is used instead.
 */
export async function slugForNew(table: typeof games | typeof guides, input: { slug: string; title: string }): Promise<string> {
  if (input.slug !== slugify(input.title)) return input.slug;
  // Slugs hold only a-z, 0-9 and '-', so the prefix needs no LIKE escaping.
  const prefix = input.slug.slice(0, SLUG_MAX_LENGTH - 4);
  const rows = await db()
    .select({ slug: table.slug })
    .from(table)
    .where(like(table.slug, `${prefix}%`));
  return firstFreeSlug(input.slug, new Set(rows.map((row) => row.slug)), SLUG_MAX_LENGTH);
}
