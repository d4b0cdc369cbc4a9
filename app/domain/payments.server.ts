import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import Stripe from "stripe";
import { db } from "../db/database.server.ts";
import { payments, type Payment } from "../db/schema.ts";
import { env, type Environment, type PaymentsProvider } from "../env.server.ts";
import { findCreditPackage, PAYMENT_CURRENCY, type CreditPackage, type PaymentStatus } from "../lib/constants.ts";
import { paymentSuccessPath } from "../lib/payments.ts";
import { creditsPurchased } from "../lib/metrics.server.ts";
import { applyCreditChange, getBalance } from "./credits.server.ts";
import { DomainError, InvalidInputError, NotFoundError, UnavailableError } from "./errors.server.ts";
import { enforceRateLimit, type RateLimitRule } from "./rate-limit.server.ts";

/**
 * Buying credits. A checkout is a Stripe Checkout Session or the built-in test checkout, as
 * PAYMENTS_PROVIDER decides (env.server.ts); in production without either, nothing can be bought.
 * Either way a `payments` row (pending) is written when the checkout is created, and one function
 * — fulfilPayment — turns a paid checkout into credits: the payment row completed and a `purchase`
 * ledger row keyed by the session id, in one transaction. Verify, the webhook and the test
 * checkout all go through it, so however often and in whatever order they arrive, a payment
 * credits exactly once.
 */

/** Checkouts one player may start per minute (a checkout is a call to Stripe). */
export const CHECKOUT_RATE_LIMIT: RateLimitRule = { name: "create-payment", limit: 10, windowMs: 60_000 };

export class UnknownPackageError extends InvalidInputError {
  override name = "UnknownPackageError";
  constructor(packageType: string) {
    super(`There is no credit package "${packageType}". Choose 100, 500 or 1000 credits.`, "packageType");
  }
}

/** Unknown session, or one that belongs to someone else (the two are not told apart). */
export class PaymentNotFoundError extends NotFoundError {
  override name = "PaymentNotFoundError";
  constructor() {
    super("We could not find this payment on your account.");
  }
}

export class PaymentNotPaidError extends DomainError {
  override name = "PaymentNotPaidError";
  constructor(message = "This payment has not been completed, so no credits were added.") {
    super("payment_not_completed", message);
  }
}

export class PaymentProviderError extends UnavailableError {
  override name = "PaymentProviderError";
  constructor(cause: unknown) {
    super("provider_unavailable", "The payment provider could not be reached. Please try again in a moment.", cause);
  }
}

/** This server takes no payments (production with neither Stripe nor the test checkout). */
class PaymentsUnavailableError extends UnavailableError {
  override name = "PaymentsUnavailableError";
  constructor() {
    super("payments_unavailable", "Payments are not configured on this server, so credits cannot be bought right now.");
  }
}

/** How this server takes payments, fixed at start (env.server.ts). */
export function paymentsProvider(): PaymentsProvider {
  return env().paymentsProvider;
}

/**
 * What the operator must hear once at start: a production server that sells nothing, or one whose
 * checkout gives credits away. Undefined when payments are what the configuration asks for.
 */
export function paymentsStartupWarning(config: Pick<Environment, "paymentsProvider" | "isProduction">): string | undefined {
  if (config.paymentsProvider === "off") {
    return (
      "Payments are off: NODE_ENV is production and neither STRIPE_SECRET_KEY nor PAYMENTS_PROVIDER is set, so credits " +
      "cannot be bought (POST /api/create-payment answers 503). Set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to take " +
      "card payments, or PAYMENTS_PROVIDER=test on a staging site."
    );
  }
  if (config.paymentsProvider === "test" && config.isProduction) {
    return (
      "Payments use the built-in test checkout in production (PAYMENTS_PROVIDER=test): anyone can add credits without " +
      "paying. Use this on staging and acceptance sites only."
    );
  }
  return undefined;
}

let stripeClient: { key: string; client: Stripe } | undefined;

function stripe(): Stripe {
  const config = env();
  const key = config.STRIPE_SECRET_KEY;
  if (!key) throw new Error("Stripe is not configured (STRIPE_SECRET_KEY is unset).");
  if (stripeClient?.key !== key) {
    stripeClient = {
      key,
      client: new Stripe(key, {
        ...stripeApiLocation(config.STRIPE_API_URL),
        maxNetworkRetries: 2,
        timeout: 20_000,
        appInfo: { name: config.SITE_NAME },
      }),
    };
  }
  return stripeClient.client;
}

