import { getPlayer, setPlayerDisabled } from "#app/domain/players-admin.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { playerStatusSchema } from "#app/lib/admin-players.ts";

/** GET: a player's credits, ledger, payments and stories. PATCH `{ disabled }`: disable or re-enable the account. Admins only. */
const player = apiRoute({
  GET: endpoint({ access: "admin", handler: async ({ params }) => ({ player: await getPlayer(params.id ?? "") }) }),
  PATCH: endpoint({
    access: "admin",
    body: playerStatusSchema,
    handler: async ({ params, body, user }) => ({ player: await setPlayerDisabled(params.id ?? "", body.disabled, user.id) }),
  }),
});

export const loader = player;
export const action = player;
