import { softDeleteGame, updateGame } from "#app/domain/game-admin.server.ts";
import { apiRoute, endpoint, recordId } from "#app/http/api-route.server.ts";
import { gameInputSchema } from "#app/lib/admin-forms.ts";

/** PUT: update a game. DELETE: the soft delete (is_active = false). Admins only. */
const game = apiRoute({
  PUT: endpoint({
    access: "admin",
    body: gameInputSchema,
    handler: async ({ params, body }) => ({ game: await updateGame(recordId(params.id, "game"), body) }),
  }),
  DELETE: endpoint({ access: "admin", handler: async ({ params }) => ({ game: await softDeleteGame(recordId(params.id, "game")) }) }),
});

export const loader = game;
export const action = game;
