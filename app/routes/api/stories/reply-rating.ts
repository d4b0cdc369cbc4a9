import { z } from "zod";
import { clearReplyRating, RATING_REFUSALS, rateReply, type RatedVersion } from "#app/domain/reply-ratings.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { replyVersionOf } from "#app/http/story-input.ts";
import { BAD_REPLY_REASONS, REPLY_RATINGS } from "#app/lib/reply-ratings.ts";

/** The reply version the address names; anything that is not one names nothing (404). */
function ratedVersion(userId: string, params: Record<string, string | undefined>): RatedVersion {
  return { userId, ...replyVersionOf(params, RATING_REFUSALS.missing) };
}

/**
 * PUT /api/stories/{id}/replies/{replyId}/versions/{version}/rating { rating: "good" | "bad",
 * reason? }: Good reply / Bad reply on that version of a reply (a reason only with "bad"), in the
 * player's own story; it replaces the player's earlier rating of it. DELETE clears it. Free.
 */
const replyRating = apiRoute({
  PUT: endpoint({
    access: "user",
    body: z
      .object({
        rating: z.enum(REPLY_RATINGS, { error: 'Say whether the reply was "good" or "bad" (rating).' }),
        reason: z.enum(BAD_REPLY_REASONS, { error: `Give one of these reasons, or none: ${BAD_REPLY_REASONS.join(", ")}.` }).nullish(),
      })
      .refine((body) => body.rating === "bad" || !body.reason, { message: "A reason goes only with a bad rating.", path: ["reason"] }),
    handler: async ({ user, params, body }) => ({
      rating: await rateReply(ratedVersion(user.id, params), { rating: body.rating, reason: body.reason ?? null }),
    }),
  }),
  DELETE: endpoint({
    access: "user",
    handler: async ({ user, params }) => {
      await clearReplyRating(ratedVersion(user.id, params));
      return { rating: null };
    },
  }),
});

export const loader = replyRating;
export const action = replyRating;
