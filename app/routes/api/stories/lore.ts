import { createLoreEntry, listLore, storyLorebook } from "#app/domain/lorebook.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { storyIdOf } from "#app/http/story-input.ts";
import { loreEntryInputSchema } from "#app/lib/lorebook.ts";

/** GET /api/stories/{id}/lore: the story's own lorebook. POST: add an entry. The story's player only. */
const lore = apiRoute({
  GET: endpoint({
    access: "user",
    handler: async ({ user, params }) => ({ entries: await listLore(await storyLorebook(user.id, storyIdOf(params))) }),
  }),
  POST: endpoint({
    access: "user",
    body: loreEntryInputSchema,
    handler: async ({ user, params, body }) => ({ entry: await createLoreEntry(await storyLorebook(user.id, storyIdOf(params)), body) }),
  }),
});

export const loader = lore;
export const action = lore;
