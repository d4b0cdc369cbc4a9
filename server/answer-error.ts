import type { NextFunction, Request, Response as ExpressResponse } from "express";
import { responseForError } from "#app/http/errors.server.ts";

/**
 * Answers an error through Express as the edge (app/http/) answers it everywhere else: the same
 * status, headers and `{ error, code }` body, for the few requests refused before React Router runs.
 */
export function answerError(error: unknown, request: Request, response: ExpressResponse, next: NextFunction): void {
  // genReqId (server/app.ts) gives every request a string id.
  const answer = responseForError(error, { logger: request.log, requestId: request.id as string });
  response.status(answer.status);
  answer.headers.forEach((value, name) => response.setHeader(name, value));
  answer.arrayBuffer().then((body) => response.send(Buffer.from(body)), next);
}
