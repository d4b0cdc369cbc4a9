import { and, asc, count, desc, eq, inArray, isNotNull, isNull, type SQL } from "drizzle-orm";
import { db } from "../db/database.server.ts";
import { contactMessages, contactReplies, type ContactMessage, type ContactReply } from "../db/schema.ts";
import { env } from "../env.server.ts";
import type { InboxFilter } from "../lib/admin-inbox.ts";
import { escapeHtml } from "./account-mail.server.ts";
import { UnavailableError, NotFoundError } from "./errors.server.ts";
import { sendMail } from "./mail.server.ts";

/** How many messages the panel shows at once; the total is shown beside them. */
export const CONTACT_MESSAGES_SHOWN = 200;

export type InboxMessage = ContactMessage & { replies: ContactReply[] };

export interface ContactInbox {
  messages: InboxMessage[];
  /** Messages the filter matches. */
  total: number;
  /** Messages still waiting for an admin, whatever the filter. */
  unhandled: number;
}

const FILTERS: Record<InboxFilter, SQL | undefined> = {
  all: undefined,
  unhandled: isNull(contactMessages.handledAt),
  handled: isNotNull(contactMessages.handledAt),
};

/** The contact form's messages for the admins, newest first, each with the replies sent to it. */
export async function listContactMessages({
  filter = "all",
  limit = CONTACT_MESSAGES_SHOWN,
}: { filter?: InboxFilter; limit?: number } = {}): Promise<ContactInbox> {
  const where = FILTERS[filter];
  const [messages, [totals], [waiting]] = await Promise.all([
    db().select().from(contactMessages).where(where).orderBy(desc(contactMessages.createdAt), desc(contactMessages.id)).limit(limit),
    db().select({ total: count() }).from(contactMessages).where(where),
    db().select({ total: count() }).from(contactMessages).where(FILTERS.unhandled),
  ]);
  const replies = messages.length
    ? await db()
        .select()
        .from(contactReplies)
        .where(
          inArray(
            contactReplies.messageId,
            messages.map((message) => message.id),
          ),
        )
        .orderBy(asc(contactReplies.createdAt))
    : [];
  return {
    messages: messages.map((message) => ({ ...message, replies: replies.filter((reply) => reply.messageId === message.id) })),
    total: totals?.total ?? 0,
    unhandled: waiting?.total ?? 0,
  };
}

/** Marks a message handled (by this admin, now) or waiting again. */
export async function setMessageHandled(id: string, handled: boolean, adminId: string): Promise<ContactMessage> {
  const [changed] = await db()
    .update(contactMessages)
    .set(handled ? { handledAt: new Date(), handledBy: adminId } : { handledAt: null, handledBy: null })
    .where(eq(contactMessages.id, id))
    .returning();
  if (!changed) throw new NotFoundError("This message no longer exists.");
  return changed;
}

export interface ReplyAuthor {
  id: string;
  name: string;
  email: string;
}

/**
 * Answers a message by email (through SMTP_URL, from MAIL_FROM, with the admin's address to reply
 * to) and keeps the answer with the message, which it marks handled. Nothing is stored when the
 * mail could not be sent, so what the thread shows was sent.
 */
export async function replyToMessage(id: string, body: string, author: ReplyAuthor): Promise<ContactReply> {
  const [message] = await db().select().from(contactMessages).where(eq(contactMessages.id, id));
  if (!message) throw new NotFoundError("This message no longer exists.");
  try {
    await sendMail(replyMail(message, body, author));
  } catch (error) {
    throw new UnavailableError("mail_unavailable", "The reply could not be sent: the mail server did not accept it. Please try again.", error);
  }
  return db().transaction(async (tx) => {
    const [reply] = await tx
      .insert(contactReplies)
      .values({ messageId: id, authorId: author.id, authorName: author.name, authorEmail: author.email, body })
      .returning();
    await tx
      .update(contactMessages)
      .set({ handledAt: new Date(), handledBy: author.id })
      .where(and(eq(contactMessages.id, id), isNull(contactMessages.handledAt)));
    if (!reply) throw new Error("The reply could not be stored.");
    return reply;
  });
}

function replyMail(message: ContactMessage, body: string, author: ReplyAuthor) {
  const siteName = env().SITE_NAME;
  const subject = message.subject.toLowerCase().startsWith("re:") ? message.subject : `Re: ${message.subject}`;
  const quoted = message.message
    .split("\n")
    .map((line) => `> ${line}`)
    .join("\n");
  const text = [`Hello ${message.name},`, "", body, "", `— ${author.name}, ${siteName}`, "", `${message.name} wrote:`, quoted].join("\n");
  const paragraphs = body
    .split(/\n{2,}/)
    .map((paragraph) => `<p style="margin:0 0 16px;white-space:pre-wrap">${escapeHtml(paragraph)}</p>`)
    .join("");
  const html = `<!doctype html>
<html lang="en">
  <body style="margin:0;padding:32px 16px;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.6;color:#1c1529">
    <p style="margin:0 0 16px">Hello ${escapeHtml(message.name)},</p>
    ${paragraphs}
    <p style="margin:0 0 24px">— ${escapeHtml(author.name)}, ${escapeHtml(siteName)}</p>
    <blockquote style="margin:0;padding-left:12px;border-left:3px solid #d8ae5e;color:#5a5068;white-space:pre-wrap">${escapeHtml(message.message)}</blockquote>
  </body>
</html>`;
  return { to: message.email, subject, text, html, replyTo: author.email };
}
