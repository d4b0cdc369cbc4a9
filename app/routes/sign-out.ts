import { redirect } from "react-router";
import { auth } from "#app/domain/auth.server.ts";
import type { Route } from "./+types/sign-out";

/** Signs out this browser's session; its live streams end with it (auth.server.ts), the player's other browsers stay signed in. */
export async function action({ request }: Route.ActionArgs) {
  const { headers } = await auth().api.signOut({ headers: request.headers, returnHeaders: true });
  return redirect("/", { headers });
}

export function loader() {
  return redirect("/");
}
