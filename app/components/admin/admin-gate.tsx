import { LoaderCircle, ShieldX } from "lucide-react";
import { isRouteErrorResponse, Navigate, useAsyncError, useNavigate } from "react-router";
import { StatusPage } from "#app/components/status-page.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { ADMIN_TEXTS } from "#app/lib/admin-texts.ts";

/** Shown while the server checks, on a client-side visit, that the viewer is an admin. */
export function CheckingPermissions() {
  return (
    <div role="status" className="flex min-h-[60dvh] flex-col items-center justify-center gap-4 px-4 text-parchment-dim">
      <LoaderCircle className="size-8 animate-spin text-gold" aria-hidden />
      <p>{ADMIN_TEXTS.checkingPermissions}</p>
    </div>
  );
}

export function AccessDenied() {
  const navigate = useNavigate();
  return (
    <StatusPage
      title={ADMIN_TEXTS.accessDeniedTitle}
      actions={
        <Button
          onClick={() => {
            // React Router numbers the entries of this tab's history; at 0 there is nothing to go back to.
            const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
            void (index > 0 ? navigate(-1) : navigate("/"));
          }}
        >
          {ADMIN_TEXTS.goBack}
        </Button>
      }
    >
      <ShieldX className="mx-auto mb-4 size-10 text-gold" strokeWidth={1.5} aria-hidden />
      <p>{ADMIN_TEXTS.accessDenied}</p>
    </StatusPage>
  );
}

/**
 * The outcome of a refused client-side check: signed out → the sign-in page the server chose,
 * not an admin → 'Access Denied'. Anything else is a real failure for the error boundary.
 */
export function AdminCheckRefused() {
  const error = useAsyncError();
  if (error instanceof Response && error.status >= 300 && error.status < 400) {
    return <Navigate to={error.headers.get("Location") ?? "/auth"} replace />;
  }
  if (isRouteErrorResponse(error) && error.status === 403) return <AccessDenied />;
  throw error;
}
