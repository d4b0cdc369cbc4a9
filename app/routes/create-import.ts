import { data, redirect } from "react-router";
import { CARD_LIMITS } from "#app/domain/character-cards.server.ts";
import { DomainError } from "#app/domain/errors.server.ts";
import { importCharacterCard } from "#app/domain/worlds.server.ts";
import { formRefusal } from "#app/http/errors.server.ts";
import { requireUser } from "#app/http/guards.server.ts";
import type { Route } from "./+types/create-import";

/** POST a character card file (field `card`): a new draft, then its page on /create. */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const file = (await request.formData()).get("card");
  if (!(file instanceof File) || file.size === 0) return data({ error: "Choose a character card file (PNG or JSON) to import." }, { status: 400 });
  if (file.size > CARD_LIMITS.pngBytes)
    return data({ error: `A character card file may be at most ${CARD_LIMITS.pngBytes / (1024 * 1024)} MB.` }, { status: 413 });
  try {
    const id = await importCharacterCard(user.id, Buffer.from(await file.arrayBuffer()));
    return redirect(`/create?world=${id}`);
  } catch (error) {
    // A malformed card (400) or one world too many today (429, with Retry-After).
    if (error instanceof DomainError) return formRefusal(error);
    throw error;
  }
}
