import { afterAll, beforeAll, expect, it } from "vitest";
import { STARTER_CREDITS } from "#app/lib/constants.ts";
import { PAYMENT_MESSAGES } from "#app/lib/payments.ts";
import { signUp } from "#tests/helpers/accounts.ts";
import { visibleText } from "#tests/helpers/html.ts";
import { createPayment, creditsOf, paymentRow } from "#tests/helpers/payments.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";

// A staging or acceptance site: production, with the test checkout asked for by name.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    NODE_ENV: "production",
    PAYMENTS_PROVIDER: "test",
    AUTH_SECRET: "a-shared-secret-for-production-0123456789",
  });
});

afterAll(async () => {
  await server.close();
});

it("runs the test checkout when PAYMENTS_PROVIDER=test is set explicitly", async () => {
  const account = await signUp(server);
  const credits = visibleText(await (await server.fetch("/credits", { headers: { Cookie: account.cookie } })).text());
  expect(credits).toContain(PAYMENT_MESSAGES.testMode);
  expect(credits).toContain("Buy Now");
  expect(credits).not.toContain(PAYMENT_MESSAGES.unavailable);

  const created = await createPayment(server, account, "500");
  expect(created.status).toBe(200);
  const { url } = (await created.json()) as { url: string };
  const sessionId = new RegExp(`^${server.url}/checkout/test/(test_cs_[\\w-]+)$`).exec(url)?.[1];
  if (!sessionId) throw new Error(`not a test checkout url: ${url}`);
  expect(await paymentRow(server, sessionId)).toMatchObject({ provider: "test", status: "pending" });

  const paid = await server.fetch(`/checkout/test/${sessionId}`, {
    method: "POST",
    headers: { Cookie: account.cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: "intent=pay",
  });
  expect(paid.status).toBe(302);
  expect(paid.headers.get("location")).toBe(`/payment-success?session_id=${sessionId}&credits=500`);
  expect((await creditsOf(server, account)).balance).toBe(STARTER_CREDITS + 500);
  expect((await paymentRow(server, sessionId))?.status).toBe("completed");
});
