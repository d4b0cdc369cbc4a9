import Stripe from "stripe";
import { z } from "zod";
import { env } from "../env.server.ts";
import { InvalidInputError, NotFoundError } from "./errors.server.ts";
import { findPayment, fulfilPayment, sessionMatchesPayment, settlePending } from "./payments.server.ts";

/**
 * What Stripe tells us about a checkout by webhook (docs/decisions/009): the delivery's signature
 * is checked over its raw bytes before anything else, a paid session is fulfilled exactly once
 * (payments.server.ts), and a failed or expired one settles its pending payment.
 */

/** A webhook delivery that is not a well-formed event signed with our secret. */
export class WebhookRefusedError extends InvalidInputError {
  override name = "WebhookRefusedError";
}

export type WebhookOutcome =
  | { event: string; outcome: "credited" | "already-credited"; sessionId: string; userId: string; credits: number }
  | { event: string; outcome: "unpaid" | "unknown-session" | "mismatch" | "status-updated" | "ignored"; sessionId?: string };

/** How far a signature's timestamp may be from now, either way (Stripe's default, in seconds). */
const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * The parts of an event the handler reads, checked here rather than trusted from Stripe's types:
 * a signed event without them is refused as the sender's mistake (400, nothing changed) before it
 * can fail halfway as ours (500, logged as a server error). Statuses stay open strings, so a value
 * Stripe adds later reads as "not paid" rather than as a broken event.
 */
const webhookEventSchema = z.object({ type: z.string().min(1) });
const sessionReferenceSchema = z.object({ id: z.string().min(1) });
const settledSessionEventSchema = z.object({ data: z.object({ object: sessionReferenceSchema }) });
const paidSessionEventSchema = z.object({
  data: z.object({
    object: sessionReferenceSchema.extend({
      payment_status: z.string(),
      amount_total: z.number().int().nullable(),
      currency: z.string().nullable(),
      metadata: z.record(z.string(), z.string()).nullable(),
    }),
  }),
});

type WebhookSession = z.output<typeof paidSessionEventSchema>["data"]["object"];

/**
 * A Stripe webhook delivery. The signature over the raw body is checked before anything else;
 * a paid `checkout.session.completed` (or a delayed payment that succeeded) is fulfilled.
 */
export async function handleStripeWebhook(payload: Uint8Array, signature: string | null): Promise<WebhookOutcome> {
  const secret = env().STRIPE_WEBHOOK_SECRET;
  if (!secret) throw new NotFoundError("Stripe webhooks are not configured on this server.");
  const event = verifiedEvent(payload, signature, secret);
  const { type } = parseEvent(webhookEventSchema, event, "Stripe");

  switch (type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      return fulfilFromWebhook(type, parseEvent(paidSessionEventSchema, event, type).data.object);
    case "checkout.session.async_payment_failed":
    case "checkout.session.expired": {
      const sessionId = parseEvent(settledSessionEventSchema, event, type).data.object.id;
      const outcome = await settlePending(sessionId, type === "checkout.session.expired" ? "expired" : "failed");
      return { event: type, outcome, sessionId };
    }
    default:
      return { event: type, outcome: "ignored" };
  }
}

/** The delivered JSON, once the signature over its exact bytes is ours and neither stale nor post-dated. */
function verifiedEvent(payload: Uint8Array, signature: string | null, secret: string): unknown {
  if (!signature) throw new WebhookRefusedError("The Stripe-Signature header is missing.");
  let event: unknown;
  try {
    // Refuses a bad signature and one older than the tolerance, but not one dated ahead of now.
    event = Stripe.webhooks.constructEvent(Buffer.from(payload), signature, secret, WEBHOOK_TOLERANCE_SECONDS);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
      throw new WebhookRefusedError("The Stripe signature does not match this request.");
    }
    throw new WebhookRefusedError("The Stripe webhook body is not a JSON event.");
  }
  // A signature dated ahead would stay "recent" for as long as it is ahead: a leaked one could be
  // replayed for far longer than the tolerance allows.
  const signedAt = signatureTimestamp(signature);
  if (!Number.isSafeInteger(signedAt) || signedAt > Math.floor(Date.now() / 1000) + WEBHOOK_TOLERANCE_SECONDS) {
    throw new WebhookRefusedError(`The Stripe signature is dated in the future, beyond the ${WEBHOOK_TOLERANCE_SECONDS}-second tolerance.`);
  }
  return event;
}

/** When a Stripe-Signature header says it was signed: its `t=`, read as the SDK reads it (the last one, as an integer). */
function signatureTimestamp(header: string): number {
  let timestamp = Number.NaN;
  for (const item of header.split(",")) {
    const [key, value = ""] = item.split("=");
    if (key === "t") timestamp = Number.parseInt(value, 10);
  }
  return timestamp;
}

function parseEvent<S extends z.ZodType>(schema: S, event: unknown, eventType: string): z.output<S> {
  const parsed = schema.safeParse(event);
  if (parsed.success) return parsed.data;
  const field = parsed.error.issues[0]?.path.join(".");
  throw new WebhookRefusedError(
    `The ${eventType} event is malformed: ${field ? `"${field}" is missing or not valid` : "it is not a JSON object"}.`,
  );
}

async function fulfilFromWebhook(eventType: string, session: WebhookSession): Promise<WebhookOutcome> {
  const sessionId = session.id;
  if (session.payment_status !== "paid") return { event: eventType, outcome: "unpaid", sessionId };
  const payment = await findPayment(sessionId);
  // A session another integration on the same Stripe account created: not ours to credit.
  if (!payment) return { event: eventType, outcome: "unknown-session", sessionId };
  if (!sessionMatchesPayment(session, payment)) return { event: eventType, outcome: "mismatch", sessionId };
  const fulfilled = await fulfilPayment(sessionId);
  return {
    event: eventType,
    outcome: fulfilled.newlyCredited ? "credited" : "already-credited",
    sessionId,
    userId: fulfilled.userId,
    credits: fulfilled.credits,
  };
}
