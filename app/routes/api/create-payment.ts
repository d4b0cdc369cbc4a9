import { z } from "zod";
import { createCheckout } from "#app/domain/payments.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { PAYMENT_MESSAGES, type CreatePaymentAnswer } from "#app/lib/payments.ts";

const createPaymentBody = z.object({
  packageType: z.string({ error: "packageType is required: the id of a credit package (100, 500 or 1000)." }).trim().max(100),
});

/** POST /api/create-payment { packageType } → { url } of the checkout (docs/spec.md §7). */
const createPayment = apiRoute({
  POST: endpoint({
    access: "user",
    signInMessage: PAYMENT_MESSAGES.signInRequired,
    body: createPaymentBody,
    handler: async ({ user, body }) => ({ url: (await createCheckout(user, body.packageType)).url }) satisfies CreatePaymentAnswer,
  }),
});

export const loader = createPayment;
export const action = createPayment;
