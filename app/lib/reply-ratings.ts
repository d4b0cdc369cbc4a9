/**
 * A player's verdict on a Game Master reply (issue 33): Good reply or Bad reply, with an optional
 * reason after Bad reply. One per player and version of a reply, stored with the model that wrote
 * it (app/domain/reply-ratings.server.ts). Safe on both sides.
 */

export const REPLY_RATINGS = ["good", "bad"] as const;
export type ReplyRating = (typeof REPLY_RATINGS)[number];

/** What a player may say was wrong with a bad reply. */
export const BAD_REPLY_REASONS = ["repeats", "ignored_me", "wrong_facts", "boring"] as const;
export type BadReplyReason = (typeof BAD_REPLY_REASONS)[number];

/** Each reason in the words the play screen offers it. */
export const BAD_REPLY_REASON_LABELS: Record<BadReplyReason, string> = {
  repeats: "Repeats itself",
  ignored_me: "Ignored me",
  wrong_facts: "Wrong facts",
  boring: "Boring",
};

/** A rating as it is stored and shown: a reason only ever comes with "bad". */
export interface ReplyRatingView {
  rating: ReplyRating;
  reason: BadReplyReason | null;
}

/** The address of one version's rating (PUT to rate it, DELETE to clear it). */
export function replyRatingPath(storyId: string, replyId: number, version: number) {
  return `/api/stories/${storyId}/replies/${replyId}/versions/${version}/rating`;
}

/** Good ones among those rated, from 0 to 1; null when nothing was rated. */
export function likedShare(good: number, bad: number): number | null {
  return good + bad === 0 ? null : good / (good + bad);
}
