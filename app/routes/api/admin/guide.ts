import { deleteGuide, updateGuide } from "#app/domain/guide-admin.server.ts";
import { apiRoute, endpoint, recordId } from "#app/http/api-route.server.ts";
import { guideInputSchema } from "#app/lib/admin-forms.ts";

/** PUT: update a guide. DELETE: delete it. Admins only. */
const guide = apiRoute({
  PUT: endpoint({
    access: "admin",
    body: guideInputSchema,
    handler: async ({ params, body }) => ({ guide: await updateGuide(recordId(params.id, "guide"), body) }),
  }),
  DELETE: endpoint({ access: "admin", handler: async ({ params }) => ({ guide: await deleteGuide(recordId(params.id, "guide")) }) }),
});

export const loader = guide;
export const action = guide;
