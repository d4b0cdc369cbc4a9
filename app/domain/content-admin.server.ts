import { and, asc, eq, inArray } from "drizzle-orm";
import type { Queryable } from "../db/client.server.ts";
import { db } from "../db/database.server.ts";
import { gameContent, games, type GameContent } from "../db/schema.ts";
import type { ContentInput, SectionInput, SectionsInput } from "../lib/admin-forms.ts";
import { MULTI_SECTION_TYPES } from "../lib/constants.ts";
import { InvalidInputError, NotFoundError } from "./errors.server.ts";

/**
 * The admin's side of game_content (docs/spec.md §7): every record of the active games, published or not,
 * with create, update, delete and the multi-section save. Public reads (published only) live in
 * game-content.server.ts.
 */

export interface AdminContent extends GameContent {
  gameTitle: string;
}

/** Records of active games (a deleted game's content leaves the lists with it), in section order. */
export async function listContentForAdmin(): Promise<AdminContent[]> {
  const rows = await db()
    .select({ content: gameContent, gameTitle: games.title })
    .from(gameContent)
    .innerJoin(games, eq(games.slug, gameContent.gameSlug))
    .where(eq(games.isActive, true))
    .orderBy(asc(games.sortOrder), asc(games.title), asc(gameContent.sectionOrder), asc(gameContent.createdAt));
  return rows.map(({ content, gameTitle }) => ({ ...content, gameTitle }));
}

async function requireActiveGame(executor: Queryable, slug: string) {
  const [game] = await executor
    .select({ slug: games.slug })
    .from(games)
    .where(and(eq(games.slug, slug), eq(games.isActive, true)));
  if (!game) throw new InvalidInputError("Choose a game: this one does not exist or was deleted.", "gameSlug");
}

export async function createContent(input: ContentInput): Promise<GameContent> {
  return db().transaction(async (tx) => {
    await requireActiveGame(tx, input.gameSlug);
    const [created] = await tx.insert(gameContent).values(input).returning();
    if (!created) throw new Error("The content could not be created.");
    return created;
  });
}

export async function updateContent(id: string, input: ContentInput): Promise<GameContent> {
  return db().transaction(async (tx) => {
    await requireActiveGame(tx, input.gameSlug);
    const [updated] = await tx.update(gameContent).set(input).where(eq(gameContent.id, id)).returning();
    if (!updated) throw new NotFoundError("This content no longer exists. It may have been deleted.");
    return updated;
  });
}

export async function deleteContent(id: string): Promise<Pick<GameContent, "id" | "title">> {
  const [deleted] = await db().delete(gameContent).where(eq(gameContent.id, id)).returning({ id: gameContent.id, title: gameContent.title });
  if (!deleted) throw new NotFoundError("This content no longer exists. It may have been deleted already.");
  return deleted;
}

export interface SectionsResult {
  updated: number;
  created: number;
  /** New sections left out because their title or content was blank. */
  skipped: SectionInput["contentType"][];
  /** The record each saved section now edits, so the editor's next save updates instead of copying. */
  ids: Partial<Record<SectionInput["contentType"], string>>;
}

const PLACEHOLDER_ORDER = new Map<string, number>(MULTI_SECTION_TYPES.map((section) => [section.contentType, section.sectionOrder]));

/**
 * docs/spec.md §5's multi-section save, all or nothing: a section with an id is updated; one without is
 * created only when its title and content are both filled in, otherwise skipped. A section order
 * that is not a number takes the section's placeholder (0, 10, 20, …).
 */
export async function saveSections({ gameSlug, sections }: SectionsInput): Promise<SectionsResult> {
  return db().transaction(async (tx) => {
    await requireActiveGame(tx, gameSlug);
    const existingIds = sections.flatMap((section) => (section.id ? [section.id] : []));
    const owned = existingIds.length
      ? await tx
          .select({ id: gameContent.id, contentType: gameContent.contentType })
          .from(gameContent)
          .where(and(eq(gameContent.gameSlug, gameSlug), inArray(gameContent.id, existingIds)))
      : [];
    const ownedType = new Map(owned.map((row) => [row.id, row.contentType]));

    const result: SectionsResult = { updated: 0, created: 0, skipped: [], ids: {} };
    for (const section of sections) {
      const values = {
        title: section.title,
        content: section.content,
        sectionOrder: section.sectionOrder ?? PLACEHOLDER_ORDER.get(section.contentType) ?? 0,
        isPublished: section.isPublished,
      };
      if (section.id) {
        if (ownedType.get(section.id) !== section.contentType) {
          throw new NotFoundError("A section changed while you were editing. Reload the page and try again.");
        }
        await tx.update(gameContent).set(values).where(eq(gameContent.id, section.id));
        result.updated += 1;
        result.ids[section.contentType] = section.id;
      } else if (section.title && section.content) {
        const [created] = await tx
          .insert(gameContent)
          .values({ ...values, gameSlug, contentType: section.contentType })
          .returning({ id: gameContent.id });
        result.created += 1;
        if (created) result.ids[section.contentType] = created.id;
      } else if (section.title || section.content) {
        result.skipped.push(section.contentType);
      }
    }
    return result;
  });
}
