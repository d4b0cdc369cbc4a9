import { describe, expect, it } from "vitest";
import { confirmationMail, passwordResetMail } from "./account-mail.server.ts";

describe("confirmationMail", () => {
  const url = "https://play.example/api/auth/verify-email?token=abc.def&callbackURL=%2Fauth%2Fverify-email";

  it("carries the link in text and HTML, addressed to the player", () => {
    const mail = confirmationMail({ to: "lin@example.com", name: "Lin", url, siteName: "Play as Empress", validHours: 24 });
    expect(mail.to).toBe("lin@example.com");
    expect(mail.subject).toBe("Confirm your email for Play as Empress");
    expect(mail.text).toContain("Hello Lin,");
    expect(mail.text).toContain("Please confirm the email address of your Play as Empress account.");
    expect(mail.text).toContain(url);
    expect(mail.text).toContain("24 hours");
    expect(mail.html).toContain(`href="${url.replaceAll("&", "&amp;")}"`);
  });

  it("escapes names and site names in the HTML", () => {
    const mail = confirmationMail({ to: "x@example.com", name: '<img src=x onerror="alert(1)">', url, siteName: "A & B", validHours: 1 });
    expect(mail.html).not.toContain("<img");
    expect(mail.html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(mail.html).toContain("A &amp; B");
  });
});

describe("passwordResetMail", () => {
  it("carries the reset link and says what to do if it was not asked for", () => {
    const url = "https://play.example/api/auth/reset-password/abc?callbackURL=%2Fauth%2Freset-password";
    const mail = passwordResetMail({ to: "lin@example.com", name: "", url, siteName: "Play as Empress", validHours: 1 });
    expect(mail.subject).toBe("Reset your Play as Empress password");
    expect(mail.text.startsWith("Hello,\n")).toBe(true);
    expect(mail.text).toContain(url);
    expect(mail.text).toContain("The link works for 1 hour and only once.");
    expect(mail.html).toContain("Choose a new password");
  });
});
