import { z } from "zod";
import { db } from "../db/database.server.ts";
import { contactMessages } from "../db/schema.ts";
import { enforceRateLimit, type RateLimitRule } from "./rate-limit.server.ts";

/** The contact form: every field required (docs/spec.md §5), stored for the admins to read. */

export const contactMessageSchema = z.object({
  name: z.string().trim().min(1, "Please enter your name.").max(100, "Please keep your name under 100 characters."),
  email: z
    .string()
    .trim()
    .min(1, "Please enter your email address.")
    .max(254, "That email address is too long.")
    .pipe(z.email("Please enter a valid email address.")),
  subject: z.string().trim().min(1, "Please enter a subject.").max(200, "Please keep the subject under 200 characters."),
  message: z.string().trim().min(1, "Please enter your message.").max(5000, "Please keep your message under 5,000 characters."),
});

export type ContactMessageInput = z.infer<typeof contactMessageSchema>;
export type ContactField = keyof ContactMessageInput;

/** Per visitor address: enough for a real conversation, too few to flood the inbox. */
const CONTACT_RATE_LIMIT: RateLimitRule = { name: "contact", limit: 5, windowMs: 60 * 60 * 1000 };

const CONTACT_RATE_LIMITED_MESSAGE =
  "You have sent several messages in a short time. Please wait a while before sending another, or email us directly.";

/**
 * A message from the contact form, at most CONTACT_RATE_LIMIT an hour per sender (the account, or
 * the address of a visitor); over it, RateLimitedError and nothing is stored.
 */
export async function sendContactMessage(input: ContactMessageInput, sender: { userId?: string; clientAddress: string }) {
  const subject = sender.userId ? `user:${sender.userId}` : `ip:${sender.clientAddress}`;
  await enforceRateLimit(CONTACT_RATE_LIMIT, subject, () => CONTACT_RATE_LIMITED_MESSAGE);
  return saveContactMessage(input, sender.userId);
}

async function saveContactMessage(input: ContactMessageInput, userId?: string): Promise<{ id: string }> {
  const [row] = await db()
    .insert(contactMessages)
    .values({ ...input, userId: userId ?? null })
    .returning({ id: contactMessages.id });
  if (!row) throw new Error("the contact message was not stored");
  return row;
}
