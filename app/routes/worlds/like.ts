import { redirect } from "react-router";
import { toggleLike, viewerSeesMature } from "#app/domain/community.server.ts";
import { NotFoundError } from "#app/domain/errors.server.ts";
import { requireUser } from "#app/http/guards.server.ts";
import type { Route } from "./+types/like";

/** POST: like a published world, or take the like back (one per player); then its page again. */
export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  try {
    await toggleLike(user.id, params.worldId, await viewerSeesMature(request));
  } catch (error) {
    if (error instanceof NotFoundError) throw new Response(error.message, { status: 404 });
    throw error;
  }
  return redirect(new URL(request.headers.get("Referer") ?? "/games", request.url).pathname);
}
