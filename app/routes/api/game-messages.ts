import { z } from "zod";
import { NotFoundError } from "#app/domain/errors.server.ts";
import { findPlayableGame } from "#app/domain/game-master/game-source.server.ts";
import { confirmSavedStory, listStoryMessages } from "#app/domain/game-messages.server.ts";
import { clearStory, findLatestStory } from "#app/domain/stories.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { MAX_PLAYER_MESSAGE_LENGTH, MESSAGE_ROLES } from "#app/lib/constants.ts";
import { PLAY_TOASTS } from "#app/lib/play-texts.ts";

/**
 * The signed-in player's current story in one game (docs/spec.md §7, game_messages): GET
 * ?game_slug= lists it, PUT confirms it (Save Chat: the messages sent are the newest stored),
 * DELETE removes its messages (Start Over).
 */

/** Game Master replies are capped by AI_MAX_OUTPUT_TOKENS; this bounds what Save Chat accepts. */
const MAX_REPLY_LENGTH = 50_000;
const MAX_SAVED_MESSAGES = 5_000;

const gameSlug = z.string({ error: "Say which game (game_slug)." }).trim().min(1, "Say which game (game_slug).").max(200);

const shownMessage = z
  .object({
    role: z.enum(MESSAGE_ROLES),
    content: z.string(),
    created_at: z.string().max(64).optional(),
  })
  .refine((message) => message.content.length <= (message.role === "user" ? MAX_PLAYER_MESSAGE_LENGTH : MAX_REPLY_LENGTH), {
    message: "A saved message is too long.",
  });

const saveSchema = z.object({
  game_slug: gameSlug,
  messages: z.array(shownMessage).max(MAX_SAVED_MESSAGES, `A story can hold at most ${MAX_SAVED_MESSAGES} messages.`),
});

/** The player's current story in a playable game, if they have begun one. */
async function currentStory(userId: string, slug: string) {
  const game = await findPlayableGame(slug);
  if (!game) throw new NotFoundError(PLAY_TOASTS.gameNotFound.description);
  return findLatestStory(userId, game.slug);
}

const gameMessages = apiRoute({
  GET: endpoint({
    access: "user",
    query: z.object({ game_slug: gameSlug }),
    handler: async ({ user, query }) => {
      const story = await currentStory(user.id, query.game_slug);
      const messages = story ? await listStoryMessages(story.id) : [];
      return {
        messages: messages.map((message) => ({
          id: message.id,
          role: message.role,
          content: message.content,
          created_at: message.createdAt.toISOString(),
        })),
      };
    },
  }),
  PUT: endpoint({
    access: "user",
    body: saveSchema,
    handler: async ({ user, body }) => {
      const story = await currentStory(user.id, body.game_slug);
      return { saved: await confirmSavedStory(story?.id, body.messages) };
    },
  }),
  DELETE: endpoint({
    access: "user",
    query: z.object({ game_slug: gameSlug }),
    handler: async ({ user, query }) => {
      const story = await currentStory(user.id, query.game_slug);
      return { deleted: story ? (await clearStory(user.id, story.id)).deleted : 0 };
    },
  }),
});

export const loader = gameMessages;
export const action = gameMessages;
