import { createGuide, listGuidesForAdmin } from "#app/domain/guide-admin.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { guideInputSchema } from "#app/lib/admin-forms.ts";

/** GET: every guide, newest first. POST: create a guide. Admins only. */
const guides = apiRoute({
  GET: endpoint({ access: "admin", handler: async () => ({ guides: await listGuidesForAdmin() }) }),
  POST: endpoint({
    access: "admin",
    body: guideInputSchema,
    handler: async ({ body }) => Response.json({ guide: await createGuide(body) }, { status: 201 }),
  }),
});

export const loader = guides;
export const action = guides;
