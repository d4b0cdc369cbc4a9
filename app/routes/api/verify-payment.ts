import { z } from "zod";
import { verifyPayment } from "#app/domain/payments.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import type { VerifyPaymentAnswer } from "#app/lib/payments.ts";

const verifyPaymentBody = z.object({
  sessionId: z
    .string({ error: "sessionId is required: the checkout session to verify." })
    .trim()
    .min(1, "sessionId is required: the checkout session to verify.")
    .max(255, "sessionId is too long."),
});

/**
 * POST /api/verify-payment { sessionId } → { success, creditsAdded, balance } (docs/spec.md §7). A
 * payment that is unpaid, unknown or someone else's is refused (payment_not_completed, not_found)
 * and credits nothing.
 */
const verify = apiRoute({
  POST: endpoint({
    access: "user",
    body: verifyPaymentBody,
    handler: async ({ user, body }) => ({ success: true, ...(await verifyPayment(user.id, body.sessionId)) }) satisfies VerifyPaymentAnswer,
  }),
});

export const loader = verify;
export const action = verify;
