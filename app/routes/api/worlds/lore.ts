import { createLoreEntry, listLore } from "#app/domain/lorebook.server.ts";
import { worldLorebook } from "#app/domain/worlds.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { gameLoreEntryInputSchema } from "#app/lib/lorebook.ts";

/**
 * GET /api/worlds/{id}/lore: the world's lorebook (its game's, docs/decisions/065). POST: add an
 * entry. The world's creator only; anyone else's world is "not found".
 */
const worldLore = apiRoute({
  GET: endpoint({
    access: "user",
    handler: async ({ user, params }) => ({ entries: await listLore(await worldLorebook(user.id, params.worldId ?? "")) }),
  }),
  POST: endpoint({
    access: "user",
    body: gameLoreEntryInputSchema,
    handler: async ({ user, params, body }) => ({ entry: await createLoreEntry(await worldLorebook(user.id, params.worldId ?? ""), body) }),
  }),
});

export const loader = worldLore;
export const action = worldLore;
