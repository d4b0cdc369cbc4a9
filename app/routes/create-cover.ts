import { data, redirect } from "react-router";
import { CoverTooLargeError, removeGameCover, setGameCover } from "#app/domain/covers.server.ts";
import { DomainError, NotFoundError } from "#app/domain/errors.server.ts";
import { findOwnWorld } from "#app/domain/worlds.server.ts";
import { formRefusal } from "#app/http/errors.server.ts";
import { requireUser } from "#app/http/guards.server.ts";
import { COVER_MAX_BYTES } from "#app/lib/covers.ts";
import type { Route } from "./+types/create-cover";

/**
 * POST a picture (field `cover`) as the creator's world's cover, checked and re-encoded as an
 * admin's upload is (app/domain/covers.server.ts); or `intent=remove`: back to the generated art.
 * Then the world's page on /create.
 */
export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  const owner = { creatorId: user.id };
  try {
    const world = await findOwnWorld(user.id, params.worldId);
    // A body declared larger than a cover and its form was refused before it was read (app/http/limits.ts).
    const form = await request.formData();
    if (form.get("intent") === "remove") {
      await removeGameCover(world.id, owner);
    } else {
      const file = form.get("cover");
      if (!(file instanceof File) || file.size === 0) return data({ error: "Choose a picture (JPEG, PNG or WebP) to upload." }, { status: 400 });
      if (file.size > COVER_MAX_BYTES) throw new CoverTooLargeError();
      await setGameCover(world.id, Buffer.from(await file.arrayBuffer()), owner);
    }
    return redirect(`/create?world=${world.id}&saved=1`);
  } catch (error) {
    if (error instanceof NotFoundError) throw new Response(error.message, { status: 404 });
    // A picture that is not one, too small, too large or hostile: a sentence, and nothing stored.
    if (error instanceof DomainError) return formRefusal(error);
    throw error;
  }
}
