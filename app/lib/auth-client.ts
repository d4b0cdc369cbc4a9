/** The browser's calls to better-auth's endpoints (/api/auth/*), with the server's message on failure. */

export type AuthCallResult<T> = { ok: true; data: T } | { ok: false; status: number; message: string };

interface ErrorBody {
  message?: unknown;
  error?: unknown;
}

export async function callAuth<T = unknown>(path: string, body: Record<string, unknown>): Promise<AuthCallResult<T>> {
  let response: Response;
  try {
    response = await fetch(`/api/auth${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    return { ok: false, status: 0, message: "We could not reach the server. Check your connection and try again." };
  }
  const payload = (await response.json().catch(() => null)) as (T & ErrorBody) | null;
  if (response.ok) return { ok: true, data: payload as T };
  const message = [payload?.message, payload?.error].find((value) => typeof value === "string" && value.length > 0);
  return { ok: false, status: response.status, message: (message as string | undefined) ?? "Something went wrong. Please try again." };
}
