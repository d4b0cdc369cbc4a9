import { z } from "zod";
import { previewOpeningScene } from "#app/domain/game-master/preview.server.ts";
import { clientAddress } from "#app/domain/rate-limit.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { PREVIEW_ACTION_MAX_LENGTH } from "#app/lib/preview-chat.ts";

/**
 * POST /api/game-preview { game_slug, message } — the game page's preview: the game's real opening
 * scene answering the visitor's first action, told offline, free, without an account, stored
 * nowhere (issue 33).
 */
const bodySchema = z.object({
  game_slug: z.string({ error: "Say which game to preview (game_slug)." }).trim().min(1, "Say which game to preview (game_slug).").max(200),
  message: z
    .string({ error: "Write what you do first." })
    .trim()
    .min(1, "Write what you do first: an empty action is not sent.")
    .max(PREVIEW_ACTION_MAX_LENGTH, `Keep the preview's action under ${PREVIEW_ACTION_MAX_LENGTH} characters.`),
});

const gamePreview = apiRoute({
  POST: endpoint({
    access: "public",
    body: bodySchema,
    handler: ({ request, body }) => previewOpeningScene({ gameSlug: body.game_slug, action: body.message, visitor: clientAddress(request) }),
  }),
});

export const loader = gamePreview;
export const action = gamePreview;
