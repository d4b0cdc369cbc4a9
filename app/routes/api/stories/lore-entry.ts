import { deleteLoreEntry, storyLorebook, updateLoreEntry } from "#app/domain/lorebook.server.ts";
import { apiRoute, endpoint, recordId } from "#app/http/api-route.server.ts";
import { storyIdOf } from "#app/http/story-input.ts";
import { loreEntryInputSchema } from "#app/lib/lorebook.ts";

/** PUT /api/stories/{id}/lore/{entryId}: change an entry of the story's lorebook. DELETE: remove it. */
const loreEntry = apiRoute({
  PUT: endpoint({
    access: "user",
    body: loreEntryInputSchema,
    handler: async ({ user, params, body }) => {
      const lorebook = await storyLorebook(user.id, storyIdOf(params));
      return { entry: await updateLoreEntry(lorebook, recordId(params.entryId, "lorebook entry"), body) };
    },
  }),
  DELETE: endpoint({
    access: "user",
    handler: async ({ user, params }) => {
      await deleteLoreEntry(await storyLorebook(user.id, storyIdOf(params)), recordId(params.entryId, "lorebook entry"));
      return { deleted: true };
    },
  }),
});

export const loader = loreEntry;
export const action = loreEntry;
