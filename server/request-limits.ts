import type { RequestHandler } from "express";
import type { ErrorBody } from "#app/lib/error-codes.ts";

/**
 * Refuses request bodies over `maxBytes` before anything reads them. React Router reads the raw
 * request stream itself, so the declared length is what can be checked up front; a body without
 * one (chunked upload) is refused with 411 rather than read without a bound.
 */
export function limitRequestBody(maxBytes: number): RequestHandler {
  return (request, response, next) => {
    const declared = request.headers["content-length"];
    if (declared !== undefined) {
      if (Number(declared) > maxBytes) {
        response.status(413).json({
          error: `The request body is too large: the limit is ${Math.round(maxBytes / 1024)} KB.`,
          code: "payload_too_large",
        } satisfies ErrorBody);
        return;
      }
      next();
      return;
    }
    if (request.headers["transfer-encoding"]) {
      response.status(411).json({ error: "Request bodies must declare their Content-Length.", code: "invalid_input" } satisfies ErrorBody);
      return;
    }
    next();
  };
}
