/**
 * Every refusal the site's API answers with is `{ "error": "<a sentence for people>", "code": "<one
 * of these>" }`. Clients decide what to do by the code, never by the sentence, which may be reworded.
 */
export const ERROR_CODES = [
  // The request itself (the HTTP edge, app/http/).
  "method_not_allowed",
  "unauthenticated",
  "cross_site",
  "unsupported_media_type",
  "payload_too_large",
  "length_required",
  "invalid_json",
  "invalid_text",
  "invalid_input",
  // The domain's refusals (app/domain/errors.server.ts).
  "not_found",
  "forbidden",
  "email_not_confirmed",
  "conflict",
  "story_busy",
  "story_changed",
  /** A reply that cannot be rated: lost before any of it was written. */
  "reply_not_ratable",
  "insufficient_credits",
  /** A story's free opening (app/lib/turn-cost.ts) is used up, for today or until the email address is confirmed, and the player cannot pay. */
  "free_openings_used",
  "rate_limited",
  "payment_not_completed",
  "payments_unavailable",
  "provider_unavailable",
  "mail_unavailable",
  // The server's own state.
  "busy",
  "internal",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The JSON body of every refusal. `fieldErrors` names the fields of a form that were wrong. */
export interface ErrorBody {
  error: string;
  code: ErrorCode;
  fieldErrors?: Record<string, string>;
  /** Seconds to wait before trying again (also in the Retry-After header). */
  retryAfterSeconds?: number;
  /** Where an unconfirmed account asks for a new confirmation mail. */
  resendUrl?: string;
  /** Quote it to support: the server logged the failure under this id. */
  requestId?: string;
}

/** The code of a refusal the server answered with, if the body is one. */
export function errorCodeOf(body: unknown): ErrorCode | undefined {
  if (typeof body !== "object" || body === null || !("code" in body)) return undefined;
  const { code } = body;
  return (ERROR_CODES as readonly unknown[]).includes(code) ? (code as ErrorCode) : undefined;
}
