import { useCallback, useEffect, useRef, useState } from "react";
import { Link, useNavigate, useRevalidator } from "react-router";
import { useStoryChanges } from "#app/components/live-credits.ts";
import { toast } from "#app/components/toast.ts";
import { readGameChatStream } from "#app/lib/game-chat-stream.ts";
import type { MessageRole } from "#app/lib/constants.ts";
import { errorCodeOf, type ErrorCode } from "#app/lib/error-codes.ts";
import { PLAY_TEXTS, PLAY_TOASTS } from "#app/lib/play-texts.ts";
import type { StoryMemoryView, StoryMessageView, StoryStateView, StoryView, TurnAnnouncement } from "#app/lib/story-view.ts";

/** A message on screen: a stored one (its view), or one that is only on this screen until the server has it. */
export interface ChatMessage extends Omit<StoryMessageView, "id" | "exchange"> {
  /** React's key: the stored id, or a local one until the server gives it. */
  key: string;
  /** The stored message's id; absent for what is only on this screen. */
  id?: number;
  exchange?: number;
  /** Shown but not part of the story (error notes, a message whose turn failed): never saved. */
  local?: boolean;
}

/** What became of a send: the composer gives the text back when the call never started. */
export type SendOutcome = "sent" | "returned";

/** A paid call on the latest exchange (a new turn is `send`). */
export type StoryControl = { kind: "retry" } | { kind: "continue" } | { kind: "edit"; message: string };

/** The most exchanges on screen at once: reading further back (or forward) lets the far end go, so the page stays light. */
const MAX_WINDOW_EXCHANGES = 120;

const RETURNED_TO_COMPOSER = new Set<ErrorCode>(["email_not_confirmed", "rate_limited", "invalid_input", "invalid_text"]);

let sequence = 0;
function localKey() {
  sequence += 1;
  return `local-${Date.now().toString(36)}-${sequence}`;
}

function now() {
  return new Date().toISOString();
}

function fromView(message: StoryMessageView): ChatMessage {
  return { ...message, key: String(message.id) };
}

function localMessage(role: MessageRole, content: string, extra: Partial<ChatMessage> = {}): ChatMessage {
  return { key: localKey(), role, content, status: "complete", version: 1, versions: 1, createdAt: now(), ...extra };
}

/** The refusal the server answered with: its code and its sentence. */
async function refusalOf(response: Response): Promise<{ code?: ErrorCode; message?: string }> {
  try {
    const body = (await response.json()) as { error?: unknown };
    return { code: errorCodeOf(body), message: typeof body.error === "string" ? body.error : undefined };
  } catch {
    return {};
  }
}

async function postJson(url: string, body: unknown) {
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify(body),
  });
}

/** Reads a reply's event stream into `onText` (the whole reply so far); resolves how it ended. */
async function followReply(
  body: ReadableStream<Uint8Array>,
  { onTurn, onText }: { onTurn?: (turn: TurnAnnouncement) => void; onText: (text: string) => void },
): Promise<{ ended: "done" | "error" | "cut"; text: string }> {
  let text = "";
  let frame = 0;
  const flush = () => {
    frame = 0;
    onText(text);
  };
  try {
    for await (const event of readGameChatStream(body)) {
      if (event.type === "turn") {
        onTurn?.(event.turn as TurnAnnouncement);
      } else if (event.type === "content") {
        text += event.text;
        if (!frame) frame = requestAnimationFrame(flush);
      } else {
        cancelAnimationFrame(frame);
        flush();
        return { ended: event.type, text };
      }
    }
  } catch {
    // The connection dropped: what arrived is shown, and the stored story tells the rest.
  }
  cancelAnimationFrame(frame);
  flush();
  return { ended: "cut", text };
}

/**
 * The play screen's story: the newest exchanges as stored, the reply being written (by this tab,
 * or elsewhere — a reload, another tab — which this tab attaches to), the story controls, and
 * docs/spec.md §8's reactions to every way a turn can fail. The server owns the story: after every
 * change, and whenever another tab or device changes it, the page reloads the stored window.
 */
