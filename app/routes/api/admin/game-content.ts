import { adminEndpoint, readInput } from "#app/domain/admin-api.server.ts";
import { createContent, listContentForAdmin } from "#app/domain/content-admin.server.ts";
import { contentInputSchema } from "#app/lib/admin-forms.ts";
import { requestContext } from "#app/request-context.ts";
import type { Route } from "./+types/game-content";

/** GET: content of the active games (`?game=slug` for one). POST: create content. Admins only. */
function gameContent({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  return adminEndpoint(request, context.get(requestContext).logger, {
    GET: async () => {
      const game = new URL(request.url).searchParams.get("game");
      const content = await listContentForAdmin();
      return Response.json({ content: game ? content.filter((record) => record.gameSlug === game) : content });
    },
    POST: async () => {
      const content = await createContent(await readInput(request, contentInputSchema));
      return Response.json({ content }, { status: 201 });
    },
  });
}

export const loader = gameContent;
export const action = gameContent;
