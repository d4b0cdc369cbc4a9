import { count, desc } from "drizzle-orm";
import { db } from "../db/database.server.ts";
import { contactMessages, type ContactMessage } from "../db/schema.ts";

/** How many messages the panel shows at once; the total is shown beside them. */
export const CONTACT_MESSAGES_SHOWN = 200;

export interface ContactInbox {
  messages: ContactMessage[];
  total: number;
}

/** The contact form's messages for the admins, newest first. */
export async function listContactMessages(limit = CONTACT_MESSAGES_SHOWN): Promise<ContactInbox> {
  const [messages, [totals]] = await Promise.all([
    db().select().from(contactMessages).orderBy(desc(contactMessages.createdAt), desc(contactMessages.id)).limit(limit),
    db().select({ total: count() }).from(contactMessages),
  ]);
  return { messages, total: totals?.total ?? 0 };
}
