import { z } from "zod";
import { getSessionUser } from "#app/domain/auth.server.ts";
import { CHECKOUT_RATE_LIMIT, createCheckout, PaymentError } from "#app/domain/payments.server.ts";
import { consumeRateLimit, tooManyRequests } from "#app/domain/rate-limit.server.ts";
import { BadRequestError, methodNotAllowed, readJsonBody } from "#app/lib/api.server.ts";
import { PAYMENT_MESSAGES } from "#app/lib/payments.ts";
import { requestContext } from "#app/request-context.ts";
import type { Route } from "./+types/create-payment";

const createPaymentBody = z.object({
  packageType: z.string({ error: "packageType is required: the id of a credit package (100, 500 or 1000)." }).trim(),
});

/** POST /api/create-payment { packageType } → { url } of the checkout (docs/spec.md §7). */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await getSessionUser(request);
  if (!user) return Response.json({ error: PAYMENT_MESSAGES.signInRequired }, { status: 401 });

  const limit = await consumeRateLimit(CHECKOUT_RATE_LIMIT, user.id);
  if (!limit.allowed) return tooManyRequests(limit, "Too many purchase attempts. Please wait a minute and try again.");

  try {
    const { packageType } = await readJsonBody(request, createPaymentBody);
    const checkout = await createCheckout(user, packageType);
    return Response.json({ url: checkout.url });
  } catch (error) {
    if (error instanceof BadRequestError) return Response.json({ error: error.message }, { status: 400 });
    if (error instanceof PaymentError) {
      if (error.status >= 500) context.get(requestContext).logger.error({ err: error.cause ?? error }, "checkout could not be created");
      return Response.json({ error: error.message }, { status: error.status });
    }
    throw error;
  }
}

export const loader = () => methodNotAllowed();
