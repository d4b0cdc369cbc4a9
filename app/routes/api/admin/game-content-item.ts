import { adminEndpoint, readInput, recordId } from "#app/domain/admin-api.server.ts";
import { deleteContent, updateContent } from "#app/domain/content-admin.server.ts";
import { contentInputSchema } from "#app/lib/admin-forms.ts";
import { requestContext } from "#app/request-context.ts";
import type { Route } from "./+types/game-content-item";

/** PUT: update a content record. DELETE: delete it. Admins only. */
function contentItem({ request, params, context }: Route.LoaderArgs | Route.ActionArgs) {
  return adminEndpoint(request, context.get(requestContext).logger, {
    PUT: async () => {
      const id = recordId(params.id, "content");
      return Response.json({ content: await updateContent(id, await readInput(request, contentInputSchema)) });
    },
    DELETE: async () => Response.json({ content: await deleteContent(recordId(params.id, "content")) }),
  });
}

export const loader = contentItem;
export const action = contentItem;
