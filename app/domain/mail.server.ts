import { randomUUID } from "node:crypto";
import nodemailer, { type Transporter } from "nodemailer";
import { env, type Environment } from "../env.server.ts";
import { logger } from "../logger.server.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Where the recipient's answer goes, when not to MAIL_FROM. */
  replyTo?: string;
}

let transport: Transporter | undefined;

function smtpTransport(smtpUrl: string): Transporter {
  // One transport per process: nodemailer reuses it, and a slow server cannot hold a request forever.
  transport ??= nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
  return transport;
}

/**
 * Sends a mail from MAIL_FROM through SMTP_URL. Without SMTP_URL the mail is written to the log
 * instead (the embedded default), so a local install can still follow a confirmation link; in the
 * demo it is also kept for the demo mailbox.
 */
export async function sendMail(message: MailMessage): Promise<void> {
  const config = env();
  const { SMTP_URL, MAIL_FROM } = config;
  if (!SMTP_URL) {
    logger().info(
      { mail: { from: MAIL_FROM, to: message.to, subject: message.subject, text: message.text } },
      `Mail to ${message.to} written to the log (SMTP_URL is not set): ${message.subject}`,
    );
    if (demoMailboxOpen(config)) keepForDemoMailbox({ ...message, from: MAIL_FROM });
    return;
  }
  await smtpTransport(SMTP_URL).sendMail({ from: MAIL_FROM, ...message });
}

/** A mail the demo would have sent, as the demo mailbox shows it. */
export interface KeptMail {
  id: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  /** ISO time. */
  sentAt: string;
}

/** The newest mails the demo mailbox keeps; older ones are still in the log. */
export const DEMO_MAILBOX_SIZE = 50;

/**
 * The demo mailbox (docs/decisions/049): where the demo — the test checkout, and no SMTP_URL —
 * shows the mail it would have sent (a confirmation, a password reset), so "check your email"
 * can be followed in the browser. Everyone who reaches the site reads every mail there, which is
 * what a demo on one's own machine wants and what a real site must never do: a site that sells
 * for real (Stripe, or nothing) or sends its mail has none.
 */
export function demoMailboxOpen(config: Pick<Environment, "paymentsProvider" | "SMTP_URL"> = env()): boolean {
  return config.paymentsProvider === "test" && !config.SMTP_URL;
}

/**
 * Kept in this process's memory, not the database: the demo is one process (PGlite opens its
 * directory for one), its mail matters for minutes, and a link-bearing mail (a password reset)
 * is better forgotten at a restart than kept in a table production would carry empty.
 */
let demoMail: KeptMail[] = [];

function keepForDemoMailbox({ from, to, subject, text }: Omit<MailMessage, "html" | "replyTo"> & { from: string }) {
  demoMail = [{ id: randomUUID(), from, to, subject, text, sentAt: new Date().toISOString() }, ...demoMail].slice(0, DEMO_MAILBOX_SIZE);
}

/** The demo mailbox's mails, newest first. */
export function demoMailbox(): readonly KeptMail[] {
  return demoMail;
}
