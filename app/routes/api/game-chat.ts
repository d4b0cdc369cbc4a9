import { z } from "zod";
import { isDatabaseBusy } from "#app/db/busy.server.ts";
import { requireUser } from "#app/domain/auth.server.ts";
import { InsufficientCreditsError } from "#app/domain/credits.server.ts";
import { loadStoryBrief } from "#app/domain/game-master/game-source.server.ts";
import { SSE_HEADERS, startTurn } from "#app/domain/game-master/turn.server.ts";
import { consumeRateLimit, tooManyRequests } from "#app/domain/rate-limit.server.ts";
import { env } from "#app/env.server.ts";
import { MAX_PLAYER_MESSAGE_LENGTH } from "#app/lib/constants.ts";
import { PLAY_TOASTS, RESEND_CONFIRMATION_PATH } from "#app/lib/play-texts.ts";
import { requestContext } from "#app/request-context.ts";
import type { Route } from "./+types/game-chat";

/**
 * POST /api/game-chat — docs/spec.md §7's game-chat function: { message, game_slug,
 * conversation_history } in, a server-sent event stream out. conversation_history is accepted
 * for compatibility and ignored: the stored story is the model's memory.
 */
const bodySchema = z.object({
  message: z
    .string({ error: "Write a message for the Game Master." })
    .trim()
    .min(1, "Write a message for the Game Master: an empty message is not sent.")
    .max(MAX_PLAYER_MESSAGE_LENGTH, `Your message is too long: keep it under ${MAX_PLAYER_MESSAGE_LENGTH.toLocaleString("en-US")} characters.`),
  game_slug: z.string({ error: "Say which game this message is for (game_slug)." }).trim().min(1, "Say which game this message is for (game_slug).").max(200),
  conversation_history: z.array(z.unknown()).optional(),
});

function jsonError(status: number, error: string, extra: Record<string, unknown> = {}, headers?: HeadersInit) {
  return Response.json({ error, ...extra }, { status, headers });
}

/** Seconds a client is asked to wait when the database has no connection free for a new turn. */
const BUSY_RETRY_AFTER_SECONDS = 5;

export async function action(args: Route.ActionArgs) {
  try {
    return await playTurn(args);
  } catch (error) {
    // Nothing was spent: a turn that cannot reach the database refunds before it fails.
    if (isDatabaseBusy(error)) {
      return jsonError(503, "The Game Master has more players than it can answer right now. Please try again in a few seconds.", {}, {
        "Retry-After": String(BUSY_RETRY_AFTER_SECONDS),
      });
    }
    throw error;
  }
}

async function playTurn({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return jsonError(405, "Use POST to talk to the Game Master.");
  const user = await requireUser(request);
  const config = env();

  if (config.REQUIRE_EMAIL_VERIFICATION && !user.emailVerified) {
    return jsonError(403, `Please confirm your email address before playing. Open the link we sent you, or ask for a new one at ${RESEND_CONFIRMATION_PATH}.`, {
      code: "email_not_confirmed",
      resendUrl: RESEND_CONFIRMATION_PATH,
    });
  }

  // Requiring JSON also keeps cross-site form posts out (they cannot send this content type).
  if (!request.headers.get("content-type")?.toLowerCase().startsWith("application/json")) {
    return jsonError(415, "Send the message as JSON (Content-Type: application/json).");
  }
  let raw: unknown;
  try {
    raw = await request.json();
  } catch {
    return jsonError(400, "The request body is not valid JSON.");
  }
  const parsed = bodySchema.safeParse(raw);
  if (!parsed.success) {
    return jsonError(400, parsed.error.issues[0]?.message ?? "The request body is not a valid chat message.");
  }

  // Independent reads, in parallel: each turn waits on the database several times already.
  const [limit, game] = await Promise.all([
    consumeRateLimit({ name: "chat", limit: config.CHAT_TURNS_PER_MINUTE, windowMs: 60_000 }, user.id),
    loadStoryBrief(parsed.data.game_slug),
  ]);
  if (!limit.allowed) {
    return tooManyRequests(limit, `You are sending messages faster than the Game Master can answer: at most ${config.CHAT_TURNS_PER_MINUTE} a minute. Please wait a moment.`);
  }
  if (!game) return jsonError(404, PLAY_TOASTS.gameNotFound.description);

  try {
    const stream = await startTurn({ userId: user.id, game, message: parsed.data.message, logger: context.get(requestContext).logger });
    return new Response(stream, { headers: SSE_HEADERS });
  } catch (error) {
    if (error instanceof InsufficientCreditsError) {
      return jsonError(402, PLAY_TOASTS.insufficientCredits.description, { code: "insufficient_credits" });
    }
    throw error;
  }
}

export function loader() {
  return jsonError(405, "Use POST to talk to the Game Master.");
}
