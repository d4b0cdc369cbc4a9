import { z } from "zod";

/** The most credits one grant can add. */
export const MAX_CREDIT_GRANT = 100_000;
export const GRANT_NOTE_MAX_LENGTH = 500;

export const creditGrantSchema = z.object({
  credits: z
    .number({ error: "Enter the number of credits to grant." })
    .int("Grant whole credits.")
    .min(1, "Grant at least 1 credit.")
    .max(MAX_CREDIT_GRANT, `Grant at most ${MAX_CREDIT_GRANT.toLocaleString("en-US")} credits at once.`),
  note: z
    .string({ error: "Say why you grant these credits." })
    .trim()
    .min(1, "Say why you grant these credits.")
    .max(GRANT_NOTE_MAX_LENGTH, `The reason can be at most ${GRANT_NOTE_MAX_LENGTH} characters.`),
  requestId: z.uuid("The grant needs a request id (a UUID) so that sending it twice grants once."),
});
export type CreditGrantInput = z.output<typeof creditGrantSchema>;

export const playerStatusSchema = z.object({ disabled: z.boolean({ error: "Say whether the account is disabled (true or false)." }) });
