import { exportLore, gameLorebook, importLore } from "#app/domain/lorebook.server.ts";
import { apiRoute, endpoint, recordId } from "#app/http/api-route.server.ts";
import { sillyTavernWorldSchema } from "#app/lib/lorebook.ts";

/**
 * GET /api/admin/games/{id}/lore/world-info: the game's lorebook as a SillyTavern world-info file.
 * POST: add a world-info file's entries (all or none). Admins only.
 */
const gameWorldInfo = apiRoute({
  GET: endpoint({ access: "admin", handler: async ({ params }) => exportLore(await gameLorebook(recordId(params.id, "game"))) }),
  POST: endpoint({
    access: "admin",
    body: sillyTavernWorldSchema,
    handler: async ({ params, body }) => ({ entries: await importLore(await gameLorebook(recordId(params.id, "game")), body) }),
  }),
});

export const loader = gameWorldInfo;
export const action = gameWorldInfo;
