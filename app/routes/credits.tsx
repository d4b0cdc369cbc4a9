import { ArrowLeft, Check, CirclePause, Coins, FlaskConical, Loader2, LogIn } from "lucide-react";
import { useState } from "react";
import { Link, useRevalidator } from "react-router";
import { toast } from "#app/components/toast.ts";
import { StatusPage } from "#app/components/status-page.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { useRootData } from "#app/components/use-root-data.ts";
import { useViewerCredits } from "#app/components/use-viewer-credits.ts";
import { paymentsProvider } from "#app/domain/payments.server.ts";
import type { PaymentsProvider } from "#app/env.server.ts";
import { personalPageHeaders } from "#app/http/guards.server.ts";
import { CREDIT_PACKAGES, CREDITS_PER_MESSAGE, percentOff, STARTER_CREDITS, type CreditPackage } from "#app/lib/constants.ts";
import { formatUsd, PAYMENT_MESSAGES, type CreatePaymentAnswer } from "#app/lib/payments.ts";
import { formatCredits } from "#app/lib/site.ts";
import { cn } from "#app/lib/utils.ts";
import type { Route } from "./+types/credits";

/** Personal (the balance): never kept by a browser or a shared cache. */
export const headers = personalPageHeaders;

/** Where a player who came from a story goes back to: only a play page of this site. */
const STORY_PATH = /^\/play\/[a-z0-9-]{1,100}$/;

export function loader({ request }: Route.LoaderArgs) {
  const returnTo = new URL(request.url).searchParams.get("returnTo");
  return { paymentsProvider: paymentsProvider(), returnTo: returnTo && STORY_PATH.test(returnTo) ? returnTo : null };
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const siteName = matches[0].loaderData.site.name;
  return [
    { title: `Credits — ${siteName}` },
    {
      name: "description",
      content: "Buy credits for the AI Game Master: 100, 500 or 1000 credits at 50% off. Credits never expire and arrive instantly.",
    },
  ];
};

export default function Credits({ loaderData }: Route.ComponentProps) {
  const { viewer } = useRootData();
  if (!viewer) {
    return (
      <StatusPage
        title="Sign In Required"
        actions={
          <Button asChild size="lg">
            <Link to="/auth?redirectTo=%2Fcredits">
              <LogIn aria-hidden />
              Sign In
            </Link>
          </Button>
        }
      >
        <p>Sign in to see your credits balance and buy credit packages.</p>
      </StatusPage>
    );
  }
  return <CreditsStore provider={loaderData.paymentsProvider} returnTo={loaderData.returnTo} />;
}

