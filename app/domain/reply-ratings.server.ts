import { and, eq, isNull, sql } from "drizzle-orm";
import { db } from "../db/database.server.ts";
import { gameMessages, replyRatings, replyVersions, stories } from "../db/schema.ts";
import type { ReplyRatingView } from "../lib/reply-ratings.ts";
import { DomainError, NotFoundError } from "./errors.server.ts";

/**
 * Good reply / Bad reply (issue 33): a player's verdict on one version of a Game Master reply in
 * their own story, stored with the model that wrote that version, so the admin overview can tell
 * how well each game and each model is liked. Setting a rating replaces the one before; clearing
 * it deletes it. A rating stays when its reply leaves the story (undone, edited away) and is then
 * no longer counted.
 */

export const RATING_REFUSALS = {
  missing: "This reply is not in your story: it may have been undone or replaced. Reload the page to see your story.",
  writing: "The Game Master is still writing this reply. Rate it once it is finished.",
  lost: "This reply was lost before any of it was written, so there is nothing to rate.",
} as const;

/** One version of a reply, as its player names it. */
export interface RatedVersion {
  userId: string;
  storyId: string;
  replyId: number;
  version: number;
}

/**
 * The version named, if it is a live reply of the player's own story: its status, and the model
 * that wrote it (the reply's own columns while it has one version, its reply_versions row after).
 * Anything else — another player's story, a player's message, a reply undone — is not found.
 */
async function findReplyVersion({ userId, storyId, replyId, version }: RatedVersion) {
  const [reply] = await db()
    .select({
      status: gameMessages.status,
      versions: gameMessages.versions,
      modelProvider: sql<
        string | null
      >`case when ${gameMessages.versions} = 1 then ${gameMessages.modelProvider} else ${replyVersions.modelProvider} end`,
      model: sql<string | null>`case when ${gameMessages.versions} = 1 then ${gameMessages.model} else ${replyVersions.model} end`,
    })
    .from(gameMessages)
    .innerJoin(stories, eq(stories.id, gameMessages.storyId))
    .leftJoin(replyVersions, and(eq(replyVersions.messageId, gameMessages.id), eq(replyVersions.version, version)))
    .where(
      and(
        eq(gameMessages.id, replyId),
        // A branch's replies include those it shares with the story it came from (docs/decisions/063).
        sql`${gameMessages.storyId} in (select story_id from story_lineage(${storyId}::uuid))`,
        eq(stories.userId, userId),
        eq(gameMessages.role, "assistant"),
        isNull(gameMessages.removedAt),
      ),
    );
  if (!reply && (await isReplyInFlight({ userId, storyId, replyId }))) throw new DomainError("story_busy", RATING_REFUSALS.writing);
  if (!reply || version > reply.versions) throw new NotFoundError(RATING_REFUSALS.missing);
  return reply;
}

/** Whether the reply is the new exchange's that a turn of the player's story is writing: it is stored when the turn ends (docs/decisions/068). */
async function isReplyInFlight({ userId, storyId, replyId }: Omit<RatedVersion, "version">) {
  const [inFlight] = await db()
    .select({ id: stories.id })
    .from(stories)
    .where(and(eq(stories.id, storyId), eq(stories.userId, userId), eq(stories.activeReplyId, replyId)));
  return inFlight !== undefined;
}

/** Rates a version of a reply (replacing the player's earlier rating of it); returns the rating stored. */
export async function rateReply(target: RatedVersion, { rating, reason }: ReplyRatingView): Promise<ReplyRatingView> {
  const reply = await findReplyVersion(target);
  // While a reply is written its text is not final, so it is not rated yet (a new exchange's is not even stored).
  if (reply.status === "streaming") throw new DomainError("story_busy", RATING_REFUSALS.writing);
  if (reply.status === "interrupted") throw new DomainError("reply_not_ratable", RATING_REFUSALS.lost);
  const stored = { rating, reason, modelProvider: reply.modelProvider, model: reply.model };
  await db()
    .insert(replyRatings)
    .values({ messageId: target.replyId, version: target.version, userId: target.userId, ...stored })
    .onConflictDoUpdate({
      target: [replyRatings.messageId, replyRatings.version, replyRatings.userId],
      set: { ...stored, ratedAt: sql`now()` },
    });
  return { rating, reason };
}

/** Clears the player's rating of a version of a reply (nothing happens if there was none). */
export async function clearReplyRating(target: RatedVersion): Promise<void> {
  await findReplyVersion(target);
  await db()
    .delete(replyRatings)
    .where(and(eq(replyRatings.messageId, target.replyId), eq(replyRatings.version, target.version), eq(replyRatings.userId, target.userId)));
}
