import { exportLore, importLore } from "#app/domain/lorebook.server.ts";
import { worldLorebook } from "#app/domain/worlds.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { sillyTavernWorldSchema } from "#app/lib/lorebook.ts";

/**
 * GET /api/worlds/{id}/lore/world-info: the world's lorebook as a SillyTavern world-info file.
 * POST: add a world-info file's entries (all or none). The creator only.
 */
const worldInfo = apiRoute({
  GET: endpoint({ access: "user", handler: async ({ user, params }) => exportLore(await worldLorebook(user.id, params.worldId ?? "")) }),
  POST: endpoint({
    access: "user",
    body: sillyTavernWorldSchema,
    handler: async ({ user, params, body }) => ({ entries: await importLore(await worldLorebook(user.id, params.worldId ?? ""), body) }),
  }),
});

export const loader = worldInfo;
export const action = worldInfo;
