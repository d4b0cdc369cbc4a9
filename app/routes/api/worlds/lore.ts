import { createLoreEntry, listLore, setLoreScanDepth } from "#app/domain/lorebook.server.ts";
import { worldLorebook } from "#app/domain/worlds.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { gameLoreEntryInputSchema, loreScanDepthSchema } from "#app/lib/lorebook.ts";

/**
 * GET /api/worlds/{id}/lore: the world's lorebook (its game's, docs/decisions/065) and how many
 * exchanges it looks back. POST: add an entry. PATCH { scanDepth }: change how far back keys are
 * looked for. The world's creator only; anyone else's world is "not found".
 */
const worldLore = apiRoute({
  GET: endpoint({
    access: "user",
    handler: async ({ user, params }) => {
      const lorebook = await worldLorebook(user.id, params.worldId ?? "");
      return { scanDepth: lorebook.scanDepth, entries: await listLore(lorebook) };
    },
  }),
  POST: endpoint({
    access: "user",
    body: gameLoreEntryInputSchema,
    handler: async ({ user, params, body }) => ({ entry: await createLoreEntry(await worldLorebook(user.id, params.worldId ?? ""), body) }),
  }),
  PATCH: endpoint({
    access: "user",
    body: loreScanDepthSchema,
    handler: async ({ user, params, body }) => ({
      scanDepth: await setLoreScanDepth(await worldLorebook(user.id, params.worldId ?? ""), body.scanDepth),
    }),
  }),
});

export const loader = worldLore;
export const action = worldLore;
