import { deleteLoreEntry, updateLoreEntry } from "#app/domain/lorebook.server.ts";
import { worldLorebook } from "#app/domain/worlds.server.ts";
import { apiRoute, endpoint, recordId } from "#app/http/api-route.server.ts";
import { gameLoreEntryInputSchema } from "#app/lib/lorebook.ts";

/** PUT /api/worlds/{id}/lore/{entryId}: change an entry of the world's lorebook. DELETE: remove it. The creator only. */
const worldLoreEntry = apiRoute({
  PUT: endpoint({
    access: "user",
    body: gameLoreEntryInputSchema,
    handler: async ({ user, params, body }) => {
      const lorebook = await worldLorebook(user.id, params.worldId ?? "");
      return { entry: await updateLoreEntry(lorebook, recordId(params.entryId, "lorebook entry"), body) };
    },
  }),
  DELETE: endpoint({
    access: "user",
    handler: async ({ user, params }) => {
      await deleteLoreEntry(await worldLorebook(user.id, params.worldId ?? ""), recordId(params.entryId, "lorebook entry"));
      return { deleted: true };
    },
  }),
});

export const loader = worldLoreEntry;
export const action = worldLoreEntry;