/** STRIPE_API_URL (a local Stripe-protocol server in tests) as the SDK's host/port/protocol. */
function stripeApiLocation(apiUrl: string | undefined) {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: url.port || (protocol === "http" ? 80 : 443), protocol } as const;
}

export interface Buyer {
  id: string;
  email: string;
}

export interface Checkout {
  url: string;
  sessionId: string;
}

/** Starts a checkout for one package and records the pending payment (at most CHECKOUT_RATE_LIMIT a minute). */
export async function createCheckout(buyer: Buyer, packageType: string): Promise<Checkout> {
  const provider = paymentsProvider();
  if (provider === "off") throw new PaymentsUnavailableError();
  const creditPackage = findCreditPackage(packageType);
  if (!creditPackage) throw new UnknownPackageError(packageType);
  await enforceRateLimit(CHECKOUT_RATE_LIMIT, buyer.id, () => "Too many purchase attempts. Please wait a minute and try again.");
  const checkout = provider === "stripe" ? await createStripeCheckout(buyer, creditPackage) : createTestCheckout();
  await db().insert(payments).values({
    userId: buyer.id,
    provider,
    sessionId: checkout.sessionId,
    packageId: creditPackage.id,
    credits: creditPackage.credits,
    amountCents: creditPackage.priceCents,
    currency: PAYMENT_CURRENCY,
  });
  return checkout;
}

async function createStripeCheckout(buyer: Buyer, creditPackage: CreditPackage): Promise<Checkout> {
  const { PUBLIC_URL, SITE_NAME } = env();
  const metadata = { userId: buyer.id, packageId: creditPackage.id, credits: String(creditPackage.credits) };
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe().checkout.sessions.create({
      mode: "payment",
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: PAYMENT_CURRENCY,
            unit_amount: creditPackage.priceCents,
            product_data: {
              name: `${creditPackage.credits} Credits`,
              description: `${creditPackage.credits} credits for ${SITE_NAME}. Credits never expire.`,
            },
          },
        },
      ],
      client_reference_id: buyer.id,
      customer_email: buyer.email,
      metadata,
      payment_intent_data: { metadata },
      success_url: `${PUBLIC_URL}${paymentSuccessPath("{CHECKOUT_SESSION_ID}", creditPackage.credits)}`,
      cancel_url: `${PUBLIC_URL}/credits`,
    });
  } catch (error) {
    throw new PaymentProviderError(error);
  }
  if (!session.url) throw new PaymentProviderError(new Error(`Stripe returned checkout session ${session.id} without a url`));
  return { url: session.url, sessionId: session.id };
}

function createTestCheckout(): Checkout {
  const sessionId = `test_cs_${randomBytes(18).toString("base64url")}`;
  return { url: `${env().PUBLIC_URL}/checkout/test/${sessionId}`, sessionId };
}

export interface FulfilledPayment {
  userId: string;
  credits: number;
  /** The buyer's balance right after this fulfilment (or the repeated one). */
  balance: number;
  /** False when the payment had been credited before: nothing changed. */
  newlyCredited: boolean;
}

/**
 * Credits a paid checkout exactly once: the payment row is locked, the `purchase` ledger row keyed
 * by the session id is applied (a no-op when it exists), and the payment is marked completed — all
 * in one transaction. Callers must have established that the session is paid.
 */
export async function fulfilPayment(sessionId: string): Promise<FulfilledPayment> {
  const fulfilled = await db().transaction(async (tx) => {
    const [payment] = await tx.select().from(payments).where(eq(payments.sessionId, sessionId)).for("update");
    if (!payment) throw new PaymentNotFoundError();
    const change = await applyCreditChange({ userId: payment.userId, delta: payment.credits, reason: "purchase", reference: sessionId }, tx);
    if (payment.status !== "completed") {
      await tx.update(payments).set({ status: "completed", completedAt: new Date() }).where(eq(payments.id, payment.id));
    }
    return { userId: payment.userId, credits: payment.credits, balance: change.balance, newlyCredited: change.applied };
  });
  if (fulfilled.newlyCredited) creditsPurchased.inc(fulfilled.credits);
  return fulfilled;
}

