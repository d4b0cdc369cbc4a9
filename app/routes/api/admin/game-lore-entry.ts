import { deleteLoreEntry, gameLorebook, updateLoreEntry } from "#app/domain/lorebook.server.ts";
import { apiRoute, endpoint, recordId } from "#app/http/api-route.server.ts";
import { gameLoreEntryInputSchema } from "#app/lib/lorebook.ts";

/** PUT /api/admin/games/{id}/lore/{entryId}: change an entry of the game's lorebook. DELETE: remove it. */
const gameLoreEntry = apiRoute({
  PUT: endpoint({
    access: "admin",
    body: gameLoreEntryInputSchema,
    handler: async ({ params, body }) => {
      const lorebook = await gameLorebook(recordId(params.id, "game"));
      return { entry: await updateLoreEntry(lorebook, recordId(params.entryId, "lorebook entry"), body) };
    },
  }),
  DELETE: endpoint({
    access: "admin",
    handler: async ({ params }) => {
      await deleteLoreEntry(await gameLorebook(recordId(params.id, "game")), recordId(params.entryId, "lorebook entry"));
      return { deleted: true };
    },
  }),
});

export const loader = gameLoreEntry;
export const action = gameLoreEntry;
