import { NotFoundError } from "#app/domain/errors.server.ts";
import { exportCharacterCard } from "#app/domain/worlds.server.ts";
import { PRIVATE_NO_STORE } from "#app/http/errors.server.ts";
import { requireUser } from "#app/http/guards.server.ts";
import type { Route } from "./+types/create-card";

/** GET the creator's world as a character card V3: `json`, or `png` (its cover with the card inside). */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  if (params.format !== "json" && params.format !== "png") throw new Response("Not Found", { status: 404 });
  try {
    const card = await exportCharacterCard(user.id, params.worldId, params.format);
    return new Response(new Uint8Array(card.body), {
      headers: {
        "Content-Type": card.type,
        "Content-Disposition": `attachment; filename="${card.fileName}"`,
        "Cache-Control": PRIVATE_NO_STORE,
      },
    });
  } catch (error) {
    if (error instanceof NotFoundError) throw new Response(error.message, { status: 404 });
    throw error;
  }
}
