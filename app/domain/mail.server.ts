import nodemailer, { type Transporter } from "nodemailer";
import { env } from "../env.server.ts";
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
 * instead (the embedded default), so a local install can still follow a confirmation link.
 */
export async function sendMail(message: MailMessage): Promise<void> {
  const { SMTP_URL, MAIL_FROM } = env();
  if (!SMTP_URL) {
    logger().info(
      { mail: { from: MAIL_FROM, to: message.to, subject: message.subject, text: message.text } },
      `Mail to ${message.to} written to the log (SMTP_URL is not set): ${message.subject}`,
    );
    return;
  }
  await smtpTransport(SMTP_URL).sendMail({ from: MAIL_FROM, ...message });
}
