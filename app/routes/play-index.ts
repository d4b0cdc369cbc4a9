import { redirect } from "react-router";

/** SPEC: the play screen without a slug goes to the games list. */
export function loader() {
  return redirect("/games");
}
