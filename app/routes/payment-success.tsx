import { CircleAlert, CircleCheck, Loader2, ReceiptText } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { toast } from "#app/components/toast.ts";
import { publishViewerCredits } from "#app/components/live-credits.ts";
import { StatusPage } from "#app/components/status-page.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { useRootData } from "#app/components/use-root-data.ts";
import { useViewerCredits } from "#app/components/use-viewer-credits.ts";
import { personalPageHeaders, requireUser } from "#app/http/guards.server.ts";
import { creditsAddedMessage, PAYMENT_MESSAGES, type VerifyPaymentAnswer } from "#app/lib/payments.ts";
import { errorCodeOf } from "#app/lib/error-codes.ts";
import { formatCredits } from "#app/lib/site.ts";
import type { Route } from "./+types/payment-success";

/** The checkout returns here; the `credits` parameter is never read — the server says what was added. */

/** Personal: never kept by a browser or a shared cache. */
export const headers = personalPageHeaders;

export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return { sessionId: new URL(request.url).searchParams.get("session_id")?.trim() || null };
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: `Payment — ${matches[0].loaderData.site.name}` },
  { name: "robots", content: "noindex" },
];

type Verification = { state: "verifying" } | { state: "verified"; creditsAdded: number } | { state: "failed"; title: string; detail: string };

export default function PaymentSuccess({ loaderData }: Route.ComponentProps) {
  return loaderData.sessionId ? <ConfirmPayment sessionId={loaderData.sessionId} /> : <NothingToConfirm />;
}

/** Opened without a checkout's session id (a bookmark, a link copied without its query): nothing to ask the server. */
function NothingToConfirm() {
  return (
    <StatusPage
      title="No payment to confirm"
      icon={<ReceiptText className="size-12 text-gold" strokeWidth={1.5} aria-hidden />}
      actions={
        <>
          <Button asChild>
            <Link to="/credits">View Credits</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to="/games">Browse Games</Link>
          </Button>
        </>
      }
    >
      <p>
        This page confirms a payment when you return from checkout. This link does not name a payment, so there is nothing to confirm: your balance
        is on the Credits page.
      </p>
    </StatusPage>
  );
}

function ConfirmPayment({ sessionId }: { sessionId: string }) {
  const { viewer, site } = useRootData();
  const balance = useViewerCredits();
  const [verification, setVerification] = useState<Verification>({ state: "verifying" });
  const verifiedFor = useRef<string | null>(null);

  const settle = useCallback(
    (result: VerifyResult) => {
      setVerification(result);
      if (result.state === "verified") {
        toast.success(creditsAddedMessage(result.creditsAdded));
        if (viewer && result.balance !== undefined) publishViewerCredits(viewer.id, result.balance);
      } else {
        toast.error(result.title);
      }
    },
    [viewer],
  );

  useEffect(() => {
    // Once per session id, also under React's development double effects.
    if (verifiedFor.current === sessionId) return;
    verifiedFor.current = sessionId;
    void verifyPayment(sessionId).then(settle);
  }, [sessionId, settle]);

  function checkAgain() {
    setVerification({ state: "verifying" });
    void verifyPayment(sessionId).then(settle);
  }

  if (verification.state === "verifying") {
    return (
      <StatusPage title="Confirming your payment…" icon={<Loader2 className="size-12 animate-spin text-gold" strokeWidth={1.5} aria-hidden />}>
        <p role="status">This takes a moment. Please keep this page open.</p>
      </StatusPage>
    );
  }

  if (verification.state === "failed") {
    return (
      <StatusPage
        title={verification.title}
        icon={<CircleAlert className="size-12 text-danger" strokeWidth={1.5} aria-hidden />}
        actions={
          <>
            <Button onClick={checkAgain}>Check again</Button>
            <Button asChild variant="outline">
              <Link to="/credits">View Credits</Link>
            </Button>
          </>
        }
      >
        <p>{verification.detail}</p>
        <p className="mt-3 text-sm">
          Charged but no credits? Write to{" "}
          <a className="text-gold underline underline-offset-4" href={`mailto:${site.supportEmail}`}>
            {site.supportEmail}
          </a>{" "}
          and we will sort it out.
        </p>
      </StatusPage>
    );
  }

  return (
    <StatusPage
      title="Payment Successful!"
      icon={<CircleCheck className="size-14 text-gold" strokeWidth={1.5} aria-hidden />}
      actions={
        <>
          <Button asChild size="lg">
            <Link to="/games">Start Playing</Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to="/credits">View Credits</Link>
          </Button>
        </>
      }
    >
      <p className="font-display text-6xl font-bold text-gold lining-nums" data-testid="credits-added">
        +{formatCredits(verification.creditsAdded)}
      </p>
      {balance !== null ? (
        <p className="mt-4">
          Your balance is now <strong className="text-parchment">{formatCredits(balance)}</strong>. Thank you for your purchase!
        </p>
      ) : null}
    </StatusPage>
  );
}

type VerifyResult = Exclude<Verification, { state: "verifying" }> & { balance?: number };

/** POST /api/verify-payment, mapped to what the page shows (docs/spec.md §8's messages as titles). */
async function verifyPayment(sessionId: string): Promise<VerifyResult> {
  try {
    const response = await fetch("/api/verify-payment", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ sessionId }),
    });
    const answer = (await response.json().catch(() => ({}))) as VerifyPaymentAnswer;
    if (response.ok && answer.success && typeof answer.creditsAdded === "number") {
      return { state: "verified", creditsAdded: answer.creditsAdded, balance: answer.balance };
    }
    const code = errorCodeOf(answer);
    if (code === "payment_not_completed" || code === "not_found") {
      return { state: "failed", title: PAYMENT_MESSAGES.verificationFailed, detail: answer.error ?? "No credits were added." };
    }
    return {
      state: "failed",
      title: PAYMENT_MESSAGES.verifyFailed,
      detail: answer.error ?? "We could not confirm the payment just now. Please check again in a moment.",
    };
  } catch {
    return {
      state: "failed",
      title: PAYMENT_MESSAGES.verifyFailed,
      detail: "We could not reach the server to confirm the payment. Check your connection and try again.",
    };
  }
}
