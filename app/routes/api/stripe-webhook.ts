import { handleStripeWebhook, WebhookRefusedError } from "#app/domain/stripe-webhooks.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";

/**
 * POST /api/stripe/webhook: Stripe's signed events. The raw bytes are verified before anything
 * reads them as JSON. A delivery that is unsigned, badly signed, dated outside the tolerance or
 * malformed is refused with 400 and changes nothing; a failure to fulfil answers 5xx so Stripe
 * delivers the event again.
 */
const webhook = apiRoute({
  POST: endpoint({
    // Stripe signs the body; it has no session.
    access: "public",
    handler: async ({ request, logger }) => {
      const payload = new Uint8Array(await request.arrayBuffer());
      try {
        const result = await handleStripeWebhook(payload, request.headers.get("stripe-signature"));
        logger.info({ stripe: result }, "stripe webhook handled");
      } catch (error) {
        // A refusal is otherwise seen only in Stripe's dashboard, as retries of a delivery that
        // never succeeds: a wrong secret or a changed event format must show in our log too.
        if (error instanceof WebhookRefusedError) logger.warn({ err: error }, "stripe webhook refused");
        throw error;
      }
      return { received: true };
    },
  }),
});

export const loader = webhook;
export const action = webhook;
