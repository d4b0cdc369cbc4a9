import { z } from "zod";
import { findInStory } from "#app/domain/game-messages.server.ts";
import { findStory } from "#app/domain/stories.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { storyIdOf } from "#app/http/story-input.ts";

/** GET /api/stories/{id}/search?q=: find in story — where the words appear, anywhere in the story. */
const search = apiRoute({
  GET: endpoint({
    access: "user",
    query: z.object({
      q: z
        .string({ error: "Say what to look for (q)." })
        .trim()
        .min(1, "Say what to look for (q).")
        .max(200, "Search for at most 200 characters."),
    }),
    handler: async ({ user, params, query }) => {
      const story = await findStory(user.id, storyIdOf(params));
      return { matches: await findInStory(story.id, query.q) };
    },
  }),
});

export const loader = search;
export const action = search;
