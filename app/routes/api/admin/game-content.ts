import { z } from "zod";
import { createContent, listContentForAdmin } from "#app/domain/content-admin.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { contentInputSchema } from "#app/lib/admin-forms.ts";

/** GET: content of the active games (`?game=slug` for one). POST: create content. Admins only. */
const gameContent = apiRoute({
  GET: endpoint({
    access: "admin",
    query: z.object({ game: z.string().max(200).optional() }),
    handler: async ({ query }) => {
      const content = await listContentForAdmin();
      return { content: query.game ? content.filter((record) => record.gameSlug === query.game) : content };
    },
  }),
  POST: endpoint({
    access: "admin",
    body: contentInputSchema,
    handler: async ({ body }) => Response.json({ content: await createContent(body) }, { status: 201 }),
  }),
});

export const loader = gameContent;
export const action = gameContent;
