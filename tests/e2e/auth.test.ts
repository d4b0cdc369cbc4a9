import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { user } from "#app/db/schema.ts";
import { STARTER_CREDITS } from "#app/lib/constants.ts";
import { signUp, testClientAddress, uniqueEmail } from "#tests/helpers/accounts.ts";
import { expectToast, seriousAccessibilityViolations } from "#tests/helpers/browser.ts";
import { browserTest, fakeGoogle, fakeSmtp } from "#tests/helpers/fixtures.ts";

const SCREENSHOTS = "test-results/auth";

const test = browserTest
  .extend("google", { scope: "file" }, fakeGoogle)
  .extend("smtp", { scope: "file" }, fakeSmtp)
  /** A tab on `path` whose requests come from their own client address, so journeys do not share rate limits. */
  .extend("openPage", ({ browser, server }) => async (path: string, size?: { width: number; height: number }) => {
    const page = await browser.newPage(size);
    await page.setExtraHTTPHeaders({ "X-Forwarded-For": testClientAddress() });
    await page.goto(new URL(path, server.url).href);
    await page.waitForLoadState("networkidle");
    return page;
  });

test.override("serverEnv", ({ smtp, google }) => ({
  SMTP_URL: smtp.url,
  GOOGLE_CLIENT_ID: "play-as-empress-e2e",
  GOOGLE_CLIENT_SECRET: "google-e2e-secret",
  GOOGLE_DISCOVERY_URL: google.discoveryUrl,
}));

test.beforeEach(async ({ browser }) => {
  await browser.context.clearCookies();
});

async function fillSignUp(page: Page, { email, password, username = "" }: { email: string; password: string; username?: string }) {
  await page.getByRole("tab", { name: "Sign Up" }).click();
  await page.locator("#signup-email").fill(email);
  if (username) await page.locator("#signup-username").fill(username);
  await page.locator("#signup-password").fill(password);
  await page.getByRole("button", { name: "Create Account" }).click();
}

async function fillSignIn(page: Page, { email, password }: { email: string; password: string }) {
  await page.locator("#signin-email").fill(email);
  await page.locator("#signin-password").fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
}

const visibleBalance = (page: Page) => page.locator('[data-testid="credits-balance"]:visible');

/** Console errors other than the browser's own line for an expected 4xx answer. */
const unexpectedErrors = (page: Page & { errors: string[] }) =>
  page.errors.filter((error) => !/Failed to load resource: the server responded with a status of 4\d\d/.test(error));

