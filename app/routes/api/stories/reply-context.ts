import { CONTEXT_VIEW_REFUSALS, replyContextView } from "#app/domain/game-master/context-views.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { replyVersionOf } from "#app/http/story-input.ts";

/**
 * GET /api/stories/{id}/replies/{replyId}/versions/{version}/context — What the Game Master sees:
 * for each call that wrote this version (the reply, then each Continue), every part of the context
 * it was sent, by reference and token count, with its usage and cost (docs/decisions/062, 066). The story's owner only; 404 for
 * anyone else, as for a reply that is not there.
 */
const replyContext = apiRoute({
  GET: endpoint({
    access: "user",
    handler: async ({ user, params }) => replyContextView(user, replyVersionOf(params, CONTEXT_VIEW_REFUSALS.missing)),
  }),
});

export const loader = replyContext;
