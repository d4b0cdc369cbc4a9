import { z } from "zod";
import { searchPlayers } from "#app/domain/players-admin.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";

/** GET: players whose email or name contains `?q=`, newest first. Admins only. */
const players = apiRoute({
  GET: endpoint({
    access: "admin",
    query: z.object({ q: z.string().max(200, "Search for at most 200 characters.").default("") }),
    handler: async ({ query }) => ({ players: await searchPlayers(query.q) }),
  }),
});

export const loader = players;
export const action = players;
