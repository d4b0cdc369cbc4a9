import { errorCodeOf, type ErrorCode } from "#app/lib/error-codes.ts";
import { PLAY_TOASTS } from "#app/lib/play-texts.ts";

/**
 * How the play screen meets a call the server refused before anything was spent (docs/spec.md §8):
 * by the refusal's code, never its sentence (app/lib/error-codes.ts). The reducer reads
 * `giveBack`; the client shows the notice and does the rest. Every call ends by showing the
 * stored story, so a story that changed or is busy elsewhere is on screen after the notice.
 */

/** A message for the player, as plain data: the provider turns it into a toast. */
export type PlayNotice =
  | { kind: "error"; title: string; description?: string }
  | { kind: "success"; title: string; description?: string }
  /** A call the player cannot pay for (docs/spec.md §8's Insufficient Credits): shown with a link to buy more. */
  | { kind: "needsCredits"; title: string; description: string };

export interface RefusalReaction {
  /** The player's text goes back to the composer, and the story on screen is as it was. */
  giveBack: boolean;
  notice: PlayNotice;
  /** The session ended: to the sign-in page, then back to this game. */
  signIn: boolean;
}

export const SEND_FAILED_NOTICE: PlayNotice = {
  kind: "error",
  title: PLAY_TOASTS.sendFailed.title,
  description: PLAY_TOASTS.sendFailed.description,
};

/** Refusals the server explains in its own sentence (what to wait for, what to fix). */
const EXPLAINED = new Set<ErrorCode>(["story_busy", "story_changed", "rate_limited", "invalid_input", "invalid_text"]);

export function refusalReaction(code: ErrorCode | undefined, sentence: string | undefined): RefusalReaction {
  const givenBack = (notice: PlayNotice, signIn = false): RefusalReaction => ({ giveBack: true, notice, signIn });
  switch (code) {
    case "insufficient_credits":
      return givenBack({ kind: "needsCredits", ...PLAY_TOASTS.insufficientCredits });
    case "free_openings_used":
      return givenBack({
        kind: "needsCredits",
        title: PLAY_TOASTS.freeOpeningsUsed.title,
        description: sentence ?? PLAY_TOASTS.freeOpeningsUsed.description,
      });
    case "unauthenticated":
      return givenBack({ kind: "error", ...PLAY_TOASTS.authenticationRequired }, true);
    case "busy":
      return givenBack({ kind: "error", ...PLAY_TOASTS.gameMasterBusy });
    case "email_not_confirmed":
      return givenBack({ kind: "error", title: PLAY_TOASTS.emailNotConfirmed.title, description: sentence ?? PLAY_TOASTS.sendFailed.description });
    default:
      if (code && EXPLAINED.has(code))
        return givenBack({ kind: "error", title: PLAY_TOASTS.sendFailed.title, description: sentence ?? PLAY_TOASTS.sendFailed.description });
      // Anything else is docs/spec.md §8's failed send, said in its words.
      return { giveBack: false, notice: SEND_FAILED_NOTICE, signIn: false };
  }
}

/** The refusal the server answered with: its code and its sentence. */
export async function refusalOf(response: Response): Promise<{ code?: ErrorCode; sentence?: string }> {
  try {
    const body = (await response.json()) as { error?: unknown };
    return { code: errorCodeOf(body), sentence: typeof body.error === "string" ? body.error : undefined };
  } catch {
    return {};
  }
}
