import type { MiddlewareFunction } from "react-router";
import { env } from "../env.server.ts";
import { requestContext } from "../request-context.ts";
import { BUSY_RETRY_AFTER_SECONDS, PRIVATE_NO_STORE, RequestError, responseForError } from "./errors.server.ts";
import { carriesSession } from "./session-credentials.ts";
import { findUnsafeText } from "./text.ts";

/**
 * What every request meets before any route runs — pages, forms, the JSON API, better-auth's
 * endpoints and the webhook alike:
 * - text hygiene: a NUL byte or a broken UTF-16 character anywhere in the address or the body is
 *   refused with 400 before anything is spent or written (PostgreSQL cannot store NUL in text, and
 *   a half-written turn is worse than none);
 * - cross-site protection: a request carrying the site's cookies that changes something must come
 *   from the site's own pages;
 * - a database with no connection free makes the answer a 503 with Retry-After, on pages too.
 * Refusals are thrown: an API route answers them as they are, a page renders its error boundary.
 */
export const edgeMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const { logger, requestId, outcome, body } = context.get(requestContext);
  const refusal = refuseCrossSite(request) ?? (await refuseUnsafeText(request, body));
  if (refusal) throw responseForError(refusal, { logger, requestId });

  const response = await next();
  // A page rendered for someone signed in shows their balance at least: no shared cache may keep it.
  if (carriesSession(request.headers.get("cookie"), request.headers.get("authorization")) && !response.headers.has("Cache-Control")) {
    response.headers.set("Cache-Control", PRIVATE_NO_STORE);
  }
  // A page that answers its own 503 (SPEC's 'Failed to load games') also says when to come back.
  if (response.status === 503 && !response.headers.has("Retry-After")) response.headers.set("Retry-After", String(BUSY_RETRY_AFTER_SECONDS));
  if (!outcome.databaseBusy || response.status < 500) return response;
  const headers = new Headers(response.headers);
  headers.set("Retry-After", String(BUSY_RETRY_AFTER_SECONDS));
  headers.set("Cache-Control", "no-store");
  return new Response(response.body, { status: 503, statusText: "Service Unavailable", headers });
};

const CHANGES_STATE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Cookies go with every request a browser makes, whoever's page made it. A bearer token does not:
 * a page elsewhere cannot set one, so such calls are not someone else's doing.
 */
function refuseCrossSite(request: Request): RequestError | undefined {
  if (!CHANGES_STATE.has(request.method.toUpperCase())) return undefined;
  if (!request.headers.has("cookie")) return undefined;
  if (/^bearer\s/i.test(request.headers.get("authorization") ?? "")) return undefined;
  const origin = request.headers.get("origin");
  const sameSite = origin ? env().SITE_ORIGINS.includes(origin) : request.headers.get("sec-fetch-site") === "same-origin";
  if (sameSite) return undefined;
  return new RequestError("cross_site", "This request did not come from this site's own pages, so it was not carried out.");
}

/** `body`: the request's body as the server read it, if it did; else a copy of the request is read. */
async function refuseUnsafeText(request: Request, body: Uint8Array | undefined): Promise<RequestError | undefined> {
  const url = new URL(request.url);
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return new RequestError("invalid_text", "The address is not valid: it contains a broken percent-encoding.");
  }
  if (findUnsafeText(path) !== undefined) return unsafe("the address");
  const parameter = findUnsafeText(fields(url.searchParams));
  if (parameter !== undefined) return unsafe(`the query parameter "${parameter}"`);

  if (!request.body || !CHANGES_STATE.has(request.method.toUpperCase()) || isBinary(request)) return undefined;
  const inBody = findUnsafeText(await readBodyText(request, body));
  return inBody === undefined ? undefined : unsafe(inBody === "" ? "the request body" : `"${inBody}"`);
}

function unsafe(where: string) {
  return new RequestError(
    "invalid_text",
    `The text in ${where} contains a character that cannot be stored (a NUL byte or a broken Unicode character). Remove it and try again.`,
  );
}

/** A picture upload is bytes, not text: the route that takes it checks what it is (covers.server.ts). */
function isBinary(request: Request) {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  return type.startsWith("image/") || type === "application/octet-stream";
}

/** The body as the route will read it: JSON parsed, forms decoded; anything else as its text. */
async function readBodyText(request: Request, body: Uint8Array | undefined): Promise<unknown> {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (type === "multipart/form-data") {
    const form = await request
      .clone()
      .formData()
      .catch(() => undefined);
    return form ? fields([...form.entries()].map(([name, value]) => [name, typeof value === "string" ? value : value.name])) : undefined;
  }
  // Decoded as Request.text() decodes (UTF-8, a broken sequence as U+FFFD, a leading BOM dropped).
  const text = body ? new TextDecoder().decode(body) : await request.clone().text();
  if (type === "application/x-www-form-urlencoded") return fields(new URLSearchParams(text));
  if (type === "application/json" || type.endsWith("+json")) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // Not JSON at all: the route says so. Its raw text may still hold a NUL.
    }
  }
  return text;
}

/** Named values as one object to look through; a name given twice is checked with all its values. */
function fields(entries: Iterable<[string, string]>): Record<string, string> {
  const values: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of entries) values[name] = name in values ? `${values[name]}\n${value}` : value;
  return values;
}
