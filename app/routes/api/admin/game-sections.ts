import { saveSections } from "#app/domain/content-admin.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { sectionsInputSchema } from "#app/lib/admin-forms.ts";

/** PUT: the multi-section editor's save, one transaction. Admins only. */
const gameSections = apiRoute({
  PUT: endpoint({ access: "admin", body: sectionsInputSchema, handler: ({ body }) => saveSections(body) }),
});

export const loader = gameSections;
export const action = gameSections;
