import { and, asc, eq, isNull, ne, sql } from "drizzle-orm";
import type { Queryable } from "../db/client.server.ts";
import { db } from "../db/database.server.ts";
import { games, modelPrices, type Game } from "../db/schema.ts";
import { env } from "../env.server.ts";
import type { GameInput } from "../lib/admin-forms.ts";
import { RECENT_TURNS_SAMPLED, type GameModelChoices } from "../lib/game-models.ts";
import { isUniqueViolation } from "../db/unique-violation.server.ts";
import { InvalidInputError, NotFoundError, SlugTakenError } from "./errors.server.ts";
import { gameMasterModelName } from "./game-master/model.server.ts";
import { listModelPrices } from "./model-prices.server.ts";
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

/**
 * What the game editor offers (docs/decisions/060): the configured provider's models — the site's
 * and those in the price table — and each site game's recent turns, for the estimate of a turn's cost.
 */
export async function loadGameModelChoices(): Promise<GameModelChoices> {
  const config = env();
  const [prices, turns] = await Promise.all([
    listModelPrices(),
    // Per site game: its latest turns, and the summaries written since the oldest of them.
    db().execute(sql`
      with turn as (
        select ${games.slug} as slug, sampled.created_at, sampled.input_tokens, sampled.cached_input_tokens,
          sampled.cache_write_tokens, sampled.output_tokens
        from ${games}
        cross join lateral (
          select calls.created_at, calls.input_tokens, calls.cached_input_tokens, calls.cache_write_tokens, calls.output_tokens
          from model_calls as calls where calls.game_slug = ${games.slug} and calls.kind not in ('summary', 'advisory')
          order by calls.created_at desc limit ${RECENT_TURNS_SAMPLED}
        ) as sampled
        where ${games.isActive} and ${games.creatorId} is null
      )
      select slug, false as summary, input_tokens as input, cached_input_tokens as cached, cache_write_tokens as cache_write,
        output_tokens as output
      from turn
      union all
      select calls.game_slug, true, calls.input_tokens, calls.cached_input_tokens, calls.cache_write_tokens, calls.output_tokens
      from (select slug, min(created_at) as since from turn group by slug) as sampled
      join model_calls as calls on calls.game_slug = sampled.slug and calls.kind = 'summary' and calls.created_at >= sampled.since`) as Promise<{
      rows: { slug: string; summary: boolean; input: number; cached: number; cache_write: number; output: number }[];
    }>,
  ]);
  const recentCalls: GameModelChoices["recentCalls"] = {};
  for (const row of turns.rows) {
    const calls = (recentCalls[row.slug] ??= { turns: [], summaries: [] });
    (row.summary ? calls.summaries : calls.turns).push([row.input, row.cached, row.cache_write, row.output]);
  }
  return {
    provider: config.AI_PROVIDER,
    siteModel: gameMasterModelName().model,
    siteContextTokens: config.AI_CONTEXT_TOKENS,
    prices: prices.filter((price) => price.provider === config.AI_PROVIDER),
    recentCalls,
  };
}

/**
 * A game's model must be one the site can call: the site's own (AI_MODEL), one priced for the
 * configured provider, or the one it already has (its price may have been removed since).
 */
async function refuseUnknownModel(executor: Queryable, model: string | null, current?: string | null) {
  const config = env();
  if (model === null || model === current || model === gameMasterModelName().model) return;
  const [priced] = await executor
    .select({ model: modelPrices.model })
    .from(modelPrices)
    .where(and(eq(modelPrices.provider, config.AI_PROVIDER), eq(modelPrices.model, model)));
  if (!priced) {
    throw new InvalidInputError(
      `"${model}" is not a model this site can use: choose the site's model or one priced for ${config.AI_PROVIDER} in the Models tab.`,
      "model",
    );
  }
}

export async function createGame(input: GameInput): Promise<Game> {
  await refuseUnknownModel(db(), input.model);
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
      const [current] = await tx.select({ model: games.model }).from(games).where(eq(games.id, id));
      await refuseUnknownModel(tx, input.model, current?.model);
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
