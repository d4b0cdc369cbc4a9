import { redirect } from "react-router";
import { getSessionUser, type SessionUser } from "../domain/auth.server.ts";
import { loadGamePage, type GamePage } from "../domain/game-page.server.ts";
import { authPath } from "../lib/auth.ts";
import { PRIVATE_NO_STORE } from "./errors.server.ts";

/**
 * Guards for pages: they throw what the page answers instead, so a loader reads as its happy path.
 * (The JSON API has its own in api-route.server.ts: 401 and 403 in the error shape.)
 */

/** /auth, remembering the page the player asked for so they come back to it after signing in. */
export function signInPath(request: Request) {
  const url = new URL(request.url);
  // A client-side navigation loads `/page.data?_routes=…` (`/_root.data` for the home page);
  // the player wants the page itself back.
  const pathname = url.pathname === "/_root.data" ? "/" : url.pathname.replace(/\.data$/, "");
  url.searchParams.delete("_routes");
  return authPath(`${pathname}${url.search}`);
}

/** The signed-in user, or a redirect to /auth that comes back here afterwards. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (user) return user;
  throw redirect(signInPath(request));
}

/**
 * The signed-in admin: signed out, a redirect to /auth; signed in without the role, a 403 the
 * page renders as 'Access Denied'.
 */
export async function requireAdmin(request: Request): Promise<SessionUser> {
  const user = await requireUser(request);
  if (user.isAdmin) return user;
  throw new Response("Access Denied", { status: 403 });
}

/** A personal page (its `headers` export): never kept by a browser or a shared cache. */
export function personalPageHeaders(): Record<string, string> {
  return { "Cache-Control": PRIVATE_NO_STORE };
}

/** A game's page (its game and published content), or the redirect to /games the spec asks for. */
export async function requireGamePage(...args: Parameters<typeof loadGamePage>): Promise<GamePage> {
  const page = await loadGamePage(...args);
  if (!page) throw redirect("/games");
  return page;
}
