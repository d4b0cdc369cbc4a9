import { adminEndpoint, readInput, recordId } from "#app/domain/admin-api.server.ts";
import { softDeleteGame, updateGame } from "#app/domain/game-admin.server.ts";
import { gameInputSchema } from "#app/lib/admin-forms.ts";
import { requestContext } from "#app/request-context.ts";
import type { Route } from "./+types/game";

/** PUT: update a game. DELETE: the soft delete (is_active = false). Admins only. */
function game({ request, params, context }: Route.LoaderArgs | Route.ActionArgs) {
  return adminEndpoint(request, context.get(requestContext).logger, {
    PUT: async () => {
      const id = recordId(params.id, "game");
      return Response.json({ game: await updateGame(id, await readInput(request, gameInputSchema)) });
    },
    DELETE: async () => Response.json({ game: await softDeleteGame(recordId(params.id, "game")) }),
  });
}

export const loader = game;
export const action = game;
