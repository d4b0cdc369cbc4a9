import { z } from "zod";
import { takeTurn } from "#app/domain/game-master/turn.server.ts";
import { clientAddress } from "#app/domain/rate-limit.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { eventStreamResponse } from "#app/http/sse.ts";
import { checkRequest, playerMessage } from "#app/http/story-input.ts";

/**
 * POST /api/game-chat — the game-chat function of docs/spec.md §7: { message, game_slug,
 * conversation_history } in, a server-sent event stream out. conversation_history is accepted
 * for compatibility and ignored: the stored story is the model's memory.
 */
const bodySchema = z.object({
  message: playerMessage,
  game_slug: z
    .string({ error: "Say which game this message is for (game_slug)." })
    .trim()
    .min(1, "Say which game this message is for (game_slug).")
    .max(200),
  conversation_history: z.array(z.unknown()).optional(),
  /** Which of the player's stories in this game; without it, the one played most recently. */
  story_id: z.uuid({ error: "That is not a story (story_id)." }).optional(),
  /** Sent as a Check: the server rolls for the named stat (docs/decisions/061). */
  check: checkRequest.optional(),
});

const gameChat = apiRoute({
  POST: endpoint({
    access: "session",
    body: bodySchema,
    handler: async ({ request, user: caller, body, logger }) =>
      eventStreamResponse(
        await takeTurn({
          caller,
          gameSlug: body.game_slug,
          storyId: body.story_id,
          turn: { kind: "send", message: body.message, ...(body.check ? { check: body.check } : {}) },
          clientAddress: clientAddress(request),
          logger,
        }),
      ),
  }),
});

export const loader = gameChat;
export const action = gameChat;
