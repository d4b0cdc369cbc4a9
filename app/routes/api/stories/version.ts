import { z } from "zod";
import { chooseReplyVersion } from "#app/domain/stories.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { seenExchange, storyIdOf } from "#app/http/story-input.ts";

/** POST /api/stories/{id}/version { exchange, version }: the latest reply shows that version, and the story continues from it. */
const version = apiRoute({
  POST: endpoint({
    access: "user",
    body: z.object({ exchange: seenExchange, version: z.number({ error: "Say which version (version)." }).int().min(1).max(10_000) }),
    handler: ({ user, params, body }) => chooseReplyVersion(user.id, storyIdOf(params), body.exchange, body.version),
  }),
});

export const loader = version;
export const action = version;
