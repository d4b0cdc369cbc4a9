import { handleAuthRequest } from "#app/http/auth-endpoint.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";

/** better-auth's endpoints: sign-up, sign-in, Google callbacks, email confirmation, sessions. */
const authEndpoint = endpoint({ access: "public", handler: ({ request }) => handleAuthRequest(request) });
const auth = apiRoute({ GET: authEndpoint, POST: authEndpoint });

export const loader = auth;
export const action = auth;
