import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECKOUT_RATE_LIMIT } from "#app/domain/payments.server.ts";
import { CREDIT_PACKAGES, percentOff, STARTER_CREDITS } from "#app/lib/constants.ts";
import { formatUsd, PAYMENT_MESSAGES } from "#app/lib/payments.ts";
import { signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { createPayment, creditsOf, paymentRow, verifyPayment } from "#tests/helpers/payments.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";

// No STRIPE_SECRET_KEY: the embedded default, the built-in test checkout.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

async function startCheckout(account: TestAccount, packageType = "500") {
  const response = await createPayment(server, account, packageType);
  expect(response.status).toBe(200);
  const { url } = (await response.json()) as { url: string };
  const match = new RegExp(`^${server.url}/checkout/test/(test_cs_[\\w-]+)$`).exec(url);
  if (!match) throw new Error(`not a test checkout url: ${url}`);
  return { url, sessionId: match[1]! };
}

function submitCheckout(account: TestAccount | undefined, sessionId: string, intent: string) {
  return server.fetch(`/checkout/test/${sessionId}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: server.url,
      ...(account ? { Cookie: account.cookie } : {}),
    },
    body: new URLSearchParams({ intent }).toString(),
  });
}

function page(pathname: string, account?: TestAccount) {
  return server.fetch(pathname, { headers: account ? { Cookie: account.cookie } : {} });
}

/** A page's HTML without the `<!-- -->` markers React puts between adjacent text parts. */
async function html(pathname: string, account?: TestAccount) {
  return (await (await page(pathname, account)).text()).replaceAll("<!-- -->", "");
}

describe("/credits", () => {
  it("asks visitors to sign in, with a link to /auth", async () => {
    const response = await page("/credits");
    expect(response.status).toBe(200);
    const signedOut = await response.text();
    expect(signedOut).toContain("Sign In Required");
    expect(signedOut).toMatch(/<a[^>]+href="\/auth\?redirectTo=%2Fcredits"/);
    expect(signedOut).not.toContain("Buy Now");
  });

  it("shows the balance, the three packages from the table and the FAQ", async () => {
    const account = await signUp(server);
    const credits = await html("/credits", account);
    expect(credits).toContain("Your Credits");
    expect(credits).toMatch(new RegExp(`data-testid="credits-page-balance"[^>]*>${STARTER_CREDITS} Credits<`));
    for (const creditPackage of CREDIT_PACKAGES) {
      const card = new RegExp(`data-testid="package-${creditPackage.id}"[\\s\\S]*?Buy Now`).exec(credits)?.[0] ?? "";
      expect(card, `package ${creditPackage.id}`).toContain(`>${creditPackage.credits} <`);
      expect(card).toContain(formatUsd(creditPackage.priceCents));
      expect(card).toMatch(new RegExp(`<s[^>]*>.*${formatUsd(creditPackage.originalPriceCents).replace("$", "\\$")}</s>`));
      expect(card).toContain(`${percentOff(creditPackage)}% OFF`);
      expect(card).toContain(`>${creditPackage.badge}<`);
      if (creditPackage.highlight) expect(card).toContain(`>${creditPackage.highlight}<`);
    }
    expect(credits.match(/Most Popular/g)).toHaveLength(1);
    expect(CREDIT_PACKAGES.map(percentOff)).toEqual([50, 50, 50]);
    expect(credits).toContain("Credits never expire");
    expect(credits).toContain("not refundable");
    expect(credits).toContain("Instantly.");
    expect(credits).toContain(`Every new account starts with ${STARTER_CREDITS} free credits`);
    expect(credits).toContain(PAYMENT_MESSAGES.testMode);
  });
});

describe("the test checkout", () => {
  it("creates a pending payment priced from the table and opens a checkout page only its buyer can see", async () => {
    const buyer = await signUp(server);
    const { sessionId } = await startCheckout(buyer, "500");
    expect(await paymentRow(server, sessionId)).toMatchObject({
      userId: buyer.userId,
      provider: "test",
      packageId: "500",
      credits: 500,
      amountCents: 1999,
      status: "pending",
    });

    const checkoutPage = await html(`/checkout/test/${sessionId}`, buyer);
    expect(checkoutPage).toContain("$19.99");
    expect(checkoutPage).toContain("500 Credits");
    expect(checkoutPage).toContain(PAYMENT_MESSAGES.testMode);
    expect(checkoutPage).toContain("Pay $19.99");
    expect(checkoutPage).toContain("Cancel");
    expect(checkoutPage).toContain(buyer.email);

    const stranger = await signUp(server);
    expect((await page(`/checkout/test/${sessionId}`, stranger)).status).toBe(404);
    expect((await submitCheckout(stranger, sessionId, "pay")).status).toBe(404);
    expect((await page("/checkout/test/test_cs_nope", buyer)).status).toBe(404);
    const signedOut = await page(`/checkout/test/${sessionId}`);
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toBe(`/auth?redirectTo=${encodeURIComponent(`/checkout/test/${sessionId}`)}`);
    expect((await creditsOf(server, stranger)).balance).toBe(STARTER_CREDITS);
    expect((await paymentRow(server, sessionId))?.status).toBe("pending");
  });

  it("Pay credits once through the shared fulfilment and returns to the success page", async () => {
    const buyer = await signUp(server);
    const { sessionId } = await startCheckout(buyer, "500");

    const unpaid = await verifyPayment(server, buyer, sessionId);
    expect(unpaid.status).toBe(409);
    expect(await unpaid.json()).toMatchObject({ code: "payment_not_completed" });

    const paid = await submitCheckout(buyer, sessionId, "pay");
    expect(paid.status).toBe(302);
    expect(paid.headers.get("location")).toBe(`/payment-success?session_id=${sessionId}&credits=500`);

    // A second click, a verify, a verify from someone else: still one purchase.
    expect((await submitCheckout(buyer, sessionId, "pay")).status).toBe(302);
    const verified = await verifyPayment(server, buyer, sessionId);
    expect(await verified.json()).toEqual({ success: true, creditsAdded: 500, balance: STARTER_CREDITS + 500 });
    const stranger = await signUp(server);
    expect((await verifyPayment(server, stranger, sessionId)).status).toBe(404);

    const credits = await creditsOf(server, buyer);
    expect(credits.balance).toBe(STARTER_CREDITS + 500);
    expect(credits.ledgerTotal).toBe(credits.balance);
    expect(credits.purchases).toHaveLength(1);
    expect((await paymentRow(server, sessionId))?.status).toBe("completed");
    expect(await html(`/checkout/test/${sessionId}`, buyer)).toContain("Already paid");
  });

  it("Cancel returns to /credits and the checkout can no longer be paid", async () => {
    const buyer = await signUp(server);
    const { sessionId } = await startCheckout(buyer, "100");
    const cancelled = await submitCheckout(buyer, sessionId, "cancel");
    expect(cancelled.status).toBe(302);
    expect(cancelled.headers.get("location")).toBe("/credits");
    expect((await paymentRow(server, sessionId))?.status).toBe("expired");

    const payAfterwards = await submitCheckout(buyer, sessionId, "pay");
    expect(payAfterwards.status).toBe(409);
    expect(await payAfterwards.text()).toContain("This test checkout was cancelled.");
    const verify = await verifyPayment(server, buyer, sessionId);
    expect(await verify.json()).toEqual({ error: "This test checkout was cancelled, so no credits were added.", code: "payment_not_completed" });
    expect((await submitCheckout(buyer, sessionId, "refund")).status).toBe(400);
    expect((await creditsOf(server, buyer)).balance).toBe(STARTER_CREDITS);
  });

  it("does not expose a Stripe webhook when Stripe is not configured", async () => {
    const response = await server.fetch("/api/stripe/webhook", { method: "POST", body: "{}" });
    expect(response.status).toBe(404);
    expect((await response.json()).error).toBe("Stripe webhooks are not configured on this server.");
  });
});

describe("POST /api/create-payment", () => {
  it("answers SPEC's message when signed out and 400 for bodies that are not a package", async () => {
    const signedOut = await createPayment(server, undefined, "100");
    expect(signedOut.status).toBe(401);
    expect(await signedOut.json()).toEqual({ error: PAYMENT_MESSAGES.signInRequired, code: "unauthenticated" });

    const account = await signUp(server);
    const notJson = await server.fetch("/api/create-payment", {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: account.cookie },
      body: "packageType=100",
    });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ error: "The request body is not valid JSON.", code: "invalid_json" });
    const unknown = await createPayment(server, account, "99");
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error).toBe('There is no credit package "99". Choose 100, 500 or 1000 credits.');
    expect((await server.fetch("/api/create-payment")).status).toBe(405);
  });

  it("limits how many checkouts one player starts per minute", async () => {
    const account = await signUp(server);
    for (let attempt = 0; attempt < CHECKOUT_RATE_LIMIT.limit; attempt += 1) {
      expect((await createPayment(server, account, "100")).status).toBe(200);
    }
    const limited = await createPayment(server, account, "100");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await limited.json()).error).toBe("Too many purchase attempts. Please wait a minute and try again.");
    // Someone else is not held back by it.
    expect((await createPayment(server, await signUp(server), "100")).status).toBe(200);
  });
});

describe("/payment-success", () => {
  it("needs a signed-in player and shows the verifying state until the browser has asked", async () => {
    const path = "/payment-success?session_id=test_cs_x&credits=100000";
    const signedOut = await page(path);
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toBe(`/auth?redirectTo=${encodeURIComponent(path)}`);

    const success = await html(path, await signUp(server));
    expect(success).toContain("Confirming your payment…");
    expect(success).not.toContain("100000");
    expect(success).toMatch(/<meta name="robots" content="noindex"/);
  });

  it("without a session id, says there is nothing to confirm and links to Credits and the games, instead of waiting", async () => {
    for (const path of ["/payment-success", "/payment-success?session_id=", "/payment-success?session_id=%20&credits=100"]) {
      const page = await html(path, await signUp(server));
      expect(page, path).toContain("<h1");
      expect(page, path).toMatch(/<h1[^>]*>No payment to confirm<\/h1>/);
      expect(page, path).toContain("there is nothing to confirm");
      expect(page, path).toMatch(/<a[^>]*href="\/credits"[^>]*>View Credits<\/a>/);
      expect(page, path).toMatch(/<a[^>]*href="\/games"[^>]*>Browse Games<\/a>/);
      expect(page, path).not.toContain("Confirming your payment…");
      expect(page, path).not.toContain("animate-spin");
    }
  });
});
