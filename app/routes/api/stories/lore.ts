import { createLoreEntry, listLore, shownGameLore, storyLorebook } from "#app/domain/lorebook.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { storyIdOf } from "#app/http/story-input.ts";
import { loreEntryInputSchema } from "#app/lib/lorebook.ts";

/**
 * GET /api/stories/{id}/lore: the story's own lorebook, and the game's entries its admins show to
 * players (read-only; hidden ones are never sent). POST: add an entry to the story's. The story's
 * player only.
 */
const lore = apiRoute({
  GET: endpoint({
    access: "user",
    handler: async ({ user, params }) => {
      const lorebook = await storyLorebook(user.id, storyIdOf(params));
      const [entries, gameEntries] = await Promise.all([listLore(lorebook), shownGameLore(lorebook)]);
      return { entries, gameEntries };
    },
  }),
  POST: endpoint({
    access: "user",
    body: loreEntryInputSchema,
    handler: async ({ user, params, body }) => ({ entry: await createLoreEntry(await storyLorebook(user.id, storyIdOf(params)), body) }),
  }),
});

export const loader = lore;
export const action = lore;
