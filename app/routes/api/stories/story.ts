import { z } from "zod";
import { storyMessagesBetween } from "#app/domain/game-messages.server.ts";
import { findStory, messageView, settleAbandonedTurn, storyView } from "#app/domain/stories.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { storyIdOf } from "#app/http/story-input.ts";
import { STORY_PAGE_EXCHANGES } from "#app/lib/story-view.ts";

/**
 * GET /api/stories/{id}: the story as the play screen shows it (its newest exchanges, revision,
 * whether a reply is being written) — what a tab reloads when another tab changed the story.
 * With ?before=N, the page of exchanges before exchange N instead (older turns, on scroll).
 */
const story = apiRoute({
  GET: endpoint({
    access: "user",
    query: z.object({ before: z.coerce.number().int().min(1).optional() }),
    handler: async ({ user, params, query }) => {
      const found = await findStory(user.id, storyIdOf(params));
      if (query.before === undefined) return storyView(await settleAbandonedTurn(found));
      const last = Math.min(query.before, found.exchanges + 1) - 1;
      const messages = await storyMessagesBetween(found.id, Math.max(1, last - STORY_PAGE_EXCHANGES + 1), last);
      return { messages: messages.map(messageView) };
    },
  }),
});

export const loader = story;
export const action = story;