function CreditsStore({ provider, returnTo }: { provider: PaymentsProvider; returnTo: string | null }) {
  const credits = useViewerCredits() ?? 0;
  const [processing, setProcessing] = useState<CreditPackage["id"] | null>(null);
  const { revalidate } = useRevalidator();
  const discounts = CREDIT_PACKAGES.map(percentOff);
  const bestDiscount = Math.max(...discounts);

  async function buy(creditPackage: CreditPackage) {
    setProcessing(creditPackage.id);
    // Opened during the click, so no popup blocker stops it; it is sent to the checkout once that exists.
    const checkoutTab = openPendingTab();
    try {
      const response = await fetch("/api/create-payment", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ packageType: creditPackage.id }),
      });
      const answer = (await response.json().catch(() => ({}))) as CreatePaymentAnswer;
      if (!response.ok) {
        checkoutTab?.close();
        if (answer.code === "unauthenticated") {
          toast.error(PAYMENT_MESSAGES.signInRequired);
          // The session ended meanwhile: let the page show it (Sign In Required).
          void revalidate();
        } else if (answer.code === "rate_limited" && answer.error) toast.error(answer.error);
        else toast.error(PAYMENT_MESSAGES.createFailed);
        return;
      }
      const url = checkoutUrl(answer.url);
      if (!url) {
        checkoutTab?.close();
        toast.error(PAYMENT_MESSAGES.invalidResponse);
        return;
      }
      if (checkoutTab) checkoutTab.location.href = url;
      else window.location.assign(url);
    } catch {
      checkoutTab?.close();
      toast.error(PAYMENT_MESSAGES.initiateFailed);
    } finally {
      setProcessing(null);
    }
  }

  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-16">
      {returnTo ? (
        <p className="mb-8 flex flex-wrap items-center justify-center gap-x-3 gap-y-2 rounded-xl border border-ink-line bg-ink-raised px-4 py-3 text-center text-sm text-parchment-dim">
          Checkout opens in a new tab, so your story stays where you left it.
          <Link to={returnTo} className="inline-flex items-center gap-1 font-semibold text-gold underline-offset-4 hover:underline">
            <ArrowLeft className="size-4" aria-hidden />
            Back to your story
          </Link>
        </p>
      ) : null}
      <header className="flex flex-col items-center text-center">
        <div aria-hidden className="mb-6 h-px w-32 bg-gradient-to-r from-transparent via-gold to-transparent" />
        <h1 className="text-4xl sm:text-5xl">Your Credits</h1>
        <div className="mt-6 inline-flex items-center gap-3 rounded-full border border-gold/50 bg-gold/10 px-6 py-3">
          <Coins className="size-6 text-gold" strokeWidth={1.75} aria-hidden />
          <span className="font-display text-3xl font-bold text-gold lining-nums" data-testid="credits-page-balance">
            {formatCredits(credits)}
          </span>
        </div>
        <p className="mt-4 max-w-xl text-parchment-dim">
          Each message to the Game Master costs {CREDITS_PER_MESSAGE} credit.{" "}
          {provider === "off" ? "Credits never expire." : "Top up below — credits never expire."}
        </p>
      </header>

      <section aria-labelledby="packages-heading" className="mt-14">
        <div className="flex flex-col items-center gap-2 text-center">
          <h2 id="packages-heading" className="text-3xl">
            Credit Packages
          </h2>
          <p className="text-sm font-semibold tracking-wide text-gold uppercase">
            Limited-time offer: {discounts.every((discount) => discount === bestDiscount) ? "" : "up to "}
            {bestDiscount}% off every package
          </p>
          {provider === "test" ? (
            <p className="mt-2 inline-flex items-center gap-2 rounded-full border border-ink-line bg-ink-raised px-4 py-1.5 text-sm text-parchment-dim">
              <FlaskConical className="size-4 text-gold" strokeWidth={1.75} aria-hidden />
              {PAYMENT_MESSAGES.testMode}
            </p>
          ) : null}
          {provider === "off" ? <PurchasesUnavailable /> : null}
        </div>
        <ul className="mt-10 grid gap-6 md:grid-cols-3 md:items-stretch">
          {CREDIT_PACKAGES.map((creditPackage) => (
            <li key={creditPackage.id} className="flex">
              <PackageCard
                creditPackage={creditPackage}
                processing={processing === creditPackage.id}
                disabled={processing !== null}
                // Without payments a Buy Now could only fail: the packages are shown as a price list.
                onBuy={provider === "off" ? undefined : () => void buy(creditPackage)}
              />
            </li>
          ))}
        </ul>
      </section>

      <CreditsFaq provider={provider} />
    </div>
  );
}

/** In place of Buy Now when this server takes no payments: why, and whom to ask. */
function PurchasesUnavailable() {
  const { site } = useRootData();
  return (
    <div role="note" className="mt-4 flex max-w-xl gap-3 rounded-xl border border-gold/40 bg-gold/10 p-4 text-left text-sm">
      <CirclePause className="mt-0.5 size-5 shrink-0 text-gold" strokeWidth={1.75} aria-hidden />
      <div>
        <p className="font-semibold text-gold">{PAYMENT_MESSAGES.unavailable}</p>
        <p className="mt-1 text-parchment-dim">
          Credit packages cannot be bought on this site at the moment. Your balance is safe and you can keep playing with it. Questions about
          credits or a payment? Write to{" "}
          <a href={`mailto:${site.supportEmail}`} className="break-words text-parchment underline underline-offset-2">
            {site.supportEmail}
          </a>
          .
        </p>
      </div>
    </div>
  );
}

