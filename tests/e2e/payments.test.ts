import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { session } from "#app/db/schema.ts";
import { STARTER_CREDITS } from "#app/lib/constants.ts";
import { creditsAddedMessage, PAYMENT_MESSAGES } from "#app/lib/payments.ts";
import { recordErrors, seriousAccessibilityViolations } from "#tests/helpers/browser.ts";
import { browserTest } from "#tests/helpers/fixtures.ts";

// Test mode (no Stripe key): Buy Now opens the built-in test checkout, for a player signed in
// before the first test.
const test = browserTest.extend("player", { scope: "file", auto: true }, ({ login }) => login());

/**
 * Closes the toast that says `text`, so an accessibility scan does not catch it fading. The toast
 * code loads with the first toast, so the toast may appear after the page that announced it.
 */
async function dismissToast(page: Page, text: string) {
  const toasts = page.locator("[data-sonner-toast]");
  await toasts.filter({ hasText: text }).getByRole("button", { name: "Close toast" }).click();
  await expect.poll(() => toasts.count()).toBe(0);
}

/** The navigation bar's balance that is on screen at this width. */
function navBalance(page: Page) {
  return page.locator('header [data-testid="credits-balance"]:visible');
}

test("buys 500 credits through the test checkout, and every open tab shows the new balance without reloading", async ({ server, browser }) => {
  const credits = await browser.newPage();
  await credits.goto(`${server.url}/credits`);
  await expect(credits.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Your Credits");
  await credits.getByText(`${STARTER_CREDITS} Credits`).first().waitFor();
  expect(await seriousAccessibilityViolations(credits)).toEqual([]);

  const otherTab = await browser.newPage();
  await otherTab.goto(server.url);
  await navBalance(otherTab).getByText(`${STARTER_CREDITS} Credits`).waitFor();
  await otherTab.evaluate(() => Object.assign(window, { notReloaded: true }));

  // Hold the checkout request until the processing state has been seen.
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await credits.route("**/api/create-payment", async (route) => {
    await released;
    await route.continue();
  });
  const popup = browser.context.waitForEvent("page").then(recordErrors);
  const popular = credits.getByTestId("package-500");
  await expect(popular.getByText("Most Popular").isVisible()).resolves.toBe(true);
  await popular.getByRole("button", { name: "Buy Now" }).click();
  await popular.getByRole("button", { name: "Processing..." }).waitFor();
  expect(await credits.getByTestId("package-100").getByRole("button", { name: "Buy Now" }).isDisabled()).toBe(true);
  release();

  const checkout = await popup;
  await checkout.waitForURL(/\/checkout\/test\/test_cs_/);
  await checkout.getByText("Test mode — no card is charged").waitFor();
  await expect(checkout.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("$19.99");
  await checkout.getByText("500 Credits", { exact: true }).waitFor();
  expect(await seriousAccessibilityViolations(checkout)).toEqual([]);
  await popular.getByRole("button", { name: "Buy Now" }).waitFor();

  await checkout.getByRole("button", { name: "Pay $19.99" }).click();
  await checkout.waitForURL(/\/payment-success\?session_id=test_cs_[\w-]+&credits=500$/);
  await checkout.getByRole("heading", { name: "Payment Successful!" }).waitFor();
  await expect(checkout.getByTestId("credits-added").textContent()).resolves.toBe("+500 Credits");
  await checkout.getByText("500 credits added to your account!").waitFor();
  await checkout.getByRole("link", { name: "Start Playing" }).waitFor();
  expect(await checkout.getByRole("link", { name: "Start Playing" }).getAttribute("href")).toBe("/games");
  expect(await checkout.getByRole("link", { name: "View Credits" }).getAttribute("href")).toBe("/credits");
  await navBalance(checkout)
    .getByText(`${STARTER_CREDITS + 500} Credits`)
    .waitFor();
  await dismissToast(checkout, creditsAddedMessage(500));
  expect(await seriousAccessibilityViolations(checkout)).toEqual([]);

  // The tabs opened before the purchase, updated live.
  await navBalance(otherTab)
    .getByText(`${STARTER_CREDITS + 500} Credits`)
    .waitFor();
  expect(await otherTab.evaluate(() => "notReloaded" in window)).toBe(true);
  await navBalance(credits)
    .getByText(`${STARTER_CREDITS + 500} Credits`)
    .waitFor();
  await credits
    .getByTestId("credits-page-balance")
    .getByText(`${STARTER_CREDITS + 500} Credits`)
    .waitFor();

  for (const page of [credits, otherTab, checkout]) expect(page.errors).toEqual([]);
  await Promise.all([credits.close(), otherTab.close(), checkout.close()]);
});

test("Cancel on the test checkout goes back to the Credits page and charges nothing", async ({ server, browser }) => {
  const credits = await browser.newPage({ width: 375, height: 800 });
  await credits.goto(`${server.url}/credits`);
  const balance = await credits.getByTestId("credits-page-balance").textContent();
  const popup = browser.context.waitForEvent("page").then(recordErrors);
  await credits.getByTestId("package-100").getByRole("button", { name: "Buy Now" }).click();
  const checkout = await popup;
  await checkout.waitForURL(/\/checkout\/test\//);
  await checkout.getByRole("button", { name: "Cancel" }).click();
  await checkout.waitForURL(`${server.url}/credits`);
  await expect(checkout.getByTestId("credits-page-balance").textContent()).resolves.toBe(balance);
  expect(checkout.errors).toEqual([]);
  await Promise.all([credits.close(), checkout.close()]);
});

test("shows SPEC's failure for a payment that is not the player's, whatever the URL claims", async ({ server, page }) => {
  await page.goto(`${server.url}/payment-success?session_id=test_cs_forged&credits=1000`);
  await page.getByRole("heading", { name: "Payment verification failed" }).waitFor();
  await page.getByText("We could not find this payment on your account.").waitFor();
  expect(await page.getByText("+1000").count()).toBe(0);
  expect(await page.getByRole("link", { name: "View Credits" }).getAttribute("href")).toBe("/credits");
  // The browser reports the 404 answer of verify-payment; nothing else may go wrong.
  expect(page.errors.filter((error) => !error.includes("status of 404"))).toEqual([]);
  await dismissToast(page, PAYMENT_MESSAGES.verificationFailed);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await page.close();
});

test("opened without a session id, says there is nothing to confirm and links to Credits, without asking the server", async ({
  server,
  browser,
}) => {
  const page = await browser.newPage({ width: 360, height: 780 });
  const verifications: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/api/verify-payment")) verifications.push(request.url());
  });
  await page.goto(`${server.url}/payment-success`);
  await page.getByRole("heading", { level: 1, name: "No payment to confirm" }).waitFor();
  await page.getByText("there is nothing to confirm", { exact: false }).waitFor();
  await page.waitForLoadState("networkidle");
  expect(await page.getByText("Confirming your payment…").count()).toBe(0);
  expect(await page.locator("main .animate-spin").count()).toBe(0);
  expect(await page.getByRole("link", { name: "Browse Games" }).getAttribute("href")).toBe("/games");
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await page.screenshot({ path: "test-results/payment-success-without-session-360.png", fullPage: true });

  await page.getByRole("link", { name: "View Credits" }).click();
  await page.waitForURL(`${server.url}/credits`);
  await page.getByRole("heading", { level: 1, name: "Your Credits" }).waitFor();
  expect(verifications).toEqual([]);
  expect(page.errors).toEqual([]);
  await page.close();
});

// Last: it ends the player's session.
test("shows SPEC's purchase failure toasts and closes the tab it opened", async ({ server, browser, player, page }) => {
  await page.goto(`${server.url}/credits`);
  const buy = page.getByTestId("package-1000").getByRole("button", { name: "Buy Now" });

  async function expectToast(message: string) {
    const opened = browser.context.waitForEvent("page");
    await buy.click();
    const tab = await opened;
    await page.getByText(message, { exact: true }).waitFor();
    await expect.poll(() => tab.isClosed()).toBe(true);
    await page.getByRole("button", { name: "Close toast" }).first().click();
  }

  // Faults the test server cannot be made to produce are simulated at the browser's network layer.
  await page.route("**/api/create-payment", (route) => route.fulfill({ status: 500, json: { error: "boom" } }));
  await expectToast("Failed to create payment session");
  await buy.waitFor();
  await page.unroute("**/api/create-payment");
  await page.route("**/api/create-payment", (route) => route.fulfill({ status: 200, json: { url: "javascript:alert(1)" } }));
  await expectToast("Invalid payment response");
  await buy.waitFor();
  await page.unroute("**/api/create-payment");
  await page.route("**/api/create-payment", (route) => route.abort("connectionrefused"));
  await expectToast("Failed to initiate purchase");
  await page.unroute("**/api/create-payment");

  await page.route("**/api/verify-payment", (route) => route.abort("connectionrefused"));
  await page.goto(`${server.url}/payment-success?session_id=test_cs_any&credits=100`);
  await page.getByRole("heading", { name: "Failed to verify payment" }).waitFor();
  await page.getByText("Failed to verify payment", { exact: true }).last().waitFor();
  await page.unroute("**/api/verify-payment");
  const live = page.waitForResponse((response) => response.url().endsWith("/api/credits/events"));
  await page.goto(`${server.url}/credits`);
  // Connected before the session ends (a stream opened afterwards would find the player signed out).
  expect((await live).status()).toBe(200);

  // The session ended meanwhile (expired, or signed out everywhere): the real server answers 401.
  await server.connection.db.delete(session).where(eq(session.userId, player.userId));
  await expectToast("Please sign in to purchase credits");
  await page.getByRole("heading", { name: "Sign In Required" }).waitFor();
  expect(page.errors.filter((error) => !/status of (401|500)|ERR_CONNECTION_REFUSED/.test(error))).toEqual([]);
  await page.close();
});

test("signing out in one tab signs out the others without a reload", async ({ server, browser, login }) => {
  await login();
  const tabs = [await browser.newPage(), await browser.newPage()];
  // One stream per browser: the first tab holds it, the second hears the balance through it.
  const live = tabs[0]!.waitForResponse((response) => response.url().endsWith("/api/credits/events"));
  await tabs[0]!.goto(`${server.url}/credits`);
  expect((await live).status()).toBe(200);
  await tabs[1]!.goto(`${server.url}/credits`);
  await tabs[1]!.getByRole("heading", { name: "Your Credits" }).waitFor();
  await tabs[1]!.evaluate(() => Object.assign(window, { notReloaded: true }));

  await tabs[0]!.getByRole("button", { name: "Sign Out" }).click();
  await tabs[0]!.waitForURL(`${server.url}/`);
  // The other tab's stream is closed by the server; reconnecting finds the session gone.
  await tabs[1]!.getByRole("heading", { name: "Sign In Required" }).waitFor({ timeout: 10_000 });
  await tabs[1]!.locator("header").getByRole("link", { name: "Sign In" }).first().waitFor();
  expect(await tabs[1]!.evaluate(() => "notReloaded" in window)).toBe(true);
  for (const tab of tabs) expect(tab.errors.filter((error) => !error.includes("status of 401"))).toEqual([]);
});
