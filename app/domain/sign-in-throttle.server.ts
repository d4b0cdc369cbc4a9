import { createHash } from "node:crypto";
import type { RateLimitedError } from "./errors.server.ts";
import {
  consumeRateLimit,
  rateLimitRefusal,
  releaseRateLimit,
  resetRateLimit,
  type RateLimitResult,
  type RateLimitRule,
} from "./rate-limit.server.ts";

/**
 * Password guesses per account, from any address (docs/decisions/017). The per-address limit
 * (auth-rate-limit.server.ts) alone lets one account be guessed from many addresses at once.
 */
export const ACCOUNT_SIGN_IN_LIMIT: RateLimitRule = { name: "auth-sign-in-account", limit: 10, windowMs: 15 * 60_000 };

/** better-auth's password sign-in, below its base path. */
const PASSWORD_SIGN_IN_PATH = "/sign-in/email";

function accountLockedMessage(wait: string): string {
  return `Too many failed sign-in attempts for this account. Please wait ${wait} and try again.`;
}

/**
 * What an account's attempts are counted under: the email as better-auth looks the account up
 * (lower-cased; trimmed too, so padding cannot make a fresh counter — better-auth refuses such an
 * address anyway). Hashed, so the key has one length however long the address sent, and the
 * table does not keep the addresses people typed.
 */
export function accountSubject(email: string): string | undefined {
  const normalised = email.trim().toLowerCase();
  return normalised ? createHash("sha256").update(normalised).digest("hex") : undefined;
}

/**
 * The email a password sign-in names, read from a copy of the request the way better-auth will
 * read the original: JSON, or a form (better-auth accepts both, so a form must not slip past),
 * where the last of repeated fields wins. Anything else names no account: better-auth refuses it.
 */
export async function signInEmailOf(request: Request): Promise<string | undefined> {
  if (!request.body) return undefined;
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  let email: unknown;
  if (type === "application/json") {
    const body: unknown = await request
      .clone()
      .json()
      .catch(() => undefined);
    email = typeof body === "object" && body !== null && "email" in body ? body.email : undefined;
  } else if (type === "application/x-www-form-urlencoded") {
    email = new URLSearchParams(await request.clone().text()).getAll("email").at(-1);
  }
  return typeof email === "string" ? email : undefined;
}

/**
 * What better-auth's answer says about the password: wrong (its 401 for a wrong password, an
 * unknown email and an account without a password alike), right (signed in), or not checked
 * (input it refused, a failure of ours).
 */
export type PasswordVerdict = "wrong" | "right" | "unchecked";

export async function passwordVerdict(response: Response): Promise<PasswordVerdict> {
  if (response.ok) return "right";
  if (response.status !== 401) return "unchecked";
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  const code = typeof body === "object" && body !== null && "code" in body ? body.code : undefined;
  return code === "INVALID_EMAIL_OR_PASSWORD" ? "wrong" : "unchecked";
}

/** Over the account's limit: the refusal, with the wait until its window ends. */
export function accountLockedError(attempt: RateLimitResult): RateLimitedError | undefined {
  return rateLimitRefusal(attempt, accountLockedMessage);
}

/**
 * Answers a request to better-auth with `handle`; a password sign-in passes the account's limit first.
 *
 * Each attempt is counted before its password is checked and settled after: kept when the
 * password was wrong, taken back when it was not checked. Counting only after the answer would let
 * every guess sent at once, from as many addresses, through before the first failure is stored;
 * counted first, at most `limit` are ever in flight. Over the limit the password is not checked
 * at all, so even the right one is refused until the window ends — guessing gains nothing.
 *
 * The right password clears the account's count: the failures before it were its owner's typos
 * or guesses that missed, and keeping them would lock the owner out after a few typos spread over
 * the window. An attacker gains a fresh 10 guesses only each time the owner signs in.
 */
export async function limitAccountSignIn(request: Request, basePath: string, handle: () => Promise<Response>): Promise<Response> {
  const path = new URL(request.url).pathname.slice(basePath.length);
  if (request.method.toUpperCase() !== "POST" || path !== PASSWORD_SIGN_IN_PATH) return handle();
  const email = await signInEmailOf(request);
  const subject = email === undefined ? undefined : accountSubject(email);
  if (subject === undefined) return handle();

  const attempt = await consumeRateLimit(ACCOUNT_SIGN_IN_LIMIT, subject);
  const locked = accountLockedError(attempt);
  if (locked) throw locked;

  let response: Response;
  try {
    response = await handle();
  } catch (error) {
    await releaseRateLimit(ACCOUNT_SIGN_IN_LIMIT, subject, attempt.windowStartedAt);
    throw error;
  }
  const verdict = await passwordVerdict(response);
  if (verdict === "right") await resetRateLimit(ACCOUNT_SIGN_IN_LIMIT, subject);
  if (verdict === "unchecked") await releaseRateLimit(ACCOUNT_SIGN_IN_LIMIT, subject, attempt.windowStartedAt);
  return response;
}
