import { AUTH_BASE_PATH, auth } from "../domain/auth.server.ts";
import { limitAuthRequest } from "../domain/auth-rate-limit.server.ts";
import { limitAccountSignIn } from "../domain/sign-in-throttle.server.ts";
import { humanAuthMessage } from "../lib/auth.ts";
import type { ErrorBody, ErrorCode } from "../lib/error-codes.ts";

/**
 * better-auth's endpoints behind our rate limits — per client address, then per account for
 * password sign-ins — with its refusals in the site's one error shape, said the way a person would
 * say them (the /auth page shows them as they come).
 */
export async function handleAuthRequest(request: Request): Promise<Response> {
  await limitAuthRequest(request, AUTH_BASE_PATH);
  return inErrorShape(await limitAccountSignIn(request, AUTH_BASE_PATH, () => auth().handler(request)));
}

function codeForStatus(status: number): ErrorCode {
  if (status === 401) return "unauthenticated";
  if (status === 403) return "forbidden";
  if (status === 404) return "not_found";
  if (status === 409 || status === 422) return "conflict";
  if (status === 429) return "rate_limited";
  return status >= 500 ? "internal" : "invalid_input";
}

/**
 * better-auth answers `{ code: "INVALID_EMAIL_OR_PASSWORD", message }`: the body keeps its `message`
 * (better-auth's own client reads it) and its code as `authCode`, and gains `error` and `code`.
 */
async function inErrorShape(response: Response): Promise<Response> {
  if (response.ok || !response.headers.get("Content-Type")?.includes("application/json")) return response;
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { code?: string; message?: string } | null;
  if (!body || typeof body !== "object") return response;
  const message = humanAuthMessage(body.code, body.message) ?? body.message ?? "Your request could not be completed.";
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  const shaped: ErrorBody & { message: string; authCode?: string } = {
    error: message,
    code: codeForStatus(response.status),
    message,
    ...(body.code ? { authCode: body.code } : {}),
  };
  return new Response(JSON.stringify(shaped), { status: response.status, statusText: response.statusText, headers });
}
