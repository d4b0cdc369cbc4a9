import { adminEndpoint, readInput } from "#app/domain/admin-api.server.ts";
import { createGame, listGamesForAdmin } from "#app/domain/game-admin.server.ts";
import { gameInputSchema } from "#app/lib/admin-forms.ts";
import { requestContext } from "#app/request-context.ts";
import type { Route } from "./+types/games";

/** GET: the active games in sort order. POST: create a game. Admins only. */
function games({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  return adminEndpoint(request, context.get(requestContext).logger, {
    GET: async () => Response.json({ games: await listGamesForAdmin() }),
    POST: async () => {
      const game = await createGame(await readInput(request, gameInputSchema));
      return Response.json({ game }, { status: 201 });
    },
  });
}

export const loader = games;
export const action = games;
