import { grantCredits } from "#app/domain/players-admin.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { creditGrantSchema } from "#app/lib/admin-players.ts";

/** POST `{ credits, note, requestId }`: grant credits (ledger admin_grant); the same requestId twice grants once. Admins only. */
const playerCredits = apiRoute({
  POST: endpoint({
    access: "admin",
    body: creditGrantSchema,
    handler: async ({ params, body, user }) => {
      const grant = await grantCredits({ playerId: params.id ?? "", ...body, adminId: user.id });
      return Response.json(grant, { status: grant.applied ? 201 : 200 });
    },
  }),
});

export const loader = playerCredits;
export const action = playerCredits;
