import type { MailMessage } from "./mail.server.ts";

export function escapeHtml(value: string) {
  return value.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

interface AccountMailInput {
  to: string;
  name: string;
  url: string;
  siteName: string;
  validHours: number;
}

/** One layout for the mails that carry a single link: greeting, what it is for, the button, the fine print. */
function linkMail({
  to,
  name,
  url,
  siteName,
  subject,
  purpose,
  action,
  notice,
}: Omit<AccountMailInput, "validHours"> & { subject: string; purpose: string; action: string; notice: string }): MailMessage {
  const greeting = name ? `Hello ${name},` : "Hello,";
  const text = [greeting, "", `${purpose} Open this link:`, "", url, "", notice, "", `— ${siteName}`].join("\n");
  const html = `<!doctype html>
<html lang="en">
  <body style="margin:0;padding:32px 16px;background:#120d1c;color:#f4ede1;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.6">
    <div style="max-width:520px;margin:0 auto;background:#1c1529;border:1px solid #2e2540;border-radius:12px;padding:32px">
      <h1 style="margin:0 0 16px;font-family:Georgia,serif;font-size:26px;color:#d8ae5e">${escapeHtml(siteName)}</h1>
      <p style="margin:0 0 16px">${escapeHtml(greeting)}</p>
      <p style="margin:0 0 24px">${escapeHtml(purpose)}</p>
      <p style="margin:0 0 24px"><a href="${escapeHtml(url)}" style="display:inline-block;background:#d8ae5e;color:#120d1c;text-decoration:none;font-weight:bold;padding:12px 24px;border-radius:999px">${escapeHtml(action)}</a></p>
      <p style="margin:0 0 8px;color:#b9ad9c;font-size:14px">Or open this link: <a href="${escapeHtml(url)}" style="color:#d8ae5e;word-break:break-all">${escapeHtml(url)}</a></p>
      <p style="margin:0;color:#b9ad9c;font-size:14px">${escapeHtml(notice)}</p>
    </div>
  </body>
</html>`;
  return { to, subject, text, html };
}

function hours(count: number) {
  return count === 1 ? "1 hour" : `${count} hours`;
}

/** The mail with the link that confirms a new account's email address. */
export function confirmationMail({ validHours, ...input }: AccountMailInput): MailMessage {
  return linkMail({
    ...input,
    subject: `Confirm your email for ${input.siteName}`,
    purpose: `Please confirm the email address of your ${input.siteName} account.`,
    action: "Confirm my email",
    notice: `The link works for ${hours(validHours)}. If you did not create an account, you can ignore this mail.`,
  });
}

/** The mail with the link to choose a new password. */
export function passwordResetMail({ validHours, ...input }: AccountMailInput): MailMessage {
  return linkMail({
    ...input,
    subject: `Reset your ${input.siteName} password`,
    purpose: `Someone asked to reset the password of your ${input.siteName} account. If it was you, choose a new password.`,
    action: "Choose a new password",
    notice: `The link works for ${hours(validHours)} and only once. If you did not ask for it, ignore this mail; your password stays as it is.`,
  });
}
