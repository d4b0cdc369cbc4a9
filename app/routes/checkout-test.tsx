import { FlaskConical, Loader2, LockKeyhole } from "lucide-react";
import { Form, Link, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { StatusPage } from "#app/components/status-page.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { useRootData } from "#app/components/use-root-data.ts";
import { InvalidInputError } from "#app/domain/errors.server.ts";
import { formRefusal } from "#app/http/errors.server.ts";
import { personalPageHeaders, requireUser } from "#app/http/guards.server.ts";
import { cancelTestCheckout, getTestCheckout, PaymentNotFoundError, PaymentNotPaidError, payTestCheckout } from "#app/domain/payments.server.ts";
import { findCreditPackage } from "#app/lib/constants.ts";
import { formatUsd, PAYMENT_MESSAGES, paymentSuccessPath } from "#app/lib/payments.ts";
import type { Route } from "./+types/checkout-test";

/**
 * The built-in test checkout (PAYMENTS_PROVIDER test; 404 otherwise): it plays the payment
 * provider's part, and "Pay" completes the purchase through the same fulfilment as a real payment.
 */

/** Personal: never kept by a browser or a shared cache. */
export const headers = personalPageHeaders;
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const checkout = await getTestCheckout(user.id, params.sessionId).catch(notFound);
  return { checkout, email: user.email };
}

const checkoutIntent = z.object({ intent: z.enum(["pay", "cancel"]) });

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  const parsed = checkoutIntent.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return formRefusal(new InvalidInputError("Choose Pay or Cancel.", "intent"));
  try {
    if (parsed.data.intent === "cancel") {
      await cancelTestCheckout(user.id, params.sessionId);
      return redirect("/credits");
    }
    const paid = await payTestCheckout(user.id, params.sessionId);
    return redirect(paymentSuccessPath(params.sessionId, paid.credits));
  } catch (error) {
    if (error instanceof PaymentNotPaidError) return formRefusal(error);
    return notFound(error);
  }
}

function notFound(error: unknown): never {
  if (error instanceof PaymentNotFoundError) throw new Response("Not Found", { status: 404 });
  throw error;
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: `Test checkout — ${matches[0].loaderData.site.name}` },
  { name: "robots", content: "noindex" },
];

export default function TestCheckout({ loaderData, actionData }: Route.ComponentProps) {
  const { checkout, email } = loaderData;
  const { site } = useRootData();
  const navigation = useNavigation();
  const submitting = navigation.formData?.get("intent") ?? undefined;
  const creditPackage = findCreditPackage(checkout.packageId);
  const amount = formatUsd(checkout.amountCents);

  if (checkout.status === "completed") {
    return (
      <StatusPage
        title="Already paid"
        actions={
          <Button asChild>
            <Link to={paymentSuccessPath(checkout.sessionId, checkout.credits)}>See your receipt</Link>
          </Button>
        }
      >
        <p>This checkout has been paid and its {checkout.credits} credits are on your account.</p>
      </StatusPage>
    );
  }
  if (checkout.status !== "pending") {
    return (
      <StatusPage
        title="Checkout cancelled"
        actions={
          <Button asChild>
            <Link to="/credits">Back to Credits</Link>
          </Button>
        }
      >
        <p>This checkout was cancelled and can no longer be paid. Start a new purchase from the Credits page.</p>
      </StatusPage>
    );
  }

  return (
    <div className="mx-auto max-w-lg px-4 py-10 sm:py-16">
      <Card className="overflow-hidden">
        <div className="flex items-center justify-between gap-3 border-b border-ink-line bg-ink/60 px-6 py-4">
          <span className="inline-flex items-center gap-2 text-sm text-parchment-dim">
            <LockKeyhole className="size-4 text-gold" strokeWidth={1.75} aria-hidden />
            Checkout
          </span>
          <Badge variant="outline">
            <FlaskConical aria-hidden />
            Test checkout
          </Badge>
        </div>
        <div className="p-6 sm:p-8">
          <p className="text-sm text-parchment-dim">Pay {site.name}</p>
          <h1 className="mt-1 font-sans text-5xl font-semibold tracking-tight">{amount}</h1>
          <dl className="mt-6 divide-y divide-ink-line border-y border-ink-line text-sm">
            <div className="flex items-center justify-between gap-4 py-3">
              <dt>
                <span className="font-semibold text-parchment">{checkout.credits} Credits</span>
                {creditPackage ? <span className="ml-2 text-parchment-dim">{creditPackage.badge} package</span> : null}
              </dt>
              <dd>{amount}</dd>
            </div>
            {creditPackage ? (
              <div className="flex items-center justify-between gap-4 py-3 text-parchment-dim">
                <dt>Regular price</dt>
                <dd>
                  <s>{formatUsd(creditPackage.originalPriceCents)}</s>
                </dd>
              </div>
            ) : null}
            <div className="flex items-center justify-between gap-4 py-3 text-base font-semibold">
              <dt>Total due</dt>
              <dd>{amount}</dd>
            </div>
          </dl>

          <div role="note" className="mt-6 flex gap-3 rounded-xl border border-gold/40 bg-gold/10 p-4 text-sm">
            <FlaskConical className="mt-0.5 size-5 shrink-0 text-gold" strokeWidth={1.75} aria-hidden />
            <div>
              <p className="font-semibold text-gold">{PAYMENT_MESSAGES.testMode}</p>
              <p className="mt-1 text-parchment-dim">
                This server has no card payments configured. Paying here adds the credits at once, just as a real payment would.
              </p>
            </div>
          </div>

          <p className="mt-5 text-sm break-words text-parchment-dim">
            Paying as <span className="text-parchment">{email}</span>
          </p>
          {actionData?.error ? (
            <p role="alert" className="mt-4 text-sm text-danger">
              {actionData.error}
            </p>
          ) : null}

          <Form method="post" className="mt-6 flex flex-col gap-3">
            <Button type="submit" name="intent" value="pay" size="lg" disabled={submitting !== undefined}>
              {submitting === "pay" ? <Loader2 className="animate-spin" aria-hidden /> : null}
              {submitting === "pay" ? "Processing..." : `Pay ${amount}`}
            </Button>
            <Button type="submit" name="intent" value="cancel" variant="ghost" disabled={submitting !== undefined}>
              Cancel
            </Button>
          </Form>
        </div>
      </Card>
    </div>
  );
}
