import { liveReplyIn, watchLiveReply } from "#app/domain/game-master/live-replies.server.ts";
import { findStory } from "#app/domain/stories.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { eventStreamResponse } from "#app/http/sse.ts";
import { storyIdOf } from "#app/http/story-input.ts";

/**
 * GET /api/stories/{id}/reply: the reply being written in the story, as game-chat's event stream
 * — the text so far at once, then the rest as it comes. A page that comes back to a story mid-reply
 * (reload, Back, another tab) attaches here. 204 when no reply is being written on this instance:
 * the page then waits for the story's change to arrive on the live channel. 429 when the player
 * already follows as many replies as one may; the stream ends with the session it was asked with.
 */
const reply = apiRoute({
  GET: endpoint({
    access: "user",
    handler: async ({ user, params }) => {
      const story = await findStory(user.id, storyIdOf(params));
      const live = liveReplyIn(story.id);
      if (!live) return new Response(null, { status: 204 });
      return eventStreamResponse(await watchLiveReply(live, { userId: user.id, session: user.session }, "reply"));
    },
  }),
});

export const loader = reply;
export const action = reply;