export function useGameChat({ gameSlug, initialStory }: { gameSlug: string; initialStory: StoryView | null }) {
  const [storyId, setStoryId] = useState(initialStory?.id ?? null);
  const [messages, setMessages] = useState<ChatMessage[]>(() => initialStory?.messages.map(fromView) ?? []);
  const [exchanges, setExchanges] = useState(initialStory?.exchanges ?? 0);
  /** A call of this tab is running (its request or its stream). */
  const [pending, setPending] = useState(false);
  /** A reply is being written in this story by another tab or a page this one replaced. */
  const [busyElsewhere, setBusyElsewhere] = useState(initialStory?.busy ?? false);
  const [streamingKey, setStreamingKey] = useState<string | null>(null);
  const [memory, setMemory] = useState<StoryMemoryView>(initialStory?.memory ?? { pinnedFacts: "", authorNote: "", summary: "" });
  /** The stored story's living state; null until the story has one (the game's starting values apply). */
  const [storyState, setStoryState] = useState<StoryStateView | null>(initialStory?.state ?? null);
  /** The window on screen reaches the newest exchange (false after jumping to an old match). */
  const [atLatest, setAtLatest] = useState(true);
  const [loadingPage, setLoadingPage] = useState<"older" | "newer" | null>(null);
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  const mounted = useRef(true);
  const known = useRef({
    storyId: initialStory?.id ?? null,
    revision: initialStory?.revision ?? 0,
    pending: false,
    attached: false,
    atLatest: true,
    /** Bumped whenever the window is replaced (a jump, back to the latest): pages asked for before it are dropped. */
    window: 0,
  });

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const setBusy = (busy: boolean) => {
    known.current.pending = busy;
    setPending(busy);
  };

  /**
   * Shows the stored story's newest window, after the older pages already loaded; notes that were
   * only on this screen stay after it. A reader far back in the story keeps their place.
   */
  const showStory = useCallback((view: StoryView) => {
    known.current.storyId = view.id;
    known.current.revision = view.revision;
    setStoryId(view.id);
    setExchanges(view.exchanges);
    setBusyElsewhere(view.busy);
    setMemory(view.memory);
    setStoryState(view.state);
    if (!known.current.atLatest) return;
    const newest = view.messages[0]?.exchange ?? view.exchanges + 1;
    setMessages((list) => [
      ...list.filter((message) => !message.local && message.exchange !== undefined && message.exchange < newest),
      ...view.messages.map(fromView),
      ...list.filter((message) => message.local),
    ]);
  }, []);

  const reload = useCallback(async () => {
    const id = known.current.storyId;
    if (!id) return;
    try {
      const response = await fetch(`/api/stories/${id}`, { headers: { Accept: "application/json" } });
      if (!response.ok || !mounted.current) return;
      const view = (await response.json()) as StoryView;
      if (view.revision < known.current.revision && !known.current.pending) return;
      showStory(view);
    } catch {
      // Offline for a moment: the next change, or the tab becoming visible, tries again.
    }
  }, [showStory]);

  /** Follows a reply being written elsewhere (reload, Back, another tab) from what it has so far. */
  const attach = useCallback(async () => {
    const id = known.current.storyId;
    if (!id || known.current.pending || known.current.attached) return;
    known.current.attached = true;
    try {
      const response = await fetch(`/api/stories/${id}/reply`, { headers: { Accept: "text/event-stream" } });
      // 204: written on another instance; the story's change arrives on the live channel.
      if (response.status !== 200 || !response.body) return;
      let replyKey: string | null = null;
      let before = "";
      await followReply(response.body, {
        onTurn: (turn) => {
          replyKey = String(turn.replyId);
          before = turn.replySoFar;
          setStreamingKey(replyKey);
        },
        onText: (text) => {
          if (!mounted.current || !replyKey) return;
          const content = before + text;
          setMessages((list) => list.map((message) => (message.key === replyKey ? { ...message, content } : message)));
        },
      });
    } catch {
      // The live channel still brings the finished reply.
    } finally {
      known.current.attached = false;
      if (mounted.current) {
        setStreamingKey(null);
        void reload();
      }
    }
  }, [reload]);

  // A reply being written elsewhere (when this page loaded, or begun in another tab): attach to it.
  useEffect(() => {
    if (busyElsewhere && !pending) void attach();
  }, [attach, busyElsewhere, pending]);

  useStoryChanges((change) => {
    if (change.storyId !== known.current.storyId || change.revision <= known.current.revision || known.current.pending) return;
    void reload();
  });

  // Back/Forward restores a page from the browser's cache as it was; and a tab in the background may
  // have missed changes while its connection slept. Either way, catch up with the stored story.
  useEffect(() => {
    const catchUp = (event: Event) => {
      if (event.type === "pageshow" && !(event as PageTransitionEvent).persisted) return;
      if (document.visibilityState === "visible") void reload();
    };
    window.addEventListener("pageshow", catchUp);
    document.addEventListener("visibilitychange", catchUp);
    return () => {
      window.removeEventListener("pageshow", catchUp);
      document.removeEventListener("visibilitychange", catchUp);
    };
  }, [reload]);

  /**
   * A refusal before anything was spent, shown as docs/spec.md §8 says. Returns true when the
   * player's text should go back to the composer.
   */
  const refused = useCallback(
    async (response: Response): Promise<boolean> => {
      const refusal = await refusalOf(response);
      if (refusal.code === "insufficient_credits") {
        toast.error(PLAY_TOASTS.insufficientCredits.title, {
          description: (
            <>
              {PLAY_TOASTS.insufficientCredits.description}{" "}
              <Link
                to={`/credits?returnTo=${encodeURIComponent(`/play/${gameSlug}`)}`}
                className="font-semibold text-gold underline underline-offset-2"
              >
                Buy credits
              </Link>
            </>
          ),
        });
        return true;
      }
      if (refusal.code === "unauthenticated") {
        toast.error(PLAY_TOASTS.authenticationRequired.title, { description: PLAY_TOASTS.authenticationRequired.description });
        await navigate(`/auth?redirectTo=${encodeURIComponent(`/play/${gameSlug}`)}`);
        return true;
      }
      if (refusal.code === "story_busy" || refusal.code === "story_changed") {
        toast.error(PLAY_TOASTS.sendFailed.title, { description: refusal.message ?? PLAY_TOASTS.sendFailed.description });
        await reload();
        return true;
      }
      if (refusal.code === "busy") {
        toast.error(PLAY_TOASTS.gameMasterBusy.title, { description: PLAY_TOASTS.gameMasterBusy.description });
        return true;
      }
      if (refusal.code && RETURNED_TO_COMPOSER.has(refusal.code)) {
        toast.error(refusal.code === "email_not_confirmed" ? PLAY_TOASTS.emailNotConfirmed.title : PLAY_TOASTS.sendFailed.title, {
          description: refusal.message ?? PLAY_TOASTS.sendFailed.description,
        });
        return true;
      }
      // Anything else is docs/spec.md §8's failed send, said in its words.
      toast.error(PLAY_TOASTS.sendFailed.title, { description: PLAY_TOASTS.sendFailed.description });
      return false;
    },
    [gameSlug, navigate, reload],
  );

  /** After any call: the balance on screen and the story follow the server's. */
  const settle = useCallback(async () => {
    if (!mounted.current) return;
    setStreamingKey(null);
    void revalidator.revalidate();
    await reload();
    setBusy(false);
  }, [reload, revalidator]);

  const send = useCallback(
    async (text: string): Promise<SendOutcome> => {
      const message = text.trim();
      if (!message || known.current.pending) return "returned";
      const userMessage = localMessage("user", message);
      const reply = localMessage("assistant", "", { status: "streaming" });
      setMessages((list) => [...list.filter((entry) => !entry.local), userMessage, reply]);
      setBusy(true);
      setStreamingKey(reply.key);
      const withdraw = () => setMessages((list) => list.filter((entry) => entry.key !== userMessage.key && entry.key !== reply.key));
      const failed = (hadText: boolean) =>
        setMessages((list) => [
          ...list
            .filter((entry) => !(entry.key === reply.key && !hadText))
            // Without any reply text the call was undone: the player's message is not part of the story.
            .map((entry) => (entry.key === userMessage.key && !hadText ? { ...entry, local: true } : entry)),
          localMessage("assistant", PLAY_TEXTS.errorReply, { local: true }),
        ]);

      try {
        // The story on screen: the player may have several in this game.
        const storyChosen = known.current.storyId ? { story_id: known.current.storyId } : {};
        const response = await postJson("/api/game-chat", { message, game_slug: gameSlug, ...storyChosen });
        if (!response.ok || !response.body) {
          const giveBack = await refused(response);
          setBusy(false);
          setStreamingKey(null);
          if (giveBack) withdraw();
          else failed(false);
          return giveBack ? "returned" : "sent";
        }
        void revalidator.revalidate();
        const { ended, text: replyText } = await followReply(response.body, {
          onTurn: (turn) => {
            known.current.storyId = turn.storyId;
            setStoryId(turn.storyId);
          },
          onText: (content) => setMessages((list) => list.map((entry) => (entry.key === reply.key ? { ...entry, content } : entry))),
        });
        if (ended === "error") {
          toast.error(PLAY_TOASTS.sendFailed.title, { description: PLAY_TOASTS.sendFailed.description });
          failed(replyText.length > 0);
        } else if (ended === "done" && !replyText) {
          setMessages((list) =>
            list.map((entry) =>
              entry.key === reply.key
                ? { ...entry, content: PLAY_TEXTS.emptyReply, status: "complete", local: true }
                : entry.key === userMessage.key
                  ? { ...entry, local: true }
                  : entry,
            ),
          );
        }
      } catch {
        if (mounted.current) {
          toast.error(PLAY_TOASTS.sendFailed.title, { description: PLAY_TOASTS.sendFailed.description });
          failed(false);
        }
      } finally {
        await settle();
      }
      return "sent";
    },
    [gameSlug, refused, revalidator, settle],
  );

  /** Retry, Continue or Edit on the latest exchange. */
  const control = useCallback(
    async (request: StoryControl): Promise<SendOutcome> => {
      const id = known.current.storyId;
      if (!id || known.current.pending) return "returned";
      const latestExchange = exchanges;
      const reply = messages.findLast((message) => message.role === "assistant" && message.exchange === latestExchange && !message.local);
      const before = request.kind === "continue" ? (reply?.content ?? "") : "";
      setBusy(true);
      setMessages((list) =>
        list
          .filter((entry) => !entry.local)
          .map((entry) => {
            if (entry.exchange !== latestExchange) return entry;
            if (entry.role === "user") return request.kind === "edit" ? { ...entry, content: request.message } : entry;
            const versions = request.kind === "retry" ? entry.versions + 1 : entry.versions;
            return { ...entry, content: before, status: "streaming", version: request.kind === "retry" ? versions : entry.version, versions };
          }),
      );
      if (reply) setStreamingKey(reply.key);
      try {
        const body = request.kind === "edit" ? { exchange: latestExchange, message: request.message } : { exchange: latestExchange };
        const response = await postJson(`/api/stories/${id}/${request.kind}`, body);
        if (!response.ok || !response.body) {
          const giveBack = await refused(response);
          return giveBack ? "returned" : "sent";
        }
        void revalidator.revalidate();
        const { ended } = await followReply(response.body, {
          onText: (text) => {
            const content = before + text;
            setMessages((list) => list.map((entry) => (entry.key === reply?.key ? { ...entry, content } : entry)));
          },
        });
        if (ended === "error") toast.error(PLAY_TOASTS.sendFailed.title, { description: PLAY_TOASTS.sendFailed.description });
      } catch {
        if (mounted.current) toast.error(PLAY_TOASTS.sendFailed.title, { description: PLAY_TOASTS.sendFailed.description });
      } finally {
        await settle();
      }
      return "sent";
    },
    [exchanges, messages, refused, revalidator, settle],
  );

  /** Undo and version switching: free changes, answered with the new revision. */
  const change = useCallback(
    async (path: "undo" | "version", body: Record<string, number>) => {
      const id = known.current.storyId;
      if (!id || known.current.pending) return;
      setBusy(true);
      try {
        const response = await postJson(`/api/stories/${id}/${path}`, { exchange: exchanges, ...body });
        if (!response.ok) await refused(response);
      } catch {
        toast.error(PLAY_TOASTS.sendFailed.title, { description: PLAY_TOASTS.sendFailed.description });
      } finally {
        await reload();
        setBusy(false);
      }
    },
    [exchanges, refused, reload],
  );

  const undo = useCallback(() => change("undo", {}), [change]);
  const showVersion = useCallback((version: number) => change("version", { version }), [change]);

  const setWindowAtLatest = (value: boolean) => {
    known.current.atLatest = value;
    setAtLatest(value);
  };

  /** A page of exchanges by the index: before, after or around an exchange. */
  const fetchPage = useCallback(async (query: string): Promise<ChatMessage[] | undefined> => {
    const id = known.current.storyId;
    if (!id) return undefined;
    try {
      const response = await fetch(`/api/stories/${id}?${query}`, { headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error(`The story's page answered ${response.status}.`);
      const page = (await response.json()) as { exchanges: number; messages: StoryMessageView[] };
      setExchanges(page.exchanges);
      return page.messages.map(fromView);
    } catch {
      toast.error(PLAY_TOASTS.sendFailed.title, { description: "That part of the story could not be loaded. Please try again." });
      return undefined;
    }
  }, []);

  const firstLoaded = messages.find((message) => message.exchange !== undefined)?.exchange ?? exchanges + 1;
  const lastLoaded = messages.findLast((message) => message.exchange !== undefined)?.exchange ?? 0;

  /** Older turns, above the first one on screen (scrolling up). */
  const loadOlder = useCallback(async () => {
    if (firstLoaded <= 1 || loadingPage) return;
    setLoadingPage("older");
    const generation = known.current.window;
    const page = await fetchPage(`before=${firstLoaded}`);
    if (page && mounted.current && generation === known.current.window) {
      const newFirst = page[0]?.exchange ?? firstLoaded;
      const keepThrough = newFirst + MAX_WINDOW_EXCHANGES - 1;
      if (lastLoaded > keepThrough) setWindowAtLatest(false);
      setMessages((list) => [
        ...page.filter((message) => (message.exchange ?? 0) < firstLoaded),
        ...list.filter((message) => message.exchange === undefined || message.exchange <= keepThrough),
      ]);
    }
    setLoadingPage(null);
  }, [fetchPage, firstLoaded, lastLoaded, loadingPage]);

  /** Newer turns, below the last one on screen (after jumping back to an old match). */
  const loadNewer = useCallback(async () => {
    if (known.current.atLatest || loadingPage) return;
    setLoadingPage("newer");
    const generation = known.current.window;
    const page = await fetchPage(`after=${lastLoaded}`);
    if (page && mounted.current && generation === known.current.window) {
      const reached = page.at(-1)?.exchange ?? lastLoaded;
      const keepFrom = reached - MAX_WINDOW_EXCHANGES + 1;
      setMessages((list) => [
        ...list.filter((message) => (message.exchange ?? 0) >= keepFrom),
        ...page.filter((message) => (message.exchange ?? 0) > lastLoaded),
      ]);
      if (page.length === 0 || reached >= exchanges) setWindowAtLatest(true);
    }
    setLoadingPage(null);
  }, [exchanges, fetchPage, lastLoaded, loadingPage]);

  /** Find in story: the story around a match, read from there. */
  const jumpTo = useCallback(
    async (exchange: number) => {
      known.current.window += 1;
      const generation = known.current.window;
      const page = await fetchPage(`around=${exchange}`);
      if (!page || !mounted.current || generation !== known.current.window) return false;
      setWindowAtLatest((page.at(-1)?.exchange ?? 0) >= exchanges);
      setMessages(page);
      return true;
    },
    [exchanges, fetchPage],
  );

  /** Back to the newest turns, wherever the reader is. */
  const returnToLatest = useCallback(async () => {
    if (known.current.atLatest) return;
    known.current.window += 1;
    setWindowAtLatest(true);
    setMessages([]);
    await reload();
  }, [reload]);

  /** Start Over: the story's messages are gone; the page shows the welcome again. */
  const cleared = useCallback(() => {
    setMessages([]);
    setExchanges(0);
    setStoryState(null);
  }, []);

  return {
    storyId,
    memory,
    setMemory,
    storyState,
    messages,
    exchanges,
    hasOlder: firstLoaded > 1,
    atLatest,
    loadingPage,
    loadOlder,
    loadNewer,
    jumpTo,
    returnToLatest,
    pending: pending || busyElsewhere,
    streamingKey,
    send,
    control,
    undo,
    showVersion,
    cleared,
  };
}
