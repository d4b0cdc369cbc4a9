import { adminEndpoint, readInput, recordId } from "#app/domain/admin-api.server.ts";
import { deleteGuide, updateGuide } from "#app/domain/guide-admin.server.ts";
import { guideInputSchema } from "#app/lib/admin-forms.ts";
import { requestContext } from "#app/request-context.ts";
import type { Route } from "./+types/guide";

/** PUT: update a guide. DELETE: delete it. Admins only. */
function guide({ request, params, context }: Route.LoaderArgs | Route.ActionArgs) {
  return adminEndpoint(request, context.get(requestContext).logger, {
    PUT: async () => {
      const id = recordId(params.id, "guide");
      return Response.json({ guide: await updateGuide(id, await readInput(request, guideInputSchema)) });
    },
    DELETE: async () => Response.json({ guide: await deleteGuide(recordId(params.id, "guide")) }),
  });
}

export const loader = guide;
export const action = guide;
