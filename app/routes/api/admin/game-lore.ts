import { createLoreEntry, gameLorebook, listLore, setLoreScanDepth } from "#app/domain/lorebook.server.ts";
import { apiRoute, endpoint, recordId } from "#app/http/api-route.server.ts";
import { gameLoreEntryInputSchema, loreScanDepthSchema } from "#app/lib/lorebook.ts";

/**
 * GET /api/admin/games/{id}/lore: the game's lorebook and how many exchanges it looks back.
 * POST: add an entry. PATCH { scanDepth }: change how far back keys are looked for. Admins only.
 */
const gameLore = apiRoute({
  GET: endpoint({
    access: "admin",
    handler: async ({ params }) => {
      const lorebook = await gameLorebook(recordId(params.id, "game"));
      return { scanDepth: lorebook.scanDepth, entries: await listLore(lorebook) };
    },
  }),
  POST: endpoint({
    access: "admin",
    body: gameLoreEntryInputSchema,
    handler: async ({ params, body }) => ({ entry: await createLoreEntry(await gameLorebook(recordId(params.id, "game")), body) }),
  }),
  PATCH: endpoint({
    access: "admin",
    body: loreScanDepthSchema,
    handler: async ({ params, body }) => ({ scanDepth: await setLoreScanDepth(await gameLorebook(recordId(params.id, "game")), body.scanDepth) }),
  }),
});

export const loader = gameLore;
export const action = gameLore;
