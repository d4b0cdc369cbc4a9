import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import { db } from "../../db/database.server.ts";
import { gameMessages, games, modelCalls, stories } from "../../db/schema.ts";
import type { ContextManifest, ContextView } from "../../lib/context-manifest.ts";
import type { StatCheck } from "../../lib/stat-checks.ts";
import { NotFoundError } from "../errors.server.ts";

/**
 * "What the Game Master sees" (issue 35, docs/decisions/062): the manifest of the call that wrote a
 * version of a reply, read back with that call's recorded usage and cost, for the story's owner.
 */

export const CONTEXT_VIEW_REFUSALS = {
  missing:
    "There is no record of what the Game Master saw for this reply: it is not in your story, or it was written before such records were kept.",
} as const;

export async function replyContextView(
  viewer: { id: string; isAdmin: boolean },
  { storyId, replyId, version }: { storyId: string; replyId: number; version: number },
): Promise<ContextView> {
  const [row] = await db()
    .select({
      kind: modelCalls.kind,
      provider: modelCalls.provider,
      model: modelCalls.model,
      inputTokens: modelCalls.inputTokens,
      cachedInputTokens: modelCalls.cachedInputTokens,
      outputTokens: modelCalls.outputTokens,
      estimated: modelCalls.estimated,
      cost: modelCalls.cost,
      currency: modelCalls.currency,
      createdAt: modelCalls.createdAt,
      manifest: sql<ContextManifest>`${modelCalls.context}`,
      // Only an admin reads the game's instructions (as they are now); a player sees their count.
      instructions: viewer.isAdmin ? games.prompt : sql<null>`null`,
      // The Check of the reply's exchange, as its player message keeps it.
      check: sql<StatCheck | null>`(select player.roll from game_messages as player
        where player.story_id = ${gameMessages.storyId} and player.exchange = ${gameMessages.exchange}
          and player.role = 'user' and player.removed_at is null)`,
    })
    .from(modelCalls)
    .innerJoin(gameMessages, eq(gameMessages.id, modelCalls.replyId))
    .innerJoin(stories, eq(stories.id, gameMessages.storyId))
    .leftJoin(games, eq(games.slug, stories.gameSlug))
    .where(
      and(
        eq(modelCalls.replyId, replyId),
        eq(modelCalls.replyVersion, version),
        eq(stories.id, storyId),
        eq(stories.userId, viewer.id),
        isNotNull(modelCalls.context),
      ),
    )
    .orderBy(desc(modelCalls.id))
    .limit(1);
  if (!row) throw new NotFoundError(CONTEXT_VIEW_REFUSALS.missing);
  const { manifest, instructions, check, createdAt, ...call } = row;
  return { manifest, instructions: instructions ?? null, check, call: { ...call, createdAt: createdAt.toISOString() } };
}
