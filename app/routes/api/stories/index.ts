import { z } from "zod";
import { NotFoundError } from "#app/domain/errors.server.ts";
import { findPlayableGame } from "#app/domain/game-master/game-source.server.ts";
import { beginNewStory, listStories } from "#app/domain/story-library.server.ts";
import { storyView } from "#app/domain/stories.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { PLAY_TOASTS } from "#app/lib/play-texts.ts";

/** GET /api/stories: the player's stories (My Stories). POST { game_slug }: New story in that game, the others kept. */
const storiesRoute = apiRoute({
  GET: endpoint({
    access: "user",
    handler: async ({ user }) => ({ stories: await listStories(user.id) }),
  }),
  POST: endpoint({
    access: "user",
    body: z.object({ game_slug: z.string({ error: "Say which game (game_slug)." }).trim().min(1, "Say which game (game_slug).").max(200) }),
    handler: async ({ user, body }) => {
      const game = await findPlayableGame(body.game_slug, user.id);
      if (!game) throw new NotFoundError(PLAY_TOASTS.gameNotFound.description);
      return storyView(await beginNewStory(user.id, game.slug), game.trackedStats);
    },
  }),
});

export const loader = storiesRoute;
export const action = storiesRoute;
