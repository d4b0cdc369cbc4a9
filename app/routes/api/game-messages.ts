import { z } from "zod";
import { NotFoundError } from "#app/domain/errors.server.ts";
import { findPlayableGame } from "#app/domain/game-master/game-source.server.ts";
import { confirmSavedStory, GAME_MESSAGES_PAGE, storyMessagesPage } from "#app/domain/game-messages.server.ts";
import { clearStory, findLatestStory } from "#app/domain/stories.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { MAX_PLAYER_MESSAGE_LENGTH, MESSAGE_ROLES } from "#app/lib/constants.ts";
import { PLAY_TOASTS } from "#app/lib/play-texts.ts";

/**
 * The signed-in player's current story in one game (docs/spec.md §7, game_messages): GET
 * ?game_slug= lists it a page at a time (issue 31: a story has no end, an answer must), PUT confirms
 * it (Save Chat: the messages sent are the newest stored), DELETE removes its messages (Start Over).
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
  const game = await findPlayableGame(slug, userId);
  if (!game) throw new NotFoundError(PLAY_TOASTS.gameNotFound.description);
  return findLatestStory(userId, game.slug);
}

const gameMessages = apiRoute({
  GET: endpoint({
    access: "user",
    query: z.object({
      game_slug: gameSlug,
      limit: z.coerce
        .number({ error: '"limit" must be a whole number of exchanges.' })
        .int('"limit" must be a whole number of exchanges.')
        .min(1, '"limit" must be at least 1 exchange.')
        .max(GAME_MESSAGES_PAGE.max, `"limit" can be at most ${GAME_MESSAGES_PAGE.max} exchanges a page.`)
        .default(GAME_MESSAGES_PAGE.default),
      before: z.coerce
        .number({ error: '"before" must be the number of an exchange.' })
        .int('"before" must be the number of an exchange.')
        .min(1, '"before" must be the number of an exchange, from 1.')
        .max(10_000_000, '"before" must be the number of an exchange.')
        .optional(),
    }),
    /**
     * The newest `limit` exchanges before exchange `before` (the newest of the story without it),
     * oldest first; `next_page` is the address of the page before this one (null at the opening).
     */
    handler: async ({ user, query }) => {
      const story = await currentStory(user.id, query.game_slug);
      const page = story ? await storyMessagesPage(story, { before: query.before, count: query.limit }) : { messages: [], olderBefore: null };
      const { olderBefore } = page;
      return {
        messages: page.messages.map((message) => ({
          id: message.id,
          exchange: message.exchange,
          role: message.role,
          content: message.content,
          created_at: message.createdAt.toISOString(),
        })),
        next_before: olderBefore,
        next_page:
          olderBefore === null
            ? null
            : `/api/game-messages?${new URLSearchParams({ game_slug: query.game_slug, limit: String(query.limit), before: String(olderBefore) })}`,
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
