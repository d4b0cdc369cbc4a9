import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payments } from "#app/db/schema.ts";
import { CREDIT_PACKAGES, STARTER_CREDITS } from "#app/lib/constants.ts";
import { formatUsd, PAYMENT_MESSAGES } from "#app/lib/payments.ts";
import { signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { createTestDatabase } from "#tests/helpers/database.ts";
import { visibleText } from "#tests/helpers/html.ts";
import { createPayment, creditsOf, verifyPayment } from "#tests/helpers/payments.ts";
import { startServerProcess } from "#tests/helpers/process.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";

// Production with neither STRIPE_SECRET_KEY nor PAYMENTS_PROVIDER: before, this ran the test
// checkout, so anyone could add credits free. Now nothing can be bought.
const PRODUCTION_WITHOUT_PAYMENTS = {
  NODE_ENV: "production",
  AUTH_SECRET: "a-shared-secret-for-production-0123456789",
  STRIPE_SECRET_KEY: undefined,
  STRIPE_WEBHOOK_SECRET: undefined,
  PAYMENTS_PROVIDER: undefined,
};
const SUPPORT_EMAIL = "help@payments-off.example";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ ...PRODUCTION_WITHOUT_PAYMENTS, SUPPORT_EMAIL });
});

afterAll(async () => {
  await server.close();
});

function paymentsOf(account: TestAccount) {
  return server.connection.db.select().from(payments).where(eq(payments.userId, account.userId));
}

function checkoutPage(account: TestAccount, sessionId: string) {
  return server.fetch(`/checkout/test/${sessionId}`, { headers: { Cookie: account.cookie } });
}

function submitCheckout(account: TestAccount, sessionId: string, intent: string) {
  return server.fetch(`/checkout/test/${sessionId}`, {
    method: "POST",
    headers: { Cookie: account.cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent }).toString(),
  });
}

describe("POST /api/create-payment", () => {
  it("answers 503 payments_unavailable and writes no payment", async () => {
    const account = await signUp(server);
    for (const packageType of CREDIT_PACKAGES.map((creditPackage) => creditPackage.id)) {
      const response = await createPayment(server, account, packageType);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({
        error: "Payments are not configured on this server, so credits cannot be bought right now.",
        code: "payments_unavailable",
      });
    }
    expect(await paymentsOf(account)).toEqual([]);
    expect((await creditsOf(server, account)).balance).toBe(STARTER_CREDITS);
  });
});

describe("the test checkout", () => {
  it("is not there: any /checkout/test/ address is 404, even for a test payment recorded before", async () => {
    const account = await signUp(server);
    expect((await checkoutPage(account, "anything")).status).toBe(404);

    // A pending test checkout from when this database ran in test mode: paying it now would
    // still be credits for nothing.
    const sessionId = "test_cs_from_before_payments_were_off";
    await server.connection.db
      .insert(payments)
      .values({ userId: account.userId, provider: "test", sessionId, packageId: "1000", credits: 1000, amountCents: 3499 });
    expect((await checkoutPage(account, sessionId)).status).toBe(404);
    expect((await submitCheckout(account, sessionId, "pay")).status).toBe(404);
    expect((await verifyPayment(server, account, sessionId)).status).toBe(409);

    const credits = await creditsOf(server, account);
    expect(credits.balance).toBe(STARTER_CREDITS);
    expect(credits.purchases).toEqual([]);
    expect((await paymentsOf(account))[0]?.status).toBe("pending");
  });
});

describe("/credits", () => {
  it("says purchases are unavailable and whom to write to, still showing the balance and the packages, with no Buy Now", async () => {
    const account = await signUp(server);
    const response = await server.fetch("/credits", { headers: { Cookie: account.cookie } });
    expect(response.status).toBe(200);
    const html = await response.text();
    const text = visibleText(html);

    expect(text).toContain(`${PAYMENT_MESSAGES.unavailable} Credit packages cannot be bought on this site at the moment.`);
    expect(html).toContain(`href="mailto:${SUPPORT_EMAIL}"`);
    expect(text).toContain(`${STARTER_CREDITS} Credits`);
    for (const creditPackage of CREDIT_PACKAGES) {
      expect(html).toContain(`data-testid="package-${creditPackage.id}"`);
      expect(text).toContain(formatUsd(creditPackage.priceCents));
    }
    expect(text).not.toContain("Buy Now");
    expect(text).not.toContain(PAYMENT_MESSAGES.testMode);
    expect(text).not.toContain("Top up below");
  });
});

describe("starting the server", () => {
  it("logs one warning that payments are off, and why", async () => {
    // Its own process as `npm start` runs it: the log is its standard output.
    const database = await createTestDatabase({ prepared: true });
    const child = await startServerProcess({ ...PRODUCTION_WITHOUT_PAYMENTS, DATABASE_URL: undefined, ...database.env });
    try {
      await expect.poll(() => child.output()).toContain("Payments are off");
      expect(await child.stop()).toBe(0);
      const entries = child
        .output()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as { level: number; msg: string; paymentsProvider?: string });
      const aboutPayments = entries.filter((entry) => /payments/i.test(entry.msg));
      expect(aboutPayments).toHaveLength(1);
      expect(aboutPayments[0]).toMatchObject({ level: 40, paymentsProvider: "off" });
      expect(aboutPayments[0]?.msg).toMatch(
        /^Payments are off: NODE_ENV is production and neither STRIPE_SECRET_KEY nor PAYMENTS_PROVIDER is set/,
      );
    } finally {
      await child.stop();
      await database.drop();
    }
  });
});
