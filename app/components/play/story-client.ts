import { onStoryChange, type StoryChange } from "#app/components/live-credits.ts";
import { PLAY_TOASTS } from "#app/lib/play-texts.ts";
import type { StoryMessageView, StoryView } from "#app/lib/story-view.ts";
import { followReply } from "./follow-reply.ts";
import { storyHousekeeping } from "./story-housekeeping.ts";
import { storyLore } from "./story-lore.ts";
import { refusalOf, refusalReaction, SEND_FAILED_NOTICE, type PlayNotice } from "./story-refusals.ts";
import { loadedRange } from "./story-selectors.ts";
import type { PageDirection } from "./story-state.ts";
import type { StoryStore } from "./story-store.ts";

/**
 * The play screen's connections to the server: the calls and their reply streams, the stored
 * story, pages of it, the live channel (another tab's or device's changes) and a reply being
 * written elsewhere. It holds nothing but those connections: everything it learns it dispatches
 * to the store, and what it does next it reads back from the store's state.
 */

/** What the client asks of the page around it. */
export interface StoryEffects {
  notify(notice: PlayNotice): void;
  navigate(path: string): Promise<void> | void;
  /** The balance on screen follows the server's (the page's loaders run again). */
  refreshBalance(): void;
}

export interface StoryClientOptions {
  store: StoryStore;
  gameSlug: string;
  /** Where the API is: "" (this page's origin) in the browser, a local server's address in tests. */
  origin?: string;
  /** The live channel's story changes (live-credits.ts's, one EventSource per browser). */
  storyChanges?: (listener: (change: StoryChange) => void) => () => void;
}

export interface StoryMatch {
  exchange: number;
  role: "user" | "assistant";
  snippet: string;
}

const PAGE_FAILED: PlayNotice = {
  kind: "error",
  title: PLAY_TOASTS.sendFailed.title,
  description: "That part of the story could not be loaded. Please try again.",
};

export type StoryClient = ReturnType<typeof createStoryClient>;

/** Until the screen connects, nothing is said and nowhere to go. */
const UNCONNECTED: StoryEffects = { notify: () => undefined, navigate: () => undefined, refreshBalance: () => undefined };

