import { exportLore, importLore, storyLorebook } from "#app/domain/lorebook.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { storyIdOf } from "#app/http/story-input.ts";
import { sillyTavernWorldSchema } from "#app/lib/lorebook.ts";

/**
 * GET /api/stories/{id}/lore/world-info: the story's lorebook as a SillyTavern world-info file.
 * POST: add a world-info file's entries (all or none).
 */
const worldInfo = apiRoute({
  GET: endpoint({
    access: "user",
    handler: async ({ user, params }) => exportLore(await storyLorebook(user.id, storyIdOf(params))),
  }),
  POST: endpoint({
    access: "user",
    body: sillyTavernWorldSchema,
    handler: async ({ user, params, body }) => ({ entries: await importLore(await storyLorebook(user.id, storyIdOf(params)), body) }),
  }),
});

export const loader = worldInfo;
export const action = worldInfo;
