import { z } from "zod";
import { branchStory, storyFamily } from "#app/domain/story-branches.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { storyIdOf } from "#app/http/story-input.ts";

/**
 * GET /api/stories/{id}/branches: the story's family as a tree (the Branches view). POST
 * { exchange }: Branch from here — a new story sharing this one's exchanges up to that one
 * (docs/decisions/063); answers where to play it.
 */
const branches = apiRoute({
  GET: endpoint({
    access: "user",
    handler: async ({ user, params }) => ({ root: await storyFamily(user.id, storyIdOf(params)) }),
  }),
  POST: endpoint({
    access: "user",
    body: z.object({
      exchange: z.number({ error: "Say which turn to branch from (exchange)." }).int().min(1, "Say which turn to branch from.").max(10_000_000),
    }),
    handler: async ({ user, params, body }) => {
      const branch = await branchStory(user.id, storyIdOf(params), body.exchange);
      return { id: branch.id, exchanges: branch.exchanges, url: `/play/${branch.gameSlug}/${branch.id}` };
    },
  }),
});

export const loader = branches;
export const action = branches;
