import { adminEndpoint, readInput } from "#app/domain/admin-api.server.ts";
import { createGuide, listGuidesForAdmin } from "#app/domain/guide-admin.server.ts";
import { guideInputSchema } from "#app/lib/admin-forms.ts";
import { requestContext } from "#app/request-context.ts";
import type { Route } from "./+types/guides";

/** GET: every guide, newest first. POST: create a guide. Admins only. */
function guides({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  return adminEndpoint(request, context.get(requestContext).logger, {
    GET: async () => Response.json({ guides: await listGuidesForAdmin() }),
    POST: async () => {
      const guide = await createGuide(await readInput(request, guideInputSchema));
      return Response.json({ guide }, { status: 201 });
    },
  });
}

export const loader = guides;
export const action = guides;
