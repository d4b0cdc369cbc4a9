import { z } from "zod";
import { undoLatestExchange } from "#app/domain/stories.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { seenExchange, storyIdOf } from "#app/http/story-input.ts";

/** POST /api/stories/{id}/undo { exchange }: the latest exchange leaves the story (free; kept as undone). */
const undo = apiRoute({
  POST: endpoint({
    access: "user",
    body: z.object({ exchange: seenExchange }),
    handler: ({ user, params, body }) => undoLatestExchange(user.id, storyIdOf(params), body.exchange),
  }),
});

export const loader = undo;
export const action = undo;
