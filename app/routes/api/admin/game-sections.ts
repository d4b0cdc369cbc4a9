import { adminEndpoint, readInput } from "#app/domain/admin-api.server.ts";
import { saveSections } from "#app/domain/content-admin.server.ts";
import { sectionsInputSchema } from "#app/lib/admin-forms.ts";
import { requestContext } from "#app/request-context.ts";
import type { Route } from "./+types/game-sections";

/** PUT: the multi-section editor's save, one transaction. Admins only. */
function gameSections({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  return adminEndpoint(request, context.get(requestContext).logger, {
    PUT: async () => Response.json(await saveSections(await readInput(request, sectionsInputSchema))),
  });
}

export const loader = gameSections;
export const action = gameSections;
