import type { Request, RequestHandler } from "express";
import { rateLimit, type AugmentedRequest } from "express-rate-limit";
import { carriesSignedSessionCookie } from "#app/domain/auth.server.ts";
import { formatWait } from "#app/domain/rate-limit.server.ts";

const WINDOW_MS = 60_000;

/**
 * A guard on this instance's CPU (docs/decisions/042): one signed-out address may have at most
 * `perMinute` pages rendered a minute; past it, 429 with Retry-After and a sentence. It goes just
 * before React Router, so what costs no render is never counted: static files, pages kept for
 * visitors (a hit costs what a static file does), /healthz, /readyz and /metrics. Neither are
 * players, told by a session cookie signed with the site's secret (a cookie anyone can make up
 * would make the guard optional), the JSON API, which has limits of its own, nor cover pictures.
 * Counted in this process's memory, not the database: a count read and written per page would
 * cost the database more than the render it guards.
 */
export function limitPageRenders(perMinute: number): RequestHandler {
  return rateLimit({
    windowMs: WINDOW_MS,
    limit: perMinute,
    // Headers on a counted page would be kept with it by the page cache and shown to every visitor.
    standardHeaders: false,
    legacyHeaders: false,
    skip: async (request) => !isPageRead(request) || (await carriesSignedSessionCookie(request.headers.cookie)),
    handler(request, response) {
      // express-rate-limit leaves its count on the request under `rateLimit`.
      const resetAt = (request as AugmentedRequest).rateLimit?.resetTime?.getTime() ?? Date.now() + WINDOW_MS;
      const retryAfterSeconds = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
      response
        .status(429)
        .set({ "Retry-After": String(retryAfterSeconds), "Cache-Control": "no-store" })
        .type("text/plain; charset=utf-8")
        .send(`Too many pages were asked for from your address in the last minute. Please try again in ${formatWait(retryAfterSeconds)}.\n`);
    },
  });
}

/** A page (or a client-side navigation's `.data`) read, not an API call or a picture. */
function isPageRead(request: Request) {
  return (request.method === "GET" || request.method === "HEAD") && !request.path.startsWith("/api/") && !request.path.startsWith("/covers/");
}
