import { z } from "zod";
import { requireUser } from "#app/domain/auth.server.ts";
import { PaymentError, verifyPayment } from "#app/domain/payments.server.ts";
import { BadRequestError, methodNotAllowed, readJsonBody } from "#app/lib/api.server.ts";
import type { VerifyPaymentAnswer } from "#app/lib/payments.ts";
import { requestContext } from "#app/request-context.ts";
import type { Route } from "./+types/verify-payment";

const verifyPaymentBody = z.object({
  sessionId: z
    .string({ error: "sessionId is required: the checkout session to verify." })
    .trim()
    .min(1, "sessionId is required: the checkout session to verify.")
    .max(255, "sessionId is too long."),
});

/**
 * POST /api/verify-payment { sessionId } → { success, creditsAdded, balance } (docs/spec.md §7). A payment
 * that is unpaid, unknown or someone else's answers { success: false, error } and credits nothing.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request);
  try {
    const { sessionId } = await readJsonBody(request, verifyPaymentBody);
    const verified = await verifyPayment(user.id, sessionId);
    return Response.json({ success: true, ...verified } satisfies VerifyPaymentAnswer);
  } catch (error) {
    if (error instanceof BadRequestError) return Response.json({ error: error.message }, { status: 400 });
    if (error instanceof PaymentError) {
      if (error.status >= 500) {
        context.get(requestContext).logger.error({ err: error.cause ?? error }, "payment could not be verified");
        return Response.json({ error: error.message } satisfies VerifyPaymentAnswer, { status: error.status });
      }
      return Response.json({ success: false, error: error.message } satisfies VerifyPaymentAnswer, { status: error.status });
    }
    throw error;
  }
}

export const loader = () => methodNotAllowed();
