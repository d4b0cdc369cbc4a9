import { and, asc, eq, isNotNull, sql } from "drizzle-orm";
import { db } from "../../db/database.server.ts";
import { gameMessages, games, modelCalls, stories } from "../../db/schema.ts";
import type { ContextManifest, ContextView } from "../../lib/context-manifest.ts";
import type { StatCheck } from "../../lib/stat-checks.ts";
import { NotFoundError } from "../errors.server.ts";

/**
 * "What the Game Master sees" (issue 35, docs/decisions/062, 066): the manifests of the calls that
 * wrote a version of a reply (the reply, then each Continue), read back with each call's recorded
 * usage and cost, for the story's owner.
 */

export const CONTEXT_VIEW_REFUSALS = {
  missing:
    "There is no record of what the Game Master saw for this reply: it is not in your story, or it was written before such records were kept.",
} as const;

export async function replyContextView(
  viewer: { id: string; isAdmin: boolean },
  { storyId, replyId, version }: { storyId: string; replyId: number; version: number },
): Promise<ContextView> {
  const rows = await db()
    .select({
      kind: modelCalls.kind,
      provider: modelCalls.provider,
      model: modelCalls.model,
      inputTokens: modelCalls.inputTokens,
      cachedInputTokens: modelCalls.cachedInputTokens,
      outputTokens: modelCalls.outputTokens,
      estimated: modelCalls.estimated,
      outcome: modelCalls.outcome,
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
    .innerJoin(stories, eq(stories.id, storyId))
    .leftJoin(games, eq(games.slug, stories.gameSlug))
    .where(
      and(
        // The reply as the story reads it: its own, one a branch shares with the story it came
        // from, or a branch's copy of one (whose call is the original's: docs/decisions/063).
        eq(
          modelCalls.replyId,
          sql`(select coalesce(shown.copied_from, shown.id) from game_messages as asked
            join story_messages(${storyId}::uuid, asked.exchange, asked.exchange) as shown on shown.id = asked.id
            where asked.id = ${replyId} and asked.role = 'assistant')`,
        ),
        eq(modelCalls.replyVersion, version),
        eq(stories.userId, viewer.id),
        isNotNull(modelCalls.context),
      ),
    )
    // In the order they were made: ids are an identity, given as each call is recorded.
    .orderBy(asc(modelCalls.id));
  const [first] = rows;
  if (!first) throw new NotFoundError(CONTEXT_VIEW_REFUSALS.missing);
  return {
    calls: rows.map(({ manifest, instructions: _instructions, check: _check, createdAt, ...call }) => ({
      manifest,
      call: { ...call, createdAt: createdAt.toISOString() },
    })),
    instructions: first.instructions ?? null,
    check: first.check,
  };
}
