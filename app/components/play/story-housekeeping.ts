import { errorCodeOf } from "#app/lib/error-codes.ts";
import { PLAY_TOASTS } from "#app/lib/play-texts.ts";
import type { StoryMemoryView, StoryView } from "#app/lib/story-view.ts";
import type { StoryMatch } from "./story-client.ts";
import { refusalOf, type PlayNotice } from "./story-refusals.ts";
import { storyMessages } from "./story-selectors.ts";
import type { StoryStore } from "./story-store.ts";

/**
 * The play screen's requests that call no Game Master: Find in story, Save Chat, Start Over, New
 * story and Memory. Part of story-client.ts's client, through the connections it gives.
 */
export interface HousekeepingConnection {
  store: StoryStore;
  gameSlug: string;
  getJson: (path: string) => Promise<Response>;
  sendJson: (method: "POST" | "PUT" | "DELETE", path: string, body?: unknown) => Promise<Response>;
  notify: (notice: PlayNotice) => void;
  navigate: (path: string) => Promise<void> | void;
}

const SEARCH_FAILED = "The search did not work. Please try again.";

export function storyHousekeeping({ store, gameSlug, getJson, sendJson, notify, navigate }: HousekeepingConnection) {
  const { getState, dispatch } = store;
  const gameMessages = `/api/game-messages?game_slug=${encodeURIComponent(gameSlug)}`;
  return {
    async search(words: string): Promise<{ matches: StoryMatch[] } | { error: string }> {
      const id = getState().storyId;
      if (!id) return { error: SEARCH_FAILED };
      try {
        const response = await getJson(`/api/stories/${id}/search?q=${encodeURIComponent(words)}`);
        const body = (await response.json()) as { matches?: StoryMatch[]; error?: string };
        if (response.ok && body.matches) return { matches: body.matches };
        return { error: errorCodeOf(body) && body.error ? body.error : SEARCH_FAILED };
      } catch {
        return { error: SEARCH_FAILED };
      }
    },

    /** Save Chat: docs/spec.md §7's replace of the stored messages with the ones on screen. */
    async saveChat() {
      dispatch({ type: "saveStarted" });
      const messages = storyMessages(getState()).map(({ role, content, createdAt }) => ({ role, content, created_at: createdAt }));
      try {
        const response = await sendJson("PUT", gameMessages, { game_slug: gameSlug, messages });
        if (!response.ok) throw new Error(`Save Chat answered ${response.status}.`);
        notify({ kind: "success", ...PLAY_TOASTS.saved });
      } catch {
        notify({ kind: "error", ...PLAY_TOASTS.saveFailed });
      }
      dispatch({ type: "saveFinished" });
    },

    /** Start Over: the story's messages deleted; the welcome again. */
    async startOver() {
      dispatch({ type: "restartStarted" });
      try {
        const response = await sendJson("DELETE", gameMessages);
        if (!response.ok) throw new Error(`Start Over answered ${response.status}.`);
        dispatch({ type: "cleared" });
        notify({ kind: "success", ...PLAY_TOASTS.restarted });
      } catch {
        dispatch({ type: "restartFailed" });
        notify({ kind: "error", title: PLAY_TOASTS.sendFailed.title, description: "The story could not be reset. Please try again." });
      }
    },

    /** New story: another story in this game, on its own address; this one stays in My Stories. */
    async newStory() {
      dispatch({ type: "newStoryRequested" });
      let failure = "A new story could not be begun. Please try again.";
      try {
        const response = await sendJson("POST", "/api/stories", { game_slug: gameSlug });
        if (response.ok) {
          const created = (await response.json()) as StoryView;
          notify({ kind: "success", title: "A new story begins", description: "Your other story is kept in My Stories." });
          await navigate(`/play/${gameSlug}/${created.id}`);
          return;
        }
        // Refused (too many stories, say): the server's sentence says why.
        failure = (await refusalOf(response)).sentence ?? failure;
      } catch {
        // Offline for a moment: the sentence above.
      }
      dispatch({ type: "newStoryFailed" });
      notify({ kind: "error", title: PLAY_TOASTS.sendFailed.title, description: failure });
    },

    /** Memory: true once saved (the Game Master uses it from the next reply on). */
    async saveMemory(memory: StoryMemoryView): Promise<boolean> {
      const id = getState().storyId;
      if (!id) return false;
      try {
        const response = await sendJson("PUT", `/api/stories/${id}/memory`, {
          pinned_facts: memory.pinnedFacts,
          author_note: memory.authorNote,
          summary: memory.summary,
        });
        const answer = (await response.json().catch(() => ({}))) as { memory?: StoryMemoryView; error?: string };
        if (!response.ok || !answer.memory) throw new Error(answer.error ?? "The memory could not be saved. Please try again.");
        dispatch({ type: "memorySaved", memory: answer.memory });
        notify({ kind: "success", title: "Memory saved", description: "The Game Master uses it from the next reply on." });
        return true;
      } catch (error) {
        notify({ kind: "error", title: "Error", description: (error as Error).message });
        return false;
      }
    },
  };
}