describe("the /auth page", () => {
  test("opens on Sign In, with an email field of type email, and passes axe", async ({ openPage }) => {
    const page = await openPage("/auth");
    expect(await page.getByRole("tab", { name: "Sign In" }).getAttribute("aria-selected")).toBe("true");
    expect(await page.locator("#signin-email").getAttribute("type")).toBe("email");
    expect(await page.getByRole("button", { name: "Continue with Google" }).isEnabled()).toBe(true);
    await page.getByRole("tab", { name: "Sign Up" }).click();
    expect(await page.getByRole("button", { name: "Sign up with Google" }).isVisible()).toBe(true);
    expect(await page.getByLabel("Username (optional)").isVisible()).toBe(true);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expect(page.errors).toEqual([]);
    await page.close();
  });

  test("fits a 375 px phone without sideways scrolling", async ({ openPage }) => {
    const page = await openPage("/auth", { width: 375, height: 812 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.close();
  });

  test("says 'Please fill in all fields' for empty fields on both tabs", async ({ openPage }) => {
    const page = await openPage("/auth");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expectToast(page, "Error", "Please fill in all fields");
    await page.getByRole("button", { name: "Close toast" }).click();
    await page.locator("[data-sonner-toast]").waitFor({ state: "detached" });
    await page.getByRole("tab", { name: "Sign Up" }).click();
    await page.locator("#signup-email").fill(uniqueEmail("half"));
    await page.getByRole("button", { name: "Create Account" }).click();
    await expectToast(page, "Error", "Please fill in all fields");
    await page.close();
  });

  test("sends a signed-in visitor to the home page", async ({ openPage, login }) => {
    await login();
    const page = await openPage("/auth");
    expect(new URL(page.url()).pathname).toBe("/");
    await page.close();
  });
});

describe("sign-up, confirmation and sign-out", () => {
  test("signs up, greets with the starter credits, shows the balance and email, confirms by mail, signs out", async ({
    server,
    openPage,
    smtp,
  }) => {
    const email = uniqueEmail("journey");
    const page = await openPage("/auth");
    await fillSignUp(page, { email, password: "correct horse battery", username: "Empress Lin" });

    await expectToast(
      page,
      "Welcome to Play as Empress!",
      `You've received ${STARTER_CREDITS} free credits! Each message costs 1 credit. Please check your email to confirm your account.`,
    );
    await page.waitForURL(`${server.url}/`);
    await visibleBalance(page)
      .filter({ hasText: `${STARTER_CREDITS} Credits` })
      .waitFor();
    expect(await page.getByRole("banner").getByText(email).isVisible()).toBe(true);

    const mail = await smtp.waitForMail((candidate) => candidate.to.includes(email));
    const link = /https?:\/\/\S+\/api\/auth\/verify-email\?token=\S+/.exec(mail.text)?.[0];
    expect(link).toBeTruthy();
    await page.goto(link!);
    await page.getByRole("heading", { name: "Email Confirmed" }).waitFor();
    const [row] = await server.connection.db.select({ emailVerified: user.emailVerified }).from(user).where(eq(user.email, email));
    expect(row?.emailVerified).toBe(true);

    await page.getByRole("banner").getByRole("button", { name: "Sign Out" }).click();
    await page.getByRole("banner").getByRole("link", { name: "Sign In" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    expect(await visibleBalance(page).count()).toBe(0);
    expect(await page.getByText(email).count()).toBe(0);
    expect(page.errors).toEqual([]);
    await page.close();
  });

  test("refuses a duplicate email and a short password with the server's words", async ({ server, openPage }) => {
    const existing = await signUp(server);
    const page = await openPage("/auth");
    await fillSignUp(page, { email: existing.email, password: "another good password" });
    await expectToast(page, "Sign Up Failed", "An account with this email already exists");

    await page.locator("#signup-email").fill(uniqueEmail("short"));
    await page.locator("#signup-password").fill("short");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expectToast(page, "Sign Up Failed", "Password must be at least 8 characters");
    expect(new URL(page.url()).pathname).toBe("/auth");
    expect(unexpectedErrors(page)).toEqual([]);
    await page.close();
  });
});

describe("a visitor pressing Start Playing Now", () => {
  const reasonLine = `Create a free account to play Empress Simulator — you start with ${STARTER_CREDITS} free credits.`;

  test("lands on the Sign Up form that says why, signs up and arrives at the game", async ({ server, openPage }) => {
    const email = uniqueEmail("visitor");
    const page = await openPage("/game/empress-simulator");
    await page.getByRole("link", { name: "Start Playing Now" }).first().click();
    await page.waitForURL((url) => url.pathname === "/auth");
    expect(new URL(page.url()).searchParams.get("redirectTo")).toBe("/play/empress-simulator");
    await page.getByText(reasonLine, { exact: true }).waitFor();
    expect(await page.getByRole("tab", { name: "Sign Up" }).getAttribute("aria-selected")).toBe("true");
    expect(await page.getByRole("form", { name: "Sign up with email" }).isVisible()).toBe(true);
    expect(await page.locator("[data-sonner-toast]").count()).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/sign-up-to-play-1280.png`, fullPage: true });

    await fillSignUp(page, { email, password: "correct horse battery" });
    await expectToast(page, "Welcome to Play as Empress!", `You've received ${STARTER_CREDITS} free credits!`);
    await page.waitForURL(`${server.url}/play/empress-simulator`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Empress Simulator");
    await page.getByText(`Playing as: ${email}`).waitFor();
    expect(page.errors).toEqual([]);
    await page.close();
  });

  test("fits the explanation on a 360 px phone without sideways scrolling", async ({ openPage }) => {
    const page = await openPage("/play/empress-simulator", { width: 360, height: 780 });
    await page.getByText(reasonLine, { exact: true }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    await page.screenshot({ path: `${SCREENSHOTS}/sign-up-to-play-360.png`, fullPage: true });
    await page.close();
  });
});

describe("sign-in", () => {
  test("says 'Sign In Failed' with 'Invalid email or password' for a wrong password", async ({ server, openPage }) => {
    const player = await signUp(server);
    const page = await openPage("/auth");
    await fillSignIn(page, { email: player.email, password: "not my password" });
    await expectToast(page, "Sign In Failed", "Invalid email or password");
    expect(new URL(page.url()).pathname).toBe("/auth");
    expect(unexpectedErrors(page)).toEqual([]);
    await page.close();
  });

  test("says 'Sign In Failed' with the wait once the account is locked, even for the right password", async ({ server, openPage }) => {
    const player = await signUp(server);
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      const guess = await server.fetch("/api/auth/sign-in/email", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Forwarded-For": testClientAddress() },
        body: JSON.stringify({ email: player.email, password: `wrong guess ${attempt}` }),
      });
      expect(guess.status, `wrong password ${attempt}`).toBe(401);
    }
    const page = await openPage("/auth");
    await fillSignIn(page, player);
    await expectToast(page, "Sign In Failed", "Too many failed sign-in attempts for this account. Please wait 15 minutes and try again.");
    expect(new URL(page.url()).pathname).toBe("/auth");
    expect(unexpectedErrors(page)).toEqual([]);
    await page.close();
  });

  test("comes back to the page that asked for sign-in", async ({ server, openPage }) => {
    const player = await signUp(server);
    const page = await openPage("/auth/verify-email");
    expect(page.url()).toBe(`${server.url}/auth?redirectTo=%2Fauth%2Fverify-email`);
    await fillSignIn(page, player);
    await expectToast(page, "Welcome back!", "You have successfully signed in");
    await page.waitForURL(`${server.url}/auth/verify-email`);
    await page.getByRole("heading", { name: "Confirm Your Email" }).waitFor();
    await visibleBalance(page)
      .filter({ hasText: `${STARTER_CREDITS} Credits` })
      .waitFor();

    await page.getByRole("button", { name: "Resend confirmation email" }).click();
    await expectToast(page, "Confirmation email sent", player.email);
    expect(page.errors).toEqual([]);
    await page.close();
  });

  test("ignores an off-site redirect target", async ({ server, openPage }) => {
    const player = await signUp(server);
    const page = await openPage("/auth?redirectTo=https%3A%2F%2Fevil.example%2Fphish");
    await fillSignIn(page, player);
    await page.waitForURL(`${server.url}/`);
    await visibleBalance(page).waitFor();
    await page.close();
  });
});

describe("forgotten password", () => {
  test("mails a link, sets a new password on the page it opens, then signs in with it", async ({ server, openPage, smtp }) => {
    const player = await signUp(server);
    const page = await openPage("/auth");
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.getByRole("heading", { name: "Reset Your Password" }).waitFor();
    await page.locator("#reset-email").fill(player.email);
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await expectToast(page, "Check your email", player.email);

    const mail = await smtp.waitForMail((candidate) => candidate.to.includes(player.email) && candidate.subject.startsWith("Reset your"));
    const link = /https?:\/\/\S+\/api\/auth\/reset-password\/\S+/.exec(mail.text)?.[0];
    expect(link).toBeTruthy();
    await page.goto(link!);
    await page.getByRole("heading", { name: "Choose a New Password" }).waitFor();
    await page.locator("#new-password").fill("a brand new passphrase");
    await page.getByRole("button", { name: "Save New Password" }).click();
    await expectToast(page, "Password changed", "Sign in with your new password.");
    await page.waitForURL(`${server.url}/auth`);

    await fillSignIn(page, { email: player.email, password: "a brand new passphrase" });
    await page.waitForURL(`${server.url}/`);
    await visibleBalance(page).waitFor();
    expect(page.errors).toEqual([]);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.close();
  });
});

describe("Google sign-in", () => {
  test("creates the account with the starter credits and signs in; a second time it just signs in", async ({ server, openPage, google }) => {
    const email = uniqueEmail("google-e2e");
    google.signInAs({ sub: "google-e2e-1", email, name: "Consort Mei" });
    const page = await openPage("/auth");
    await page.getByRole("button", { name: "Continue with Google" }).click();
    await expectToast(page, "Welcome to Play as Empress!", `You've received ${STARTER_CREDITS} free credits!`);
    await page.waitForURL(`${server.url}/`);
    await visibleBalance(page)
      .filter({ hasText: `${STARTER_CREDITS} Credits` })
      .waitFor();
    expect(await page.getByRole("banner").getByText(email).isVisible()).toBe(true);

    await page.getByRole("banner").getByRole("button", { name: "Sign Out" }).click();
    await page.getByRole("banner").getByRole("link", { name: "Sign In" }).click();
    await page.waitForURL(`${server.url}/auth`);
    await page.getByRole("tab", { name: "Sign Up" }).click();
    await page.getByRole("button", { name: "Sign up with Google" }).click();
    await expectToast(page, "Welcome back!", "You have successfully signed in");
    await visibleBalance(page)
      .filter({ hasText: `${STARTER_CREDITS} Credits` })
      .waitFor();
    expect(page.errors).toEqual([]);
    await page.close();
  });

  test("says 'Google Sign In Failed' when the player cancels at Google", async ({ server, openPage, google }) => {
    google.signInAs(undefined);
    const page = await openPage("/auth");
    await page.getByRole("button", { name: "Continue with Google" }).click();
    await expectToast(page, "Google Sign In Failed", "Google sign-in was cancelled.");
    await page.waitForURL(`${server.url}/auth`);
    await page.close();
  });
});
