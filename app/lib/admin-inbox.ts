import { z } from "zod";

/** Which contact messages the inbox lists (`?inbox=` on /admin). */
export const INBOX_FILTERS = ["all", "unhandled", "handled"] as const;
export type InboxFilter = (typeof INBOX_FILTERS)[number];

/** The longest reply an admin can send. */
export const REPLY_MAX_LENGTH = 10_000;

export const replyInputSchema = z.object({
  body: z
    .string({ error: "Write the reply first." })
    .trim()
    .min(1, "Write the reply first.")
    .max(REPLY_MAX_LENGTH, `A reply can be at most ${REPLY_MAX_LENGTH.toLocaleString("en-US")} characters.`),
});

export const handledInputSchema = z.object({ handled: z.boolean({ error: "Say whether the message is handled (true or false)." }) });
