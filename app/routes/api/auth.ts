import { handleAuthRequest } from "#app/domain/auth.server.ts";
import type { Route } from "./+types/auth";

/** better-auth's endpoints: sign-up, sign-in, Google callbacks, email confirmation, sessions. */
export function loader({ request }: Route.LoaderArgs) {
  return handleAuthRequest(request);
}

export function action({ request }: Route.ActionArgs) {
  return handleAuthRequest(request);
}
