import { z } from "zod";
import { MAX_PASSWORD_LENGTH, MAX_USERNAME_LENGTH, MIN_PASSWORD_LENGTH, STARTER_CREDITS } from "./constants.ts";

/** The page that confirms an email address and re-sends the confirmation mail. */
export const VERIFY_EMAIL_PATH = "/auth/verify-email";
/** The page that asks for a password-reset link and, with the link's token, sets the new password. */
export const RESET_PASSWORD_PATH = "/auth/reset-password";

const REDIRECT_BASE = "http://same-site.invalid";

/**
 * Where to send a visitor after signing in: `target` when it is a path on this site (not /auth
 * itself, not an API endpoint), otherwise `fallback`. Off-site targets, protocol-relative
 * `//host` and backslash tricks browsers read as `//` are refused.
 */
export function safeRedirectPath(target: string | null | undefined, fallback = "/"): string {
  if (!target || !target.startsWith("/") || target.startsWith("//") || /[\\\s]/.test(target)) return fallback;
  let url: URL;
  try {
    url = new URL(target, REDIRECT_BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== REDIRECT_BASE) return fallback;
  if (url.pathname === "/auth" || url.pathname.startsWith("/api/")) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** /auth with the page to come back to (omitted when that is the home page). */
export function authPath(redirectTo: string, extra: Record<string, string> = {}) {
  const params = new URLSearchParams(extra);
  if (redirectTo !== "/") params.set("redirectTo", redirectTo);
  const query = params.toString();
  return query ? `/auth?${query}` : "/auth";
}

/**
 * Where a visitor who pressed Start Playing is sent: the Sign Up tab, saying why (the game by its
 * slug; /auth looks its title up, so no text of the address is ever shown), then back to the game.
 */
export function signUpToPlayPath(slug: string) {
  return authPath(`/play/${slug}`, { tab: "signup", reason: "play", game: slug });
}

/** The line /auth shows a visitor sent there by signUpToPlayPath. */
export function signUpToPlayReason(gameTitle: string) {
  return `Create a free account to play ${gameTitle} — you start with ${STARTER_CREDITS} free credits.`;
}

/** A name as it is kept: trimmed, each run of spaces one space. */
function normalizedName(name: string) {
  return name.trim().replace(/\s+/g, " ");
}

/** The name shown for a user: the username they chose (trimmed, bounded), else their email's local part. */
export function displayName(name: string | null | undefined, email: string): string {
  const chosen = normalizedName(name ?? "")
    .slice(0, MAX_USERNAME_LENGTH)
    .trim();
  return chosen || email.split("@")[0] || email;
}

/** The longest profile picture address kept: a URL, not a picture sent as data. */
export const MAX_PROFILE_IMAGE_LENGTH = 2048;

export const NAME_TOO_LONG_MESSAGE = `Your name is too long: at most ${MAX_USERNAME_LENGTH} characters.`;
export const PROFILE_IMAGE_MESSAGE = `A profile picture must be an https:// address or a path on this site, at most ${MAX_PROFILE_IMAGE_LENGTH.toLocaleString("en-US")} characters.`;

/** An https address (without a user or password in it), or a path on this site ("/…", not "//host"). */
function isProfileImageAddress(value: string): boolean {
  if (value.length > MAX_PROFILE_IMAGE_LENGTH || /[\\\s]/.test(value)) return false;
  if (value.startsWith("/")) return !value.startsWith("//");
  try {
    const url = new URL(value);
    return url.protocol === "https:" && !url.username && !url.password;
  } catch {
    return false;
  }
}

/**
 * What an account's owner sets on their profile, at sign-up and in every update after it: one rule
 * for both (issue 31). A name is text of at most MAX_USERNAME_LENGTH characters once trimmed; a
 * picture is an https address or a path on this site, or off (null or empty).
 */
export const profileFieldsSchema = z.object({
  name: z
    .string({ error: "Your name must be text." })
    .transform(normalizedName)
    .pipe(z.string().max(MAX_USERNAME_LENGTH, NAME_TOO_LONG_MESSAGE))
    .optional(),
  image: z
    .string({ error: PROFILE_IMAGE_MESSAGE })
    .nullable()
    .transform((image) => image || null)
    .refine((image) => image === null || isProfileImageAddress(image), PROFILE_IMAGE_MESSAGE)
    .optional(),
});

export type ProfileFields = z.output<typeof profileFieldsSchema>;

export const INVALID_CREDENTIALS_MESSAGE = "Invalid email or password";
export const EMAIL_TAKEN_MESSAGE = "An account with this email already exists";
export const PASSWORD_TOO_SHORT_MESSAGE = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
const INVALID_EMAIL_MESSAGE = "Please enter a valid email address";
/** A sign-in to an account an admin disabled. */
export const ACCOUNT_DISABLED_MESSAGE = "This account has been disabled. Contact support if you think this is a mistake.";

/** better-auth's error codes, as a person would say them. */
const AUTH_ERROR_MESSAGES: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: INVALID_CREDENTIALS_MESSAGE,
  USER_ALREADY_EXISTS: EMAIL_TAKEN_MESSAGE,
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: EMAIL_TAKEN_MESSAGE,
  PASSWORD_TOO_SHORT: PASSWORD_TOO_SHORT_MESSAGE,
  PASSWORD_TOO_LONG: `Password must be at most ${MAX_PASSWORD_LENGTH} characters`,
  INVALID_PASSWORD: INVALID_CREDENTIALS_MESSAGE,
  INVALID_EMAIL: INVALID_EMAIL_MESSAGE,
  ACCOUNT_DISABLED: ACCOUNT_DISABLED_MESSAGE,
  EMAIL_ALREADY_VERIFIED: "Your email address is already confirmed",
  EMAIL_MISMATCH: "That is not the email address of the account you are signed in with",
  INVALID_TOKEN: "This link has expired or was already used. Please ask for a new one.",
};

/** Input that fails better-auth's request schema ("[body.email] Invalid email address"), by field. */
const INVALID_FIELD_MESSAGES: Record<string, string> = {
  email: INVALID_EMAIL_MESSAGE,
  password: "Please enter your password",
};

/** The message to show for a better-auth error, or undefined when it has none of ours. */
export function humanAuthMessage(code: string | undefined, message?: string): string | undefined {
  if (!code) return undefined;
  if (code === "VALIDATION_ERROR") {
    const field = /^\[body\.(\w+)\]/.exec(message ?? "")?.[1];
    return (field && INVALID_FIELD_MESSAGES[field]) || "Please check what you entered and try again.";
  }
  return AUTH_ERROR_MESSAGES[code];
}

/** Why a Google sign-in came back with `?error=<code>` (better-auth's OAuth callback codes). */
export function googleSignInErrorMessage(code: string): string {
  switch (code) {
    case "account_not_linked":
      return "This email already has an account with a password. Sign in with your email and password and confirm your email address first; after that, Continue with Google signs you into the same account.";
    case "access_denied":
      return "Google sign-in was cancelled.";
    case "account_already_linked_to_different_user":
      return "This Google account is already linked to a different account.";
    case "email_not_found":
      return "Your Google account did not share an email address, which we need to create your account.";
    case "state_not_found":
    case "state_mismatch":
    case "invalid_callback_request":
    case "please_restart_the_process":
      return "The Google sign-in expired or was started in another tab. Please try again.";
    default:
      return "Google sign-in did not complete. Please try again.";
  }
}

/** Why a confirmation link came back with `?error=<code>`. */
export function verificationErrorMessage(code: string): string {
  return code === "TOKEN_EXPIRED"
    ? "This confirmation link has expired. Request a new one below."
    : "This confirmation link is not valid. It may have been replaced by a newer one; request a new one below.";
}