export function createStoryClient({ store, gameSlug, origin = "", storyChanges = onStoryChange }: StoryClientOptions) {
  const { getState, dispatch } = store;
  /** Every connection of this screen, closed together when it goes (new ones if it comes back). */
  let connections = new AbortController();
  let effects = UNCONNECTED;
  let attaching = false;
  const returnTo = `/play/${gameSlug}`;

  const request = (path: string, init: RequestInit = {}) => fetch(`${origin}${path}`, { ...init, signal: connections.signal });
  const getJson = (path: string) => request(path, { headers: { Accept: "application/json" } });
  const sendJson = (method: "POST" | "PUT" | "DELETE", path: string, body?: unknown) =>
    request(path, {
      method,
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const closed = () => connections.signal.aborted;
  const notify = (notice: PlayNotice) => {
    if (!closed()) effects.notify(notice);
  };

  /** The stored story, shown (after a call; when another tab changed it; when the page comes back into view). */
  async function reload() {
    const id = getState().storyId;
    if (!id) return;
    try {
      const response = await getJson(`/api/stories/${id}`);
      if (response.ok) dispatch({ type: "storyLoaded", view: (await response.json()) as StoryView });
    } catch {
      // Offline for a moment: the next change, or the tab becoming visible, tries again.
    }
  }

  /** Shows a refusal as docs/spec.md §8 says, and hands its code to the reducer. */
  async function refused(callId: number, response: Response) {
    const { code, sentence } = await refusalOf(response);
    const reaction = refusalReaction(code, sentence);
    dispatch({ type: "refused", callId, code });
    notify(reaction.notice);
    if (reaction.signIn) await effects.navigate(`/auth?redirectTo=${encodeURIComponent(returnTo)}`);
  }

  /** After any call: the balance on screen and the story follow the server's. */
  async function settle(callId: number) {
    if (closed()) return;
    effects.refreshBalance();
    await reload();
    dispatch({ type: "settled", callId });
  }

  /** A paid call: its request, then its reply's stream into the store. */
  async function runCall(path: string, body: unknown) {
    const call = getState().call;
    if (!call) return;
    const callId = call.id;
    try {
      const response = await sendJson("POST", path, body);
      if (!response.ok || !response.body) {
        await refused(callId, response);
      } else {
        effects.refreshBalance();
        const ended = await followReply(response.body, {
          onTurn: (turn) => dispatch({ type: "announced", callId, turn }),
          onText: (text) => dispatch({ type: "token", callId, text }),
        });
        dispatch({ type: "replyEnded", callId, how: ended });
        if (ended === "error") notify(SEND_FAILED_NOTICE);
      }
    } catch {
      notify(SEND_FAILED_NOTICE);
      dispatch({ type: "callFailed", callId });
    }
    await settle(callId);
  }

  /** Undo and version switching: free changes, answered with the new revision. */
  async function change(path: "undo" | "version", body: Record<string, number>) {
    if (!dispatch({ type: "changeRequested", kind: path })) return;
    const { call, storyId, exchanges } = getState();
    if (!call || !storyId) return;
    try {
      const response = await sendJson("POST", `/api/stories/${storyId}/${path}`, { exchange: exchanges, ...body });
      if (!response.ok) await refused(call.id, response);
    } catch {
      notify(SEND_FAILED_NOTICE);
    }
    if (closed()) return;
    await reload();
    dispatch({ type: "settled", callId: call.id });
  }

  /** Follows a reply being written elsewhere (reload, Back, another tab) from what it has so far. */
  async function attach() {
    const id = getState().storyId;
    if (!id || attaching) return;
    attaching = true;
    try {
      const response = await request(`/api/stories/${id}/reply`, { headers: { Accept: "text/event-stream" } });
      // 204: written on another instance; the story's change arrives on the live channel.
      if (response.status === 200 && response.body) {
        await followReply(response.body, {
          onTurn: (turn) => dispatch({ type: "replyAttached", turn }),
          onText: (text) => dispatch({ type: "attachedToken", text }),
        });
      }
    } catch {
      // The live channel still brings the finished reply.
    }
    attaching = false;
    dispatch({ type: "replyDetached" });
    if (!closed()) await reload();
  }

  /** A page of exchanges by the index: before, after or around an exchange. */
  async function fetchPage(query: string): Promise<{ exchanges: number; messages: StoryMessageView[] } | undefined> {
    const id = getState().storyId;
    if (!id) return undefined;
    try {
      const response = await getJson(`/api/stories/${id}?${query}`);
      if (!response.ok) throw new Error(`The story's page answered ${response.status}.`);
      return (await response.json()) as { exchanges: number; messages: StoryMessageView[] };
    } catch {
      notify(PAGE_FAILED);
      return undefined;
    }
  }

  async function loadPage(direction: PageDirection) {
    if (!dispatch({ type: "pageRequested", direction })) return;
    const state = getState();
    const { first, last } = loadedRange(state);
    const page = await fetchPage(direction === "older" ? `before=${first}` : `after=${last}`);
    dispatch(
      page
        ? { type: "pageLoaded", direction, generation: state.windowGeneration, exchanges: page.exchanges, messages: page.messages }
        : { type: "pageFailed", direction },
    );
  }

  /** Back to the newest turns, wherever the reader is. */
  async function toLatest() {
    const wasAtLatest = getState().atLatest;
    dispatch({ type: "latestRequested" });
    if (!wasAtLatest) await reload();
  }

  return {
    reload,
    toLatest,
    loadOlder: () => loadPage("older"),
    loadNewer: () => loadPage("newer"),

    /** The composer's text (a new turn, or the Edit of the latest exchange), or `choice`, a suggested choice (a new turn). */
    async submit(choice?: string) {
      if (!getState().atLatest) await toLatest();
      if (!dispatch({ type: "submitted", choice, at: new Date().toISOString() })) return;
      const { call, storyId } = getState();
      if (call?.kind === "edit") return runCall(`/api/stories/${storyId ?? ""}/edit`, { exchange: call.exchange, message: call.message });
      // The story on screen: the player may have several in this game. The server owns its history.
      const check = call?.composed?.check;
      return runCall("/api/game-chat", {
        message: call?.message,
        game_slug: gameSlug,
        ...(storyId ? { story_id: storyId } : {}),
        ...(check ? { check } : {}),
      });
    },

    /** Retry, Continue, or Send again (a lost reply's message, as it was) on the latest exchange. */
    async control(kind: "retry" | "continue" | "sendAgain") {
      if (!dispatch({ type: "controlled", kind })) return;
      const { call, storyId } = getState();
      if (!call) return;
      const path = `/api/stories/${storyId ?? ""}/${call.kind}`;
      return runCall(path, call.kind === "edit" ? { exchange: call.exchange, message: call.message } : { exchange: call.exchange });
    },

    undo: () => change("undo", {}),
    showVersion: (version: number) => change("version", { version }),

    /** Find in story: the story around a match, read from there. False when it could not be shown. */
    async jumpTo(match: StoryMatch) {
      dispatch({ type: "jumpRequested" });
      const generation = getState().windowGeneration;
      const page = await fetchPage(`around=${match.exchange}`);
      if (!page) return false;
      const { exchange, role } = match;
      return dispatch({ type: "jumped", generation, match: { exchange, role }, exchanges: page.exchanges, messages: page.messages });
    },

    ...storyHousekeeping({ store, gameSlug, getJson, sendJson, notify, navigate: (path) => effects.navigate(path) }),
    ...storyLore({ store, getJson, sendJson }),

    /**
     * Opens the screen's standing connections: the live channel's story changes, and a reply
     * being written elsewhere whenever the story waits for one; `page` is how the client reaches
     * the page around it. Returns how to close them all.
     */
    connect(page: StoryEffects): () => void {
      connections = new AbortController();
      effects = page;
      const stopListening = storyChanges((change) => {
        // Another game's stories are never this screen's.
        if (change.gameSlug !== gameSlug) return;
        if (dispatch({ type: "storyChanged", storyId: change.storyId, revision: change.revision })) void reload();
      });
      // Waiting for a reply written elsewhere (when this page loaded, or begun in another tab): attach to it.
      let waiting = false;
      const attachWhenWaiting = () => {
        const { busyElsewhere, call } = getState();
        const nowWaiting = busyElsewhere && !call;
        if (nowWaiting && !waiting) void attach();
        waiting = nowWaiting;
      };
      const stopWatching = store.subscribe(attachWhenWaiting);
      attachWhenWaiting();
      return () => {
        connections.abort();
        stopListening();
        stopWatching();
      };
    },
  };
}
