import { useState } from "react";
import { useRevalidator } from "react-router";
import type { FieldErrors } from "#app/lib/admin-forms.ts";
import { errorCodeOf } from "#app/lib/error-codes.ts";

export type ApiResult<T> =
  | { ok: true; data: T }
  /** `status` 0: the server could not be reached. `error` is the server's message for a 4xx. */
  | { ok: false; status: number; error?: string; fieldErrors: FieldErrors };

type Method = "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Sends one admin API request and, once it changed something, reloads the panel's data so every
 * list shows the change before the caller closes its dialog. `pending` drives 'Saving...'.
 */
export function useAdminRequest() {
  const revalidator = useRevalidator();
  const [pending, setPending] = useState(false);

  /** `body` is sent as JSON, or as it is when it is a file (a cover picture). */
  async function send<T>(method: Method, url: string, body?: unknown): Promise<ApiResult<T>> {
    setPending(true);
    try {
      const response = await fetch(url, {
        method,
        ...(body instanceof Blob
          ? { headers: { "Content-Type": body.type || "application/octet-stream" }, body }
          : body === undefined
            ? {}
            : { headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }),
      });
      const payload = (await response.json().catch(() => ({}))) as { error?: string; fieldErrors?: FieldErrors } & T;
      if (response.ok) {
        await revalidator.revalidate();
        return { ok: true, data: payload };
      }
      // Signed out or no longer an admin: reloading the panel shows the sign-in page or 'Access Denied'.
      const code = errorCodeOf(payload);
      if (code === "unauthenticated" || code === "forbidden") void revalidator.revalidate();
      return {
        ok: false,
        status: response.status,
        error: response.status < 500 ? payload.error : undefined,
        fieldErrors: payload.fieldErrors ?? {},
      };
    } catch {
      return { ok: false, status: 0, fieldErrors: {} };
    } finally {
      setPending(false);
    }
  }

  return { send, pending };
}
