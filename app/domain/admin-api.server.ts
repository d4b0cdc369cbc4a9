import type { Logger } from "pino";
import { z } from "zod";
import { env } from "../env.server.ts";
import { fieldErrorsOf, type FieldErrors } from "../lib/admin-forms.ts";
import { InvalidReferenceError, NotFoundError, SlugTakenError } from "./admin-errors.server.ts";
import { requireAdmin, type SessionUser } from "./auth.server.ts";

/**
 * The admin API's one door: the admin check comes first for every method (401 signed out, 403 not
 * an admin), then same-site and JSON checks, then the handler. The domain's refusals become 4xx
 * JSON with a message a person understands; anything else is logged and answered with a 500.
 */

type Method = "GET" | "POST" | "PUT" | "DELETE";
type Handler = (admin: SessionUser) => Promise<Response>;

/** Thrown by the input readers below: the request itself is wrong. */
class RequestError extends Error {
  readonly status: number;
  readonly fieldErrors?: FieldErrors;
  constructor(status: number, message: string, fieldErrors?: FieldErrors) {
    super(message);
    this.status = status;
    this.fieldErrors = fieldErrors;
  }
}

export function apiError(status: number, error: string, fieldErrors?: FieldErrors, headers?: HeadersInit) {
  return Response.json(fieldErrors ? { error, fieldErrors } : { error }, { status, headers });
}

/**
 * Cookies are SameSite=Lax and bodies must be JSON (which a cross-site form cannot send), so a
 * forged request already fails; refusing a foreign Origin outright says so plainly.
 */
function isCrossSite(request: Request) {
  if (request.headers.get("sec-fetch-site") === "cross-site") return true;
  const origin = request.headers.get("origin");
  if (!origin) return false;
  return origin !== new URL(request.url).origin && origin !== new URL(env().PUBLIC_URL).origin;
}

export async function adminEndpoint(request: Request, logger: Logger, handlers: Partial<Record<Method, Handler>>) {
  const admin = await requireAdmin(request);
  const method = request.method.toUpperCase() as Method;
  const handler = handlers[method];
  if (!handler) {
    const allowed = Object.keys(handlers).join(", ");
    return apiError(405, `This address accepts ${allowed} only.`, undefined, { Allow: allowed });
  }
  if (method !== "GET" && isCrossSite(request)) return apiError(403, "Cross-site requests are not accepted.");
  try {
    return await handler(admin);
  } catch (error) {
    if (error instanceof RequestError) return apiError(error.status, error.message, error.fieldErrors);
    if (error instanceof SlugTakenError) return apiError(409, error.message, { slug: error.message });
    if (error instanceof InvalidReferenceError) return apiError(400, error.message, { [error.field]: error.message });
    if (error instanceof NotFoundError) return apiError(404, error.message);
    logger.error({ err: error, method, url: request.url }, "admin request failed");
    return apiError(500, "The server could not complete this change. Please try again.");
  }
}

/** The JSON body, checked against the form's schema: 415 when not JSON, 400 with field errors when invalid. */
export async function readInput<Schema extends z.ZodType>(request: Request, schema: Schema): Promise<z.output<Schema>> {
  if (!request.headers.get("content-type")?.toLowerCase().startsWith("application/json")) {
    throw new RequestError(415, "Send the data as JSON (Content-Type: application/json).");
  }
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw new RequestError(400, "The request body is not valid JSON.");
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const fieldErrors = fieldErrorsOf(parsed.error);
  throw new RequestError(400, Object.values(fieldErrors)[0] ?? "Check the form and try again.", fieldErrors);
}

const idSchema = z.uuid();

/** A record id from the URL; anything that is not one cannot name a record, so it is a 404. */
export function recordId(value: string | undefined, what: string): string {
  const parsed = idSchema.safeParse(value);
  if (!parsed.success) throw new NotFoundError(`No ${what} has this id.`);
  return parsed.data;
}
