import { DomainError, NotFoundError } from "#app/domain/errors.server.ts";
import { appealAction } from "#app/domain/moderation.server.ts";
import { formRefusal } from "#app/http/errors.server.ts";
import { parseFormFields } from "#app/http/form-input.server.ts";
import { requireUser } from "#app/http/guards.server.ts";
import { appealSchema } from "#app/lib/moderation.ts";
import type { Route } from "./+types/appeals";

/** POST `{ actionId, text }`: the creator appeals a moderator's action on their world, once. */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  try {
    await appealAction(user.id, parseFormFields(await request.formData(), appealSchema));
    return { appealed: true as const };
  } catch (error) {
    if (error instanceof NotFoundError) throw new Response(error.message, { status: 404 });
    if (error instanceof DomainError) return formRefusal(error);
    throw error;
  }
}
