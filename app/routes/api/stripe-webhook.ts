import { handleStripeWebhook, PaymentError } from "#app/domain/payments.server.ts";
import { methodNotAllowed } from "#app/lib/api.server.ts";
import { requestContext } from "#app/request-context.ts";
import type { Route } from "./+types/stripe-webhook";

/**
 * POST /api/stripe/webhook: Stripe's signed events. The raw bytes are verified before anything
 * reads them as JSON; a failure to fulfil answers 500 so Stripe delivers the event again.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { logger } = context.get(requestContext);
  const payload = new Uint8Array(await request.arrayBuffer());
  try {
    const result = await handleStripeWebhook(payload, request.headers.get("stripe-signature"));
    logger.info({ stripe: result }, "stripe webhook handled");
    return Response.json({ received: true });
  } catch (error) {
    if (error instanceof PaymentError) {
      logger.warn({ err: error }, "stripe webhook refused");
      return Response.json({ error: error.message }, { status: error.status });
    }
    logger.error({ err: error }, "stripe webhook failed");
    return Response.json({ error: "The event could not be processed; Stripe will retry it." }, { status: 500 });
  }
}

export const loader = () => methodNotAllowed();
