import { z } from "zod";
import { exportStory } from "#app/domain/story-library.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { storyIdOf } from "#app/http/story-input.ts";
import { STORY_EXPORT_FORMATS } from "#app/lib/story-view.ts";

/** GET /api/stories/{id}/export?format=markdown|json: the whole story as a download, streamed. */
const exportRoute = apiRoute({
  GET: endpoint({
    access: "user",
    query: z.object({
      format: z
        .enum(
          STORY_EXPORT_FORMATS.map(({ format }) => format),
          { error: "Choose markdown or json (format)." },
        )
        .default("markdown"),
    }),
    handler: async ({ user, params, query }) => {
      const file = await exportStory(user.id, storyIdOf(params), query.format);
      return new Response(file.body, {
        headers: {
          "Content-Type": file.contentType,
          "Content-Disposition": `attachment; filename="${file.filename}"`,
        },
      });
    },
  }),
});

export const loader = exportRoute;
export const action = exportRoute;
