import { redirect } from "react-router";
import { remixWorld, viewerSeesMature } from "#app/domain/community.server.ts";
import { NotFoundError, RateLimitedError } from "#app/domain/errors.server.ts";
import { formRefusal } from "#app/http/errors.server.ts";
import { requireUser } from "#app/http/guards.server.ts";
import type { Route } from "./+types/remix";

/** POST: a Public world copied into the player's own draft, credited; then the draft on /create. */
export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  try {
    const id = await remixWorld(user.id, params.worldId, await viewerSeesMature(request));
    return redirect(`/create?world=${id}`);
  } catch (error) {
    if (error instanceof NotFoundError) throw new Response(error.message, { status: 404 });
    if (error instanceof RateLimitedError) return formRefusal(error);
    throw error;
  }
}
