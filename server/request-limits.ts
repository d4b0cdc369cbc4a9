import type { RequestHandler } from "express";
import { bodyTooLargeError, RequestError } from "#app/http/errors.server.ts";
import { maxRequestBodyBytes } from "#app/http/limits.ts";
import { answerError } from "./answer-error.ts";

/**
 * Refuses request bodies over their path's limit (maxRequestBodyBytes) before anything reads them.
 * React Router reads the raw request stream itself, so the declared length is what can be checked up front; a
 * body without one (chunked upload) is refused with 411 rather than read without a bound
 * (docs/decisions/003).
 */
export const limitRequestBody: RequestHandler = (request, response, next) => {
  const declared = request.headers["content-length"];
  const limit = maxRequestBodyBytes(request.path);
  if (declared === undefined && !request.headers["transfer-encoding"]) {
    next();
    return;
  }
  if (declared !== undefined && Number(declared) <= limit) {
    next();
    return;
  }
  const refusal =
    declared === undefined ? new RequestError("length_required", "Request bodies must declare their Content-Length.") : bodyTooLargeError(limit);
  answerError(refusal, request, response, next);
};