function PackageCard({
  creditPackage,
  processing,
  disabled,
  onBuy,
}: {
  creditPackage: CreditPackage;
  processing: boolean;
  disabled: boolean;
  /** Without it the card has no Buy Now (payments are off). */
  onBuy?: () => void;
}) {
  const { credits, priceCents, originalPriceCents, badge, highlight } = creditPackage;
  const messages = Math.floor(credits / CREDITS_PER_MESSAGE);
  const centsPerMessage = (priceCents / messages).toFixed(1);
  const headingId = `package-${creditPackage.id}`;
  return (
    <Card
      role="group"
      aria-labelledby={headingId}
      data-testid={`package-${creditPackage.id}`}
      className={cn(
        "relative flex w-full flex-col p-6 pt-8",
        highlight && "border-plum bg-gradient-to-b from-plum/25 to-ink-raised shadow-[0_0_0_1px_var(--color-plum)] md:-my-3 md:py-11",
      )}
    >
      {highlight ? (
        <Badge variant="plum" className="absolute -top-3 left-1/2 -translate-x-1/2 px-3.5 py-1 text-sm">
          {highlight}
        </Badge>
      ) : null}
      <div className="flex items-center justify-between gap-3">
        <Badge variant="outline" className="text-parchment">
          {badge}
        </Badge>
        <span className="rounded-full bg-gold/15 px-2.5 py-0.5 text-xs font-bold text-gold">{percentOff(creditPackage)}% OFF</span>
      </div>
      <h3 id={headingId} className="mt-5 text-5xl text-parchment lining-nums">
        {credits} <span className="text-2xl text-parchment-dim">Credits</span>
      </h3>
      <p className="mt-4 flex items-baseline gap-3">
        <span className="text-3xl font-semibold text-parchment">
          <span className="sr-only">Now </span>
          {formatUsd(priceCents)}
        </span>
        <s className="text-lg text-parchment-dim">
          <span className="sr-only">Regular price </span>
          {formatUsd(originalPriceCents)}
        </s>
      </p>
      <p className="mt-1 text-sm text-parchment-dim">{centsPerMessage}¢ per message</p>
      <ul className={cn("mt-6 space-y-2.5 text-sm", onBuy && "mb-8")}>
        {[`${messages} messages to the Game Master`, "Never expires", "Delivered instantly"].map((feature) => (
          <li key={feature} className="flex items-center gap-2.5">
            <Check className="size-4 shrink-0 text-gold" strokeWidth={2} aria-hidden />
            {feature}
          </li>
        ))}
      </ul>
      {onBuy ? (
        <Button
          size="lg"
          variant={highlight ? "default" : "outline"}
          className="mt-auto w-full"
          disabled={disabled}
          aria-busy={processing}
          onClick={onBuy}
        >
          {processing ? (
            <>
              <Loader2 className="animate-spin" aria-hidden />
              Processing...
            </>
          ) : (
            "Buy Now"
          )}
        </Button>
      ) : null}
    </Card>
  );
}

function CreditsFaq({ provider }: { provider: PaymentsProvider }) {
  const { site } = useRootData();
  const questions = [
    {
      question: "Do credits expire?",
      answer: "No. Credits never expire: they stay on your account until you spend them, however long you take.",
    },
    {
      question: "How quickly do credits arrive?",
      answer: "Instantly. As soon as the payment is confirmed, the credits are added to your balance — on every open tab, without reloading.",
    },
    {
      question: "Can I get a refund?",
      answer: `Purchased credits are not refundable. If a payment went wrong — you were charged but no credits arrived — write to ${site.supportEmail} and we will sort it out.`,
    },
    {
      question: "Do new players get free credits?",
      answer: `Yes. Every new account starts with ${STARTER_CREDITS} free credits — ${STARTER_CREDITS / CREDITS_PER_MESSAGE} messages to the Game Master to find your story.`,
    },
    {
      question: "What does a credit buy?",
      answer: `Each message you send to the Game Master costs ${CREDITS_PER_MESSAGE} credit. Browsing games, reading guides and saving your story are free.`,
    },
    {
      question: "How do I pay?",
      answer: {
        test: "This server runs in test mode: Buy Now opens a built-in test checkout in a new tab, and no card is charged.",
        stripe: "By card, through Stripe's secure checkout, which opens in a new tab. Your card details go to Stripe and never reach our servers.",
        off: `${PAYMENT_MESSAGES.unavailable}: credits cannot be bought on this site at the moment. Write to ${site.supportEmail} if you need help with your credits.`,
      }[provider],
    },
  ];
  return (
    <section aria-labelledby="faq-heading" className="mt-20">
      <h2 id="faq-heading" className="text-center text-3xl">
        Frequently Asked Questions
      </h2>
      <dl className="mx-auto mt-8 grid max-w-4xl gap-4 md:grid-cols-2">
        {questions.map(({ question, answer }) => (
          <div key={question} className="rounded-[var(--radius-card)] border border-ink-line bg-ink-raised p-5">
            <dt className="font-semibold text-parchment">{question}</dt>
            <dd className="mt-2 text-sm text-parchment-dim">{answer}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** A blank tab opened while the click still counts as a user gesture, or null if it was blocked. */
function openPendingTab(): Window | null {
  const tab = window.open("", "_blank");
  if (!tab) return null;
  // The checkout must not be able to script this page.
  tab.opener = null;
  tab.document.title = "Opening checkout…";
  tab.document.body.style.cssText =
    "background:#120d1c;color:#b9ad9c;font:16px system-ui,sans-serif;display:grid;place-items:center;height:100vh;margin:0";
  tab.document.body.textContent = "Opening secure checkout…";
  return tab;
}

/** The checkout address if the answer holds a usable one. */
function checkoutUrl(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  try {
    const url = new URL(value, window.location.origin);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}
