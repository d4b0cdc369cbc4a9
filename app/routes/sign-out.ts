import { redirect } from "react-router";
import { auth, getSessionUser } from "#app/domain/auth.server.ts";
import { closeCreditStreams } from "#app/domain/realtime.server.ts";
import type { Route } from "./+types/sign-out";

export async function action({ request }: Route.ActionArgs) {
  const user = await getSessionUser(request);
  const { headers } = await auth().api.signOut({ headers: request.headers, returnHeaders: true });
  // Live balance streams end with the session; the player's other signed-in tabs reconnect.
  if (user) await closeCreditStreams(user.id);
  return redirect("/", { headers });
}

export function loader() {
  return redirect("/");
}
