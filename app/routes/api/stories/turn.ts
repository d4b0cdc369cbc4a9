import { z } from "zod";
import { InvalidInputError, NotFoundError } from "#app/domain/errors.server.ts";
import type { Turn } from "#app/domain/game-master/begun-turn.server.ts";
import { takeTurn } from "#app/domain/game-master/turn.server.ts";
import { clientAddress } from "#app/domain/rate-limit.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { eventStreamResponse } from "#app/http/sse.ts";
import { playerMessage, seenExchange, storyIdOf } from "#app/http/story-input.ts";

/**
 * POST /api/stories/{id}/retry | continue | edit — the story controls that are turns, on the latest
 * exchange as the page saw it (`exchange`): a new version of the reply, the reply extended, or the
 * exchange replaced by an edited message (`message`). Each answers game-chat's event stream.
 */
const CONTROL_KINDS = ["retry", "continue", "edit"] as const;

const bodySchema = z.object({ exchange: seenExchange, message: playerMessage.optional(), check: z.unknown().optional() });

const storyTurn = apiRoute({
  POST: endpoint({
    access: "session",
    body: bodySchema,
    handler: async ({ request, user: caller, params, body, logger }) => {
      const kind = z.enum(CONTROL_KINDS).safeParse(params.kind);
      if (!kind.success) throw new NotFoundError("There is no such story control.");
      // A Retry, Continue or Edit keeps the exchange's roll: only a new message rolls (docs/decisions/061).
      if (body.check !== undefined) {
        throw new InvalidInputError(
          "A check is rolled only when a new message is sent; a Retry, Continue or Edit keeps the roll it had.",
          "check",
        );
      }
      let turn: Turn;
      if (kind.data === "edit") {
        if (!body.message) throw new InvalidInputError("Write the edited message for the Game Master.", "message");
        turn = { kind: "edit", exchange: body.exchange, message: body.message };
      } else {
        turn = { kind: kind.data, exchange: body.exchange };
      }
      return eventStreamResponse(await takeTurn({ caller, storyId: storyIdOf(params), turn, clientAddress: clientAddress(request), logger }));
    },
  }),
});

export const loader = storyTurn;
export const action = storyTurn;
