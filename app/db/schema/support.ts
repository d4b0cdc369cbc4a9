import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.ts";
import { user } from "./accounts.ts";

/**
 * Support: what visitors send through the contact form, and the admins' answers.
 */

export const contactMessages = pgTable(
  "contact_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    /** When an admin marked it handled; null while it waits. */
    handledAt: timestamp("handled_at", { withTimezone: true }),
    handledBy: text("handled_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (table) => [
    index("contact_messages_created_idx").on(table.createdAt),
    index("contact_messages_user_idx").on(table.userId),
    index("contact_messages_handled_idx").on(table.handledAt, table.createdAt),
    index("contact_messages_handled_by_idx").on(table.handledBy),
  ],
);

/** An admin's answer to a contact message, sent by email and kept with the message. */
export const contactReplies = pgTable(
  "contact_replies",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    messageId: uuid("message_id")
      .notNull()
      .references(() => contactMessages.id, { onDelete: "cascade" }),
    authorId: text("author_id").references(() => user.id, { onDelete: "set null" }),
    /** Who wrote it, as they were then: the author's account may change or go. */
    authorName: text("author_name").notNull(),
    authorEmail: text("author_email").notNull(),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("contact_replies_message_idx").on(table.messageId, table.createdAt), index("contact_replies_author_idx").on(table.authorId)],
);

export type ContactMessage = typeof contactMessages.$inferSelect;

export type ContactReply = typeof contactReplies.$inferSelect;
