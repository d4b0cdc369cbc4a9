import { creditsEventStream } from "#app/domain/realtime.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { eventStreamResponse } from "#app/http/sse.ts";
import { requestContext } from "#app/request-context.ts";

/** GET /api/credits/events: the signed-in player's balance as Server-Sent Events, for as long as the session lasts. */
const creditsEvents = apiRoute({
  GET: endpoint({
    access: "user",
    handler: async ({ request, context, user }) =>
      eventStreamResponse(
        await creditsEventStream({
          owner: { userId: user.id, session: user.session },
          signals: [request.signal, context.get(requestContext).shutdownSignal],
        }),
      ),
  }),
});

export const loader = creditsEvents;
export const action = creditsEvents;
