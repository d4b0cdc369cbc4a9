import { and, asc, eq, isNull, ne } from "drizzle-orm";
import type { Queryable } from "../db/client.server.ts";
import { db } from "../db/database.server.ts";
import { games, type Game } from "../db/schema.ts";
import type { GameInput } from "../lib/admin-forms.ts";
import { isUniqueViolation } from "../db/unique-violation.server.ts";
import { NotFoundError, SlugTakenError } from "./errors.server.ts";
import { slugForNew } from "./slugs.server.ts";

/**
 * The admin's side of games (docs/spec.md §7 games): the active games in sort order, create, update and
 * the soft delete. Public reads live in games.server.ts.
 */

/** The site's active games: players' published worlds are active too, and are not the admin's to edit here. */
export async function listGamesForAdmin(): Promise<Game[]> {
  return db()
    .select()
    .from(games)
    .where(and(eq(games.isActive, true), isNull(games.creatorId)))
    .orderBy(asc(games.sortOrder), asc(games.title));
}

async function slugTaken(executor: Queryable, slug: string, exceptId?: string): Promise<SlugTakenError | undefined> {
  const [owner] = await executor
    .select({ title: games.title, isActive: games.isActive })
    .from(games)
    .where(exceptId ? and(eq(games.slug, slug), ne(games.id, exceptId)) : eq(games.slug, slug));
  return owner ? new SlugTakenError("game", slug, { title: owner.title, deleted: !owner.isActive }) : undefined;
}

export async function createGame(input: GameInput): Promise<Game> {
  const slug = await slugForNew(games, input);
  const [created] = await db()
    .insert(games)
    .values({ ...input, slug })
    .onConflictDoNothing({ target: games.slug })
    .returning();
  if (created) return created;
  const taken = await slugTaken(db(), slug);
  if (taken) throw taken;
  throw new Error("The game could not be created.");
}

/** Updates an active game; a new slug carries its content and stored chats along (ON UPDATE CASCADE). */
export async function updateGame(id: string, input: GameInput): Promise<Game> {
  try {
    return await db().transaction(async (tx) => {
      const taken = await slugTaken(tx, input.slug, id);
      if (taken) throw taken;
      const [updated] = await tx
        .update(games)
        .set(input)
        .where(and(eq(games.id, id), eq(games.isActive, true)))
        .returning();
      if (!updated) throw new NotFoundError("This game no longer exists. It may have been deleted.");
      return updated;
    });
  } catch (error) {
    // Another admin took the slug between the check and the update.
    if (isUniqueViolation(error)) throw (await slugTaken(db(), input.slug, id)) ?? error;
    throw error;
  }
}

/** docs/spec.md §4: deleting a game only marks it inactive; its row, content and players' stories stay. */
export async function softDeleteGame(id: string): Promise<Pick<Game, "id" | "title" | "slug">> {
  const [deleted] = await db()
    .update(games)
    .set({ isActive: false })
    .where(and(eq(games.id, id), eq(games.isActive, true)))
    .returning({ id: games.id, title: games.title, slug: games.slug });
  if (!deleted) throw new NotFoundError("This game no longer exists. It may have been deleted already.");
  return deleted;
}
