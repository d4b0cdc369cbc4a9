import type { Logger } from "pino";
import { data } from "react-router";
import { isDatabaseBusy, isDatabaseUnreachable } from "../db/busy.server.ts";
import { DomainError, RetryLaterError } from "../domain/errors.server.ts";
import type { ErrorBody, ErrorCode } from "../lib/error-codes.ts";
import { MAX_REQUEST_BODY_BYTES } from "./limits.ts";

/** One status per code: every endpoint answers the same refusal the same way. */
const STATUS: Record<ErrorCode, number> = {
  invalid_json: 400,
  invalid_text: 400,
  invalid_input: 400,
  unauthenticated: 401,
  insufficient_credits: 402,
  free_openings_used: 402,
  cross_site: 403,
  forbidden: 403,
  email_not_confirmed: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  story_busy: 409,
  story_changed: 409,
  reply_not_ratable: 409,
  payment_not_completed: 409,
  length_required: 411,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  provider_unavailable: 502,
  mail_unavailable: 502,
  payments_unavailable: 503,
  busy: 503,
};

function statusOf(code: ErrorCode): number {
  return STATUS[code];
}

/** Seconds a client is asked to wait when the database has no connection free. */
export const BUSY_RETRY_AFTER_SECONDS = 5;

/** Answers about one person are never kept by a browser or a shared cache. */
export const PRIVATE_NO_STORE = "private, no-store";

/** Thrown by the edge itself: the request is wrong before any domain code runs. */
export class RequestError extends Error {
  override name = "RequestError";
  readonly code: ErrorCode;
  readonly headers?: HeadersInit;
  readonly fieldErrors?: Record<string, string>;
  constructor(code: ErrorCode, message: string, options: { headers?: HeadersInit; fieldErrors?: Record<string, string> } = {}) {
    super(message);
    this.code = code;
    this.headers = options.headers;
    this.fieldErrors = options.fieldErrors;
  }
}

/** A page action's refusal, for its form to show: the domain error's sentence and code, with the code's status. */
export function formRefusal(error: DomainError) {
  const headers: HeadersInit = error instanceof RetryLaterError ? { "Retry-After": String(error.retryAfterSeconds) } : {};
  return data({ error: error.message, code: error.code }, { status: statusOf(error.code), headers });
}

/** The one JSON shape of a refusal: `{ error, code }` and what the code needs besides. */
function errorResponse(body: ErrorBody, headers?: HeadersInit): Response {
  const response = Response.json(body, { status: statusOf(body.code), headers });
  response.headers.set("Cache-Control", PRIVATE_NO_STORE);
  return response;
}

function busyResponse(unreachable: boolean): Response {
  return errorResponse(
    {
      error: unreachable
        ? "The site cannot reach its database for a moment. Please try again in a few seconds."
        : "The site has more players than it can answer right now. Please try again in a few seconds.",
      code: "busy",
      retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS,
    },
    { "Retry-After": String(BUSY_RETRY_AFTER_SECONDS) },
  );
}

/** A body over the limit, whether its declared length said so (server/request-limits.ts) or its bytes did. */
export function bodyTooLargeError(limit = MAX_REQUEST_BODY_BYTES): RequestError {
  const size = limit >= 1024 * 1024 ? `${limit / (1024 * 1024)} MB` : `${limit / 1024} KB`;
  return new RequestError("payload_too_large", `The request body is too large: the limit is ${size}.`);
}

/**
 * Any error as the answer a client gets: refusals with their code and status, a database without
 * a free connection as 503, and anything else as a 500 logged here, once, with its stack.
 */
export function responseForError(error: unknown, { logger, requestId }: { logger: Logger; requestId: string }): Response {
  if (error instanceof RequestError) {
    return errorResponse({ error: error.message, code: error.code, ...fields(error.fieldErrors) }, error.headers);
  }
  if (error instanceof RetryLaterError) {
    return errorResponse(
      { error: error.message, code: error.code, retryAfterSeconds: error.retryAfterSeconds },
      { "Retry-After": String(error.retryAfterSeconds) },
    );
  }
  if (error instanceof DomainError) {
    if (statusOf(error.code) >= 500) logger.error({ err: error.cause ?? error }, error.message);
    return errorResponse({ error: error.message, code: error.code, ...fields(error.fieldErrors), ...error.details });
  }
  if (isDatabaseBusy(error)) {
    const unreachable = isDatabaseUnreachable(error);
    logger.warn(unreachable ? "the database cannot be reached: answered 503" : "no database connection came free in time: answered 503");
    return busyResponse(unreachable);
  }
  logger.error({ err: error }, "request failed");
  return errorResponse({
    error: "Something went wrong on our side. Please try again in a moment.",
    code: "internal",
    requestId,
  });
}

function fields(fieldErrors: Record<string, string> | undefined) {
  return fieldErrors ? { fieldErrors } : {};
}
