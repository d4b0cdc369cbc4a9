import { createGame, listGamesForAdmin } from "#app/domain/game-admin.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { gameInputSchema } from "#app/lib/admin-forms.ts";

/** GET: the active games in sort order. POST: create a game. Admins only. */
const games = apiRoute({
  GET: endpoint({ access: "admin", handler: async () => ({ games: await listGamesForAdmin() }) }),
  POST: endpoint({
    access: "admin",
    body: gameInputSchema,
    handler: async ({ body }) => Response.json({ game: await createGame(body) }, { status: 201 }),
  }),
});

export const loader = games;
export const action = games;
