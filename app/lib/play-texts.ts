import { creditsInWords } from "./site.ts";

/**
 * The play screen's texts as docs/spec.md §2, §4 and §8 quote them (verbatim), written once for the page,
 * the API and the tests.
 */

export const DEFAULT_TAGLINE = "Your adventure awaits";

/** The synthetic first message of an empty story: shown, never stored, never sent to the model. */
export function welcomeMessage(title: string, tagline: string | null | undefined) {
  return `Welcome to ${title}! ${tagline?.trim() || DEFAULT_TAGLINE}\n\nI am your AI Game Master. Are you ready to begin your adventure?`;
}

export const PLAY_TEXTS = {
  thinking: "The Game Master is thinking...",
  inputPlaceholder: "Type your action or response...",
  loadingGame: "Loading game...",
  saving: "Saving...",
  /** The assistant message when a reply stream yields no text. */
  emptyReply: "I apologize, but I encountered an issue generating a response. Please try again.",
  /** The assistant message when a turn fails. */
  errorReply: "I apologize, but I encountered an error processing your message. Please try again.",
  /** In place of a reply whose server stopped mid-reply (another settled the turn: app/db/functions/finish_turn.sql). */
  interruptedReply: "This reply was lost: the server writing it stopped before it could finish. Your credit was refunded.",
  offlineBadge: "Offline storyteller",
  /** The suggested answer to the welcome's question: it begins the story (free). */
  beginChoice: "Yes, I am ready. Begin the adventure!",
} as const;

/** What picking a suggested choice does (it sends at once: docs/decisions/048) and costs, priced by turnCost. */
export function choiceCost(price: number) {
  return `Picking a choice sends it at once · ${price === 0 ? "free: this is the opening scene" : creditsInWords(price)}`;
}

/** Toasts: a title and a description each. */
export const PLAY_TOASTS = {
  insufficientCredits: {
    title: "Insufficient Credits",
    description: "You need at least 1 credit to use the AI Game Master. Purchase more credits to continue playing.",
  },
  sendFailed: { title: "Error", description: "Failed to send message. Please try again." },
  saveFailed: { title: "Error", description: "Failed to save messages. Please try again." },
  saved: { title: "Messages saved", description: "Your conversation has been saved successfully." },
  restarted: { title: "Game restarted" },
  authenticationRequired: { title: "Authentication required", description: "Please sign in to play games." },
  gameNotFound: { title: "Game not found", description: "The requested game could not be found." },
  /** The server refused the turn at admission (too many replies being written): nothing was spent. */
  gameMasterBusy: {
    title: "The Game Master is busy",
    description: "Many stories are being told right now. Please try again in a moment; your message is still in the box.",
  },
  /** A free opening refused to a player who cannot pay for it: the server's sentence says which allowance and what to do. */
  freeOpeningsUsed: {
    title: "No free openings left",
    description: "Your free story openings are used up. Buy credits to begin another story.",
  },
  emailNotConfirmed: {
    title: "Confirm your email",
    description: "Please confirm your email address before playing. We can send you a new confirmation link.",
  },
} as const;

/** Where an unconfirmed player asks for a new confirmation mail (the accounts pages provide it). */
export const RESEND_CONFIRMATION_PATH = "/auth/verify-email";

/** Why a story control was refused: said to the player as written. */
export const STORY_REFUSALS = {
  missing: "That story could not be found. It may have been deleted.",
  busy: "The Game Master is still writing a reply in this story. Wait for it to finish, then try again.",
  stale: "Your story changed in another tab or window. The page now shows the latest version; try again.",
  noVersion: "That reply has no such version.",
  lost: "This reply was lost when the server writing it stopped, so it can't be retried or continued. Send your message again, or undo it.",
  branched:
    "Other stories were branched from this one and share its beginning. Delete its branches first (Branches lists them), or start over in one of them.",
} as const;
