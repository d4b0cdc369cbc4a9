import { useCallback, useEffect, useRef, useState } from "react";
import { Link, useNavigate, useRevalidator } from "react-router";
import { toast } from "#app/components/toast.ts";
import { readGameChatStream } from "#app/lib/game-chat-stream.ts";
import type { MessageRole } from "#app/lib/constants.ts";
import { errorCodeOf, type ErrorCode } from "#app/lib/error-codes.ts";
import { PLAY_TEXTS, PLAY_TOASTS } from "#app/lib/play-texts.ts";

export interface ChatMessage {
  id: string;
  role: MessageRole;
  content: string;
  /** ISO time. */
  createdAt: string;
  /** Shown but not part of the story (error notes, a message whose turn failed): never saved. */
  local?: boolean;
}

/** What became of a send: the composer gives the text back when the turn never started. */
export type SendOutcome = "sent" | "returned";

const RETURNED_TO_COMPOSER = new Set<ErrorCode>(["email_not_confirmed", "rate_limited", "busy", "invalid_input", "invalid_text"]);

let sequence = 0;
function localId() {
  sequence += 1;
  return `local-${Date.now().toString(36)}-${sequence}`;
}

function now() {
  return new Date().toISOString();
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

/**
 * The play screen's conversation: the stored story, the reply being streamed, and docs/spec.md §8's
 * reactions to every way a turn can fail.
 */
export function useGameChat({ gameSlug, initialMessages }: { gameSlug: string; initialMessages: ChatMessage[] }) {
  const [messages, setMessages] = useState(initialMessages);
  const [pending, setPending] = useState(false);
  const [streamingId, setStreamingId] = useState<string | null>(null);
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const send = useCallback(
    async (text: string): Promise<SendOutcome> => {
      const message = text.trim();
      if (!message || pending) return "returned";
      const userMessage: ChatMessage = { id: localId(), role: "user", content: message, createdAt: now() };
      const replyId = localId();
      setMessages((list) => [...list, userMessage, { id: replyId, role: "assistant", content: "", createdAt: now() }]);
      setPending(true);
      setStreamingId(replyId);

      const withdraw = () => setMessages((list) => list.filter((entry) => entry.id !== userMessage.id && entry.id !== replyId));
      let reply = "";
      let frame = 0;
      const flush = () => {
        frame = 0;
        const content = reply;
        setMessages((list) => list.map((entry) => (entry.id === replyId ? { ...entry, content } : entry)));
      };
      const fail = () => {
        toast.error(PLAY_TOASTS.sendFailed.title, { description: PLAY_TOASTS.sendFailed.description });
        setMessages((list) => [
          ...list
            .filter((entry) => !(entry.id === replyId && !reply))
            // Without any reply text nothing was stored: the player's message is not part of the story.
            .map((entry) => (entry.id === userMessage.id && !reply ? { ...entry, local: true } : entry)),
          { id: localId(), role: "assistant", content: PLAY_TEXTS.errorReply, createdAt: now(), local: true },
        ]);
      };

      try {
        const response = await fetch("/api/game-chat", {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
          // The server reads the stored story; the request stays this small however long it grows.
          body: JSON.stringify({ message, game_slug: gameSlug }),
        });

        if (!response.ok || !response.body) {
          const refusal = await refusalOf(response);
          if (refusal.code === "insufficient_credits") {
            withdraw();
            toast.error(PLAY_TOASTS.insufficientCredits.title, {
              description: (
                <>
                  {PLAY_TOASTS.insufficientCredits.description}{" "}
                  <Link to="/credits" className="font-semibold text-gold underline underline-offset-2">
                    Buy credits
                  </Link>
                </>
              ),
            });
            return "returned";
          }
          if (refusal.code === "unauthenticated") {
            withdraw();
            toast.error(PLAY_TOASTS.authenticationRequired.title, { description: PLAY_TOASTS.authenticationRequired.description });
            await navigate(`/auth?redirectTo=${encodeURIComponent(`/play/${gameSlug}`)}`);
            return "returned";
          }
          // Refused before anything was spent: the player's text goes back to the composer.
          if (refusal.code && RETURNED_TO_COMPOSER.has(refusal.code)) {
            withdraw();
            toast.error(refusal.code === "email_not_confirmed" ? PLAY_TOASTS.emailNotConfirmed.title : PLAY_TOASTS.sendFailed.title, {
              description: refusal.message ?? PLAY_TOASTS.sendFailed.description,
            });
            return "returned";
          }
          fail();
          return "sent";
        }

        // The credit is spent: the balance on screen follows the server's.
        void revalidator.revalidate();
        let finished = false;
        let failed = false;
        for await (const event of readGameChatStream(response.body)) {
          if (event.type === "content") {
            reply += event.text;
            if (!frame) frame = requestAnimationFrame(flush);
          } else if (event.type === "error") {
            failed = true;
          } else {
            finished = true;
          }
        }
        cancelAnimationFrame(frame);
        flush();
        if (failed || !finished) fail();
        else if (!reply) {
          setMessages((list) =>
            list.map((entry) =>
              entry.id === replyId
                ? { ...entry, content: PLAY_TEXTS.emptyReply, local: true }
                : entry.id === userMessage.id
                  ? { ...entry, local: true }
                  : entry,
            ),
          );
        }
      } catch {
        cancelAnimationFrame(frame);
        if (reply) flush();
        if (mounted.current) fail();
      } finally {
        if (mounted.current) {
          setPending(false);
          setStreamingId(null);
          // A refund (failed turn) or the final balance.
          void revalidator.revalidate();
        }
      }
      return "sent";
    },
    [gameSlug, navigate, pending, revalidator],
  );

  return { messages, setMessages, pending, streamingId, send };
}
