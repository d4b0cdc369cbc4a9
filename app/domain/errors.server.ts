import type { ErrorBody, ErrorCode } from "../lib/error-codes.ts";

/**
 * What the domain refuses, as typed errors with a code. Domain modules throw these and never build
 * HTTP responses: the HTTP edge (app/http/) maps each code to one status and one JSON shape.
 */
export class DomainError extends Error {
  override name = "DomainError";
  readonly code: ErrorCode;
  /** Per-field sentences, for forms. */
  readonly fieldErrors?: Record<string, string>;
  /** What a client needs besides the sentence to act on the refusal. */
  readonly details?: Pick<ErrorBody, "resendUrl">;

  constructor(
    code: ErrorCode,
    message: string,
    options: { fieldErrors?: Record<string, string>; details?: Pick<ErrorBody, "resendUrl">; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.fieldErrors = options.fieldErrors;
    this.details = options.details;
  }
}

/** The thing asked for does not exist, or is not the caller's (the two are not told apart). */
export class NotFoundError extends DomainError {
  override name = "NotFoundError";
  constructor(message: string) {
    super("not_found", message);
  }
}

/** The caller is not signed in: no session, or one that ended. */
export class UnauthenticatedError extends DomainError {
  override name = "UnauthenticatedError";
  constructor(message = "Please sign in to continue.") {
    super("unauthenticated", message);
  }
}

/** The caller is signed in but may not do this (not a moderator; the moderator who acted deciding its appeal). */
export class ForbiddenError extends DomainError {
  override name = "ForbiddenError";
  constructor(message: string) {
    super("forbidden", message);
  }
}

/** The input is well-formed but names something that cannot be used; `field` says which. */
export class InvalidInputError extends DomainError {
  override name = "InvalidInputError";
  constructor(message: string, field?: string) {
    super("invalid_input", message, field ? { fieldErrors: { [field]: message } } : {});
  }
}

/** The change collides with the current state (a slug taken, a story changed meanwhile). */
export class ConflictError extends DomainError {
  override name = "ConflictError";
  constructor(message: string, field?: string) {
    super("conflict", message, field ? { fieldErrors: { [field]: message } } : {});
  }
}

/** A refusal for now: the same request may succeed after retryAfterSeconds (answered with Retry-After). */
export class RetryLaterError extends DomainError {
  override name = "RetryLaterError";
  readonly retryAfterSeconds: number;
  constructor(code: Extract<ErrorCode, "rate_limited" | "busy">, message: string, retryAfterSeconds: number) {
    super(code, message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export class RateLimitedError extends RetryLaterError {
  override name = "RateLimitedError";
  constructor(message: string, retryAfterSeconds: number) {
    super("rate_limited", message, retryAfterSeconds);
  }
}

/** The server has as much work as it takes now. */
export class BusyError extends RetryLaterError {
  override name = "BusyError";
  constructor(message: string, retryAfterSeconds: number) {
    super("busy", message, retryAfterSeconds);
  }
}

/** A service the request needs is not there now (payments not configured, a provider down). */
export class UnavailableError extends DomainError {
  override name = "UnavailableError";
  constructor(code: Extract<ErrorCode, "payments_unavailable" | "provider_unavailable" | "mail_unavailable">, message: string, cause?: unknown) {
    super(code, message, { cause });
  }
}

/** Another game or guide already owns the slug (slugs are unique, deleted games included). */
export class SlugTakenError extends ConflictError {
  override name = "SlugTakenError";
  constructor(kind: "game" | "guide", slug: string, owner: { title: string; deleted?: boolean }) {
    const ownerName = owner.deleted ? `the deleted ${kind} "${owner.title}"` : `"${owner.title}"`;
    super(`The slug "${slug}" is already used by ${ownerName}. Choose another slug.`, "slug");
  }
}
