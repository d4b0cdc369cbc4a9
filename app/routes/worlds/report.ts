import { viewerSeesMature } from "#app/domain/community.server.ts";
import { DomainError, NotFoundError } from "#app/domain/errors.server.ts";
import { reportWorld } from "#app/domain/moderation.server.ts";
import { formRefusal } from "#app/http/errors.server.ts";
import { parseFormFields } from "#app/http/form-input.server.ts";
import { requireUser } from "#app/http/guards.server.ts";
import { reportSchema } from "#app/lib/moderation.ts";
import type { Route } from "./+types/report";

/** POST `{ reason, details }`: a player reports a published world they can see; 429 past the day's reports. */
export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  try {
    const report = parseFormFields(await request.formData(), reportSchema);
    await reportWorld(user.id, params.worldId, report, await viewerSeesMature(request));
    return { reported: true as const };
  } catch (error) {
    if (error instanceof NotFoundError) throw new Response(error.message, { status: 404 });
    if (error instanceof DomainError) return formRefusal(error);
    throw error;
  }
}