export interface VerifiedPayment {
  creditsAdded: number;
  balance: number;
}

/**
 * The success page's check: the session must be the caller's and paid (asked of Stripe, never
 * taken from the URL); then it is fulfilled, unless the webhook got there first.
 */
export async function verifyPayment(userId: string, sessionId: string): Promise<VerifiedPayment> {
  const payment = await findPayment(sessionId);
  if (!payment || payment.userId !== userId) throw new PaymentNotFoundError();
  if (payment.status === "completed") return { creditsAdded: payment.credits, balance: await getBalance(userId) };
  if (payment.provider === "test") {
    throw new PaymentNotPaidError(payment.status === "expired" ? "This test checkout was cancelled, so no credits were added." : undefined);
  }
  if (paymentsProvider() !== "stripe") throw new PaymentNotPaidError("Card payments are not configured on this server.");

  let session: Stripe.Checkout.Session;
  try {
    session = await stripe().checkout.sessions.retrieve(sessionId);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) throw new PaymentNotFoundError();
    throw new PaymentProviderError(error);
  }
  if (!sessionMatchesPayment(session, payment)) throw new PaymentNotFoundError();
  if (session.payment_status !== "paid") {
    throw new PaymentNotPaidError(
      session.status === "complete" ? "Your payment is still being processed. The credits will be added as soon as it clears." : undefined,
    );
  }
  const fulfilled = await fulfilPayment(sessionId);
  return { creditsAdded: fulfilled.credits, balance: fulfilled.balance };
}

/** What Stripe says about a session, from its API (verify) or from a checked webhook event. */
type SessionFacts = Pick<Stripe.Checkout.Session, "id" | "metadata" | "amount_total" | "currency">;

/** Stripe's session must describe the payment we recorded: same buyer, same amount and currency. */
export function sessionMatchesPayment(session: SessionFacts, payment: Payment) {
  return (
    session.id === payment.sessionId &&
    session.metadata?.userId === payment.userId &&
    session.amount_total === payment.amountCents &&
    session.currency === payment.currency
  );
}

export async function findPayment(sessionId: string) {
  const [payment] = await db().select().from(payments).where(eq(payments.sessionId, sessionId));
  return payment;
}

/** Marks a pending payment failed or expired; a completed one stays completed. */
export async function settlePending(sessionId: string, status: Extract<PaymentStatus, "failed" | "expired">) {
  const updated = await db()
    .update(payments)
    .set({ status })
    .where(and(eq(payments.sessionId, sessionId), eq(payments.status, "pending")))
    .returning({ id: payments.id });
  return updated.length > 0 ? ("status-updated" as const) : ("ignored" as const);
}

// ---------------------------------------------------------------------------------------------
// The built-in test checkout (PAYMENTS_PROVIDER test): a page of our own plays the provider's part.

export interface TestCheckout {
  sessionId: string;
  packageId: string;
  credits: number;
  amountCents: number;
  status: PaymentStatus;
}

/** The caller's test checkout; not found for anyone else, or unless the test checkout is the provider. */
export async function getTestCheckout(userId: string, sessionId: string): Promise<TestCheckout> {
  if (paymentsProvider() !== "test") throw new PaymentNotFoundError();
  const payment = await findPayment(sessionId);
  if (!payment || payment.provider !== "test" || payment.userId !== userId) throw new PaymentNotFoundError();
  return {
    sessionId: payment.sessionId,
    packageId: payment.packageId,
    credits: payment.credits,
    amountCents: payment.amountCents,
    status: payment.status,
  };
}

/** "Pay" on the test checkout: the provider confirms the payment, and it is fulfilled at once. */
export async function payTestCheckout(userId: string, sessionId: string): Promise<FulfilledPayment> {
  const checkout = await getTestCheckout(userId, sessionId);
  if (checkout.status === "expired" || checkout.status === "failed") {
    throw new PaymentNotPaidError("This test checkout was cancelled. Start a new purchase from the Credits page.");
  }
  return fulfilPayment(sessionId);
}

/** "Cancel" on the test checkout: the pending payment can no longer be paid. */
export async function cancelTestCheckout(userId: string, sessionId: string): Promise<void> {
  await getTestCheckout(userId, sessionId);
  await settlePending(sessionId, "expired");
}
