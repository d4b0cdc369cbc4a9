import { z } from "zod";
import { requireUser } from "#app/domain/auth.server.ts";
import { findPlayableGame } from "#app/domain/game-master/game-source.server.ts";
import { deleteGameMessages, listGameMessages, replaceGameMessages } from "#app/domain/game-messages.server.ts";
import { MAX_PLAYER_MESSAGE_LENGTH, MESSAGE_ROLES } from "#app/lib/constants.ts";
import { PLAY_TOASTS } from "#app/lib/play-texts.ts";
import type { Route } from "./+types/game-messages";

/**
 * The signed-in player's stored story in one game (docs/spec.md §7's game_messages calls):
 * GET ?game_slug= lists it, PUT replaces it (Save Chat), DELETE removes it (Start Over).
 */

/** Game Master replies are capped by AI_MAX_OUTPUT_TOKENS; this bounds what Save Chat accepts. */
const MAX_REPLY_LENGTH = 50_000;
const MAX_SAVED_MESSAGES = 5_000;

const savedMessage = z
  .object({
    role: z.enum(MESSAGE_ROLES),
    content: z.string().refine((content) => content.trim().length > 0, "A saved message cannot be empty."),
    created_at: z.iso.datetime({ offset: true }).optional(),
  })
  .refine((message) => message.content.length <= (message.role === "user" ? MAX_PLAYER_MESSAGE_LENGTH : MAX_REPLY_LENGTH), {
    message: "A saved message is too long.",
  });

const saveSchema = z.object({
  game_slug: z.string().trim().min(1, "Say which game to save (game_slug)."),
  messages: z.array(savedMessage).max(MAX_SAVED_MESSAGES, `A story can hold at most ${MAX_SAVED_MESSAGES} messages.`),
});

function jsonError(status: number, error: string) {
  return Response.json({ error }, { status });
}

async function requireGame(slug: string | null | undefined) {
  const game = slug ? await findPlayableGame(slug) : undefined;
  if (!game) throw jsonError(404, PLAY_TOASTS.gameNotFound.description);
  return game;
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const game = await requireGame(new URL(request.url).searchParams.get("game_slug"));
  const messages = await listGameMessages(user.id, game.slug);
  return Response.json({
    messages: messages.map((message) => ({
      id: message.id,
      role: message.role,
      content: message.content,
      created_at: message.createdAt.toISOString(),
    })),
  });
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);

  if (request.method === "DELETE") {
    const game = await requireGame(new URL(request.url).searchParams.get("game_slug"));
    const deleted = await deleteGameMessages(user.id, game.slug);
    return Response.json({ deleted });
  }

  if (request.method !== "PUT") return jsonError(405, "Use GET to read a story, PUT to save it, DELETE to start over.");
  if (!request.headers.get("content-type")?.toLowerCase().startsWith("application/json")) {
    return jsonError(415, "Send the story as JSON (Content-Type: application/json).");
  }
  let raw: unknown;
  try {
    raw = await request.json();
  } catch {
    return jsonError(400, "The request body is not valid JSON.");
  }
  const parsed = saveSchema.safeParse(raw);
  if (!parsed.success) return jsonError(400, parsed.error.issues[0]?.message ?? "The story to save is not valid.");
  const game = await requireGame(parsed.data.game_slug);
  await replaceGameMessages(
    user.id,
    game.slug,
    parsed.data.messages.map((message) => ({
      role: message.role,
      content: message.content,
      createdAt: message.created_at ? new Date(message.created_at) : undefined,
    })),
  );
  return Response.json({ saved: parsed.data.messages.length });
}
