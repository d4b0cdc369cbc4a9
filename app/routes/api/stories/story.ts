import { z } from "zod";
import { shownStoryMessages } from "#app/domain/game-messages.server.ts";
import { findStory, messageView, settleAbandonedTurn, storyView } from "#app/domain/stories.server.ts";
import { deleteStory, renameStory } from "#app/domain/story-library.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { storyIdOf } from "#app/http/story-input.ts";
import { MAX_TITLE_LENGTH, STORY_PAGE_EXCHANGES } from "#app/lib/story-view.ts";

/** A window of exchanges around one found by a search: a little before it, the rest after. */
const CONTEXT_BEFORE_MATCH = 5;

const position = z.coerce.number().int().min(1).max(10_000_000).optional();

/**
 * GET /api/stories/{id}: the story as the play screen shows it (its newest exchanges, revision,
 * whether a reply is being written) — what a tab reloads when another tab changed the story.
 * A page of exchanges instead, each by the index: ?before=N (older turns, on scroll up),
 * ?after=N (newer ones, on scroll down) or ?around=N (the story around a match of Find).
 * PATCH { title } renames it; DELETE deletes it with its messages (My Stories).
 */
const story = apiRoute({
  GET: endpoint({
    access: "user",
    query: z.object({ before: position, after: position, around: position }),
    handler: async ({ user, params, query }) => {
      const found = await settleAbandonedTurn(await findStory(user.id, storyIdOf(params)));
      const { before, after, around } = query;
      if (before === undefined && after === undefined && around === undefined) return storyView(found);
      const first = before !== undefined ? before - STORY_PAGE_EXCHANGES : after !== undefined ? after + 1 : (around ?? 1) - CONTEXT_BEFORE_MATCH;
      const last = before !== undefined ? before - 1 : Math.max(first, 1) + STORY_PAGE_EXCHANGES - 1;
      const messages = await shownStoryMessages(found, Math.max(1, first), Math.min(last, found.exchanges));
      return { exchanges: found.exchanges, revision: found.revision, busy: found.activeTurnId !== null, messages: messages.map(messageView) };
    },
  }),
  PATCH: endpoint({
    access: "user",
    body: z.object({
      title: z
        .string({ error: "Give the story a title (title)." })
        .trim()
        .min(1, "Give the story a title.")
        .max(MAX_TITLE_LENGTH, `Keep the title under ${MAX_TITLE_LENGTH} characters.`),
    }),
    handler: ({ user, params, body }) => renameStory(user.id, storyIdOf(params), body.title),
  }),
  DELETE: endpoint({
    access: "user",
    handler: async ({ user, params }) => {
      await deleteStory(user.id, storyIdOf(params));
      return { deleted: true };
    },
  }),
});

export const loader = story;
export const action = story;
