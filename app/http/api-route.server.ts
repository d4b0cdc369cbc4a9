import type { Logger } from "pino";
import type { RouterContextProvider } from "react-router";
import { z } from "zod";
import { getSessionCaller, getSessionUser, type SessionCaller, type SessionUser } from "../domain/auth.server.ts";
import { NotFoundError, UnauthenticatedError } from "../domain/errors.server.ts";
import { publicContentVersionWatch } from "../domain/public-content-version.server.ts";
import { fieldErrorsOf } from "../lib/admin-forms.ts";
import { requestContext } from "../request-context.ts";
import { bodyTooLargeError, PRIVATE_NO_STORE, RequestError, responseForError } from "./errors.server.ts";
import { MAX_REQUEST_BODY_BYTES } from "./limits.ts";
import { describeIssue } from "./validation.ts";

/**
 * The one way into every JSON endpoint. In order: the method (405 with Allow), who is asking (401,
 * 403 for admin endpoints), the body (415 unless JSON, 413 over the limit, 400 unless it parses and
 * fits its schema, naming the field), then the handler. The handler's domain errors, a busy
 * database and unexpected failures become the one error shape (errors.server.ts). Text hygiene and
 * cross-site protection run before this, for every route (edge.server.ts).
 */

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * public: anyone, the session is not read; user: signed in (cookie or bearer); admin: an admin;
 * session: signed in, the session looked up by the handler in its own first statement (a Game
 * Master call), so the caller is a SessionCaller.
 */
export type Access = "public" | "user" | "admin" | "session";

type UserFor<A extends Access> = A extends "public" ? null : A extends "session" ? SessionCaller : SessionUser;
type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

interface ApiArgs {
  request: Request;
  params: Record<string, string | undefined>;
  context: Readonly<RouterContextProvider>;
}

interface EndpointArgs<A extends Access, Body, Query> extends ApiArgs {
  user: UserFor<A>;
  body: Body;
  query: Query;
  logger: Logger;
}

/** A handler answers a Response, or a value sent as JSON with status 200. */
type Answer = Response | object;

interface EndpointSpec<A extends Access, BodySchema extends z.ZodType | undefined, QuerySchema extends z.ZodType | undefined> {
  access: A;
  /** What a signed-out caller is told (401), where the endpoint has its own words for it. */
  signInMessage?: string;
  /** The JSON body's schema; without one, the body is not read (the handler may read it itself). */
  body?: BodySchema;
  /** The query string's schema, given the parameters as an object of strings. */
  query?: QuerySchema;
  handler: (args: EndpointArgs<A, Parsed<BodySchema>, Parsed<QuerySchema>>) => Answer | Promise<Answer>;
}

export interface Endpoint {
  access: Access;
  signInMessage?: string;
  run(args: ApiArgs & { user: SessionUser | SessionCaller | null; logger: Logger }): Promise<Answer>;
}

/** One method of an endpoint: who may call it, what it takes, what it does. */
export function endpoint<
  A extends Access,
  BodySchema extends z.ZodType | undefined = undefined,
  QuerySchema extends z.ZodType | undefined = undefined,
>(spec: EndpointSpec<A, BodySchema, QuerySchema>): Endpoint {
  return {
    access: spec.access,
    signInMessage: spec.signInMessage,
    async run(args) {
      const query = spec.query ? parse(spec.query, Object.fromEntries(new URL(args.request.url).searchParams)) : undefined;
      const body = spec.body ? parse(spec.body, await readJson(args.request)) : undefined;
      return spec.handler({ ...args, user: args.user as UserFor<A>, body: body as Parsed<BodySchema>, query: query as Parsed<QuerySchema> });
    },
  };
}

/** A resource route's loader and action: `const route = apiRoute({ GET: endpoint(…) }); export const loader = route; export const action = route;` */
export function apiRoute(methods: Partial<Record<Method, Endpoint>>) {
  const allowed = Object.keys(methods).join(", ");
  return async ({ request, params, context }: ApiArgs): Promise<Response> => {
    const { logger, requestId } = context.get(requestContext);
    try {
      const method = request.method.toUpperCase();
      const spec = methods[(method === "HEAD" ? "GET" : method) as Method];
      if (!spec) {
        throw new RequestError("method_not_allowed", `This address accepts ${allowed} only.`, { headers: { Allow: allowed } });
      }
      const user = await authenticate(request, spec);
      const answer = await spec.run({ request, params, context, user, logger });
      // An admin's change must show on this instance's very next page, not when the notification
      // of the new public content version arrives.
      if (spec.access === "admin" && method !== "GET" && method !== "HEAD") await publicContentVersionWatch.refresh();
      const response = answer instanceof Response ? answer : Response.json(answer);
      // Every answer of the API is about its caller or changes something: none may be kept.
      if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", PRIVATE_NO_STORE);
      return response;
    } catch (error) {
      // A body refused unread (a picture from someone who is not an admin) is read to its end
      // first: a client still sending it would otherwise wait for ever for room to send the rest.
      // (Cancelling it instead would close the connection before the answer.)
      if (request.body && !request.bodyUsed) await discard(request.body);
      return responseForError(error, { logger, requestId });
    }
  };
}

async function discard(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  try {
    while (!(await reader.read()).done);
  } catch {
    // The client went away: nothing is left to answer.
  }
}

async function authenticate(request: Request, { access, signInMessage }: Endpoint): Promise<SessionUser | SessionCaller | null> {
  if (access === "public") return null;
  if (access === "session") {
    const caller = await getSessionCaller(request);
    if (!caller) throw new UnauthenticatedError(signInMessage);
    return caller;
  }
  const user = await getSessionUser(request);
  if (!user) throw new UnauthenticatedError(signInMessage);
  if (access === "admin" && !user.isAdmin) throw new RequestError("forbidden", "You don't have admin privileges for this action.");
  return user;
}

function isJson(contentType: string | null) {
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  return type === "application/json" || Boolean(type?.startsWith("application/") && type.endsWith("+json"));
}

async function readJson(request: Request): Promise<unknown> {
  if (!isJson(request.headers.get("content-type"))) {
    throw new RequestError("unsupported_media_type", "Send the data as JSON (Content-Type: application/json).");
  }
  const text = await request.text();
  // The server refuses a declared length over the limit before any route runs; this bounds a body
  // that reached a route some other way (a test, another adapter).
  if (Buffer.byteLength(text) > MAX_REQUEST_BODY_BYTES) throw bodyTooLargeError();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new RequestError("invalid_json", "The request body is not valid JSON.");
  }
}

function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value, { error: describeIssue });
  if (parsed.success) return parsed.data;
  const fieldErrors = fieldErrorsOf(parsed.error);
  throw new RequestError("invalid_input", parsed.error.issues[0]?.message ?? "The request is not valid.", { fieldErrors });
}

const recordIdSchema = z.uuid();

/** A record id from the address; anything that is not one cannot name a record, so it is a 404. */
export function recordId(value: string | undefined, what: string): string {
  const parsed = recordIdSchema.safeParse(value);
  if (!parsed.success) throw new NotFoundError(`No ${what} has this id.`);
  return parsed.data;
}
