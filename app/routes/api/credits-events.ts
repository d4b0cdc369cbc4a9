import { requireUser } from "#app/domain/auth.server.ts";
import { creditsEventStream } from "#app/domain/realtime.server.ts";
import { requestContext } from "#app/request-context.ts";
import type { Route } from "./+types/credits-events";

/** GET /api/credits/events: the signed-in player's balance as Server-Sent Events. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const { shutdownSignal } = context.get(requestContext);
  return creditsEventStream({ userId: user.id, signals: [request.signal, shutdownSignal] });
}
