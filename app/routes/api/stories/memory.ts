import { z } from "zod";
import { saveStoryMemory } from "#app/domain/stories.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { storyIdOf } from "#app/http/story-input.ts";
import { MAX_MEMORY_LENGTH } from "#app/lib/story-view.ts";

const part = (name: string) =>
  z
    .string({ error: `Send the ${name} as text.` })
    .max(MAX_MEMORY_LENGTH, `Keep the ${name} under ${MAX_MEMORY_LENGTH.toLocaleString("en-US")} characters.`)
    .transform((text) => text.trim());

/** PUT /api/stories/{id}/memory { pinned_facts, author_note, summary }: Save memory (free). */
const memory = apiRoute({
  PUT: endpoint({
    access: "user",
    body: z.object({ pinned_facts: part("pinned facts"), author_note: part("author's note"), summary: part("story so far") }),
    handler: async ({ user, params, body }) => {
      const saved = await saveStoryMemory(user.id, storyIdOf(params), {
        pinnedFacts: body.pinned_facts,
        authorNote: body.author_note,
        summary: body.summary,
      });
      return { memory: saved };
    },
  }),
});

export const loader = memory;
export const action = memory;
