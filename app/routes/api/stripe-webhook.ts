import { handleStripeWebhook } from "#app/domain/payments.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";

/**
 * POST /api/stripe/webhook: Stripe's signed events. The raw bytes are verified before anything
 * reads them as JSON; a failure to fulfil answers 5xx so Stripe delivers the event again.
 */
const webhook = apiRoute({
  POST: endpoint({
    // Stripe signs the body; it has no session.
    access: "public",
    handler: async ({ request, logger }) => {
      const payload = new Uint8Array(await request.arrayBuffer());
      const result = await handleStripeWebhook(payload, request.headers.get("stripe-signature"));
      logger.info({ stripe: result }, "stripe webhook handled");
      return { received: true };
    },
  }),
});

export const loader = webhook;
export const action = webhook;
