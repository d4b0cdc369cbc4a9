import { deleteContent, updateContent } from "#app/domain/content-admin.server.ts";
import { apiRoute, endpoint, recordId } from "#app/http/api-route.server.ts";
import { contentInputSchema } from "#app/lib/admin-forms.ts";

/** PUT: update a content record. DELETE: delete it. Admins only. */
const contentItem = apiRoute({
  PUT: endpoint({
    access: "admin",
    body: contentInputSchema,
    handler: async ({ params, body }) => ({ content: await updateContent(recordId(params.id, "content"), body) }),
  }),
  DELETE: endpoint({ access: "admin", handler: async ({ params }) => ({ content: await deleteContent(recordId(params.id, "content")) }) }),
});

export const loader = contentItem;
export const action = contentItem;
