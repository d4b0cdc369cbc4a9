import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payments } from "#app/db/schema.ts";
import { CREDIT_PACKAGES, STARTER_CREDITS } from "#app/lib/constants.ts";
import { PAYMENT_MESSAGES } from "#app/lib/payments.ts";
import { startFakeStripe, type FakeStripe } from "#tests/fakes/stripe.ts";
import { signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { createPayment, creditsOf, paymentRow, verifyPayment } from "#tests/helpers/payments.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";

let stripe: FakeStripe;
let server: TestServer;

beforeAll(async () => {
  stripe = await startFakeStripe();
  server = await startTestServer({
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_URL: stripe.url,
  });
});

afterAll(async () => {
  await server.close();
  await stripe.close();
});

/** Starts a checkout through the API and returns the Stripe session id. */
async function checkout(account: TestAccount, packageType = "500") {
  const response = await createPayment(server, account, packageType);
  expect(response.status).toBe(200);
  const { url } = (await response.json()) as { url: string };
  const session = [...stripe.sessions.values()].find((candidate) => candidate.url === url);
  if (!session) throw new Error(`no Stripe session has the url ${url}`);
  return session.id;
}

function deliver(payload: string, signature?: string) {
  return server.fetch("/api/stripe/webhook", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(signature === undefined ? {} : { "Stripe-Signature": signature }) },
    body: payload,
  });
}

function deliverSigned(type: string, sessionId: string) {
  const payload = stripe.event(type, sessionId);
  return deliver(payload, stripe.sign(payload));
}

async function expectLedgerMatches(account: TestAccount) {
  const credits = await creditsOf(server, account);
  expect(credits.ledgerTotal).toBe(credits.balance);
  return credits;
}

describe("creating a Stripe checkout", () => {
  it("prices each package in cents from the table, with the buyer and package in metadata", async () => {
    const account = await signUp(server);
    for (const creditPackage of CREDIT_PACKAGES) {
      const sessionId = await checkout(account, creditPackage.id);
      const request = stripe.requests.findLast((candidate) => candidate.path === "/v1/checkout/sessions" && candidate.method === "POST");
      expect(request?.body).toMatchObject({
        mode: "payment",
        line_items: [{ quantity: "1", price_data: { currency: "usd", unit_amount: String(creditPackage.priceCents) } }],
        client_reference_id: account.userId,
        customer_email: account.email,
        metadata: { userId: account.userId, packageId: creditPackage.id, credits: String(creditPackage.credits) },
        success_url: `${server.url}/payment-success?session_id={CHECKOUT_SESSION_ID}&credits=${creditPackage.credits}`,
        cancel_url: `${server.url}/credits`,
      });
      expect(stripe.sessions.get(sessionId)?.amount_total).toBe(creditPackage.priceCents);
      expect(await paymentRow(server, sessionId)).toMatchObject({
        userId: account.userId,
        provider: "stripe",
        packageId: creditPackage.id,
        credits: creditPackage.credits,
        amountCents: creditPackage.priceCents,
        currency: "usd",
        status: "pending",
      });
    }
    expect((await expectLedgerMatches(account)).balance).toBe(STARTER_CREDITS);
  });

  it("refuses an unknown package with 400 and a signed-out buyer with SPEC's message", async () => {
    const account = await signUp(server);
    const before = stripe.requests.length;
    for (const packageType of ["250", "", 500, null]) {
      const response = await createPayment(server, account, packageType);
      expect(response.status).toBe(400);
      expect((await response.json()).error).toMatch(/package/);
    }
    const signedOut = await createPayment(server, undefined, "500");
    expect(signedOut.status).toBe(401);
    expect(await signedOut.json()).toEqual({ error: PAYMENT_MESSAGES.signInRequired, code: "unauthenticated" });
    expect(stripe.requests.length).toBe(before);
  });

  it("answers 502 with a clear message and records nothing when Stripe is down", async () => {
    const account = await signUp(server);
    stripe.failing = true;
    try {
      const response = await createPayment(server, account, "100");
      expect(response.status).toBe(502);
      expect((await response.json()).error).toBe("The payment provider could not be reached. Please try again in a moment.");
    } finally {
      stripe.failing = false;
    }
    const rows = await server.connection.db.query.payments.findMany({ where: (payments, { eq }) => eq(payments.userId, account.userId) });
    expect(rows).toEqual([]);
  });
});

describe("fulfilling a paid checkout", () => {
  it("credits once when verify and the webhook arrive together, twice, and again later", async () => {
    const account = await signUp(server);
    const sessionId = await checkout(account, "500");
    stripe.pay(sessionId);

    const payload = stripe.event("checkout.session.completed", sessionId);
    const answers = await Promise.all([
      verifyPayment(server, account, sessionId),
      deliver(payload, stripe.sign(payload)),
      verifyPayment(server, account, sessionId),
      deliver(payload, stripe.sign(payload)),
    ]);
    expect(answers.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    for (const response of [answers[0], answers[2]]) {
      expect(await response.json()).toEqual({ success: true, creditsAdded: 500, balance: STARTER_CREDITS + 500 });
    }

    // Replayed later: Stripe retries a delivery with a fresh signature; the user reloads the page.
    expect((await deliver(payload, stripe.sign(payload))).status).toBe(200);
    expect((await deliverSigned("checkout.session.completed", sessionId)).status).toBe(200);
    expect(await (await verifyPayment(server, account, sessionId)).json()).toEqual({
      success: true,
      creditsAdded: 500,
      balance: STARTER_CREDITS + 500,
    });

    const credits = await expectLedgerMatches(account);
    expect(credits.balance).toBe(STARTER_CREDITS + 500);
    expect(credits.purchases).toHaveLength(1);
    expect(credits.purchases[0]).toMatchObject({ delta: 500, reference: sessionId, balanceAfter: STARTER_CREDITS + 500 });
    expect(await paymentRow(server, sessionId)).toMatchObject({ status: "completed", completedAt: expect.any(Date) });
  });

  it("credits from the webhook alone, and verify then reports what was added", async () => {
    const account = await signUp(server);
    const sessionId = await checkout(account, "1000");
    stripe.pay(sessionId);
    expect((await deliverSigned("checkout.session.completed", sessionId)).status).toBe(200);
    expect((await expectLedgerMatches(account)).balance).toBe(STARTER_CREDITS + 1000);

    const retrievalsBefore = stripe.requests.filter((request) => request.method === "GET").length;
    expect(await (await verifyPayment(server, account, sessionId)).json()).toMatchObject({ success: true, creditsAdded: 1000 });
    // Already completed: no need to ask Stripe again.
    expect(stripe.requests.filter((request) => request.method === "GET").length).toBe(retrievalsBefore);
  });

  it("credits nothing for an unpaid session, and a delayed payment once it succeeds", async () => {
    const account = await signUp(server);
    const sessionId = await checkout(account, "100");

    const open = await verifyPayment(server, account, sessionId);
    expect(open.status).toBe(409);
    expect(await open.json()).toEqual({ error: "This payment has not been completed, so no credits were added.", code: "payment_not_completed" });

    stripe.completeUnpaid(sessionId);
    expect((await deliverSigned("checkout.session.completed", sessionId)).status).toBe(200);
    const processing = await verifyPayment(server, account, sessionId);
    expect(processing.status).toBe(409);
    expect((await processing.json()).error).toMatch(/still being processed/);
    expect((await expectLedgerMatches(account)).balance).toBe(STARTER_CREDITS);
    expect((await paymentRow(server, sessionId))?.status).toBe("pending");

    stripe.pay(sessionId);
    expect((await deliverSigned("checkout.session.async_payment_succeeded", sessionId)).status).toBe(200);
    expect((await expectLedgerMatches(account)).balance).toBe(STARTER_CREDITS + 100);
  });

  it("never credits another user's session, to either of them", async () => {
    const buyer = await signUp(server);
    const stranger = await signUp(server);
    const sessionId = await checkout(buyer, "500");
    stripe.pay(sessionId);

    const response = await verifyPayment(server, stranger, sessionId);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "We could not find this payment on your account.", code: "not_found" });
    expect((await expectLedgerMatches(stranger)).balance).toBe(STARTER_CREDITS);
    expect((await expectLedgerMatches(buyer)).balance).toBe(STARTER_CREDITS);
    expect((await paymentRow(server, sessionId))?.status).toBe("pending");
  });

  it("refuses a session whose Stripe record names another buyer or amount", async () => {
    const account = await signUp(server);
    const otherBuyer = await checkout(account, "500");
    stripe.pay(otherBuyer).metadata.userId = "someone-else";
    expect((await verifyPayment(server, account, otherBuyer)).status).toBe(404);

    const otherAmount = await checkout(account, "500");
    stripe.pay(otherAmount).amount_total = 1;
    expect((await deliverSigned("checkout.session.completed", otherAmount)).status).toBe(200);
    expect((await verifyPayment(server, account, otherAmount)).status).toBe(404);

    expect((await expectLedgerMatches(account)).balance).toBe(STARTER_CREDITS);
  });

  it("answers 404 for a session Stripe does not know, and 400 without a session id", async () => {
    const account = await signUp(server);
    expect((await verifyPayment(server, account, "cs_test_unknown")).status).toBe(404);
    const missing = await verifyPayment(server, account, "");
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toBe("sessionId is required: the checkout session to verify.");
    expect((await verifyPayment(server, undefined, "cs_test_unknown")).status).toBe(401);
  });

  it("answers 502 without deciding anything when Stripe cannot be asked", async () => {
    const account = await signUp(server);
    const sessionId = await checkout(account, "100");
    stripe.pay(sessionId);
    stripe.failing = true;
    try {
      const response = await verifyPayment(server, account, sessionId);
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual({
        error: "The payment provider could not be reached. Please try again in a moment.",
        code: "provider_unavailable",
      });
    } finally {
      stripe.failing = false;
    }
    expect((await expectLedgerMatches(account)).balance).toBe(STARTER_CREDITS);
    expect((await verifyPayment(server, account, sessionId)).status).toBe(200);
  });
});

describe("the Stripe webhook", () => {
  it("refuses a missing or bad signature with 400 and changes nothing", async () => {
    const account = await signUp(server);
    const sessionId = await checkout(account, "500");
    stripe.pay(sessionId);
    const payload = stripe.event("checkout.session.completed", sessionId);

    const attempts = [
      deliver(payload),
      deliver(payload, ""),
      deliver(payload, "t=1,v1=deadbeef"),
      deliver(payload, stripe.sign(payload, { secret: "whsec_not_the_right_one" })),
      // Signed, then altered: the signature covers the exact bytes.
      deliver(payload.replace('"amount_total":1999', '"amount_total":1998'), stripe.sign(payload)),
      // A genuine signature from long ago (outside Stripe's five-minute tolerance).
      deliver(payload, stripe.sign(payload, { timestamp: Math.floor(Date.now() / 1000) - 3600 })),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(400);
      expect((await response.json()).error).toMatch(/Stripe-Signature header is missing|signature does not match/);
    }
    expect((await expectLedgerMatches(account)).balance).toBe(STARTER_CREDITS);
    expect((await paymentRow(server, sessionId))?.status).toBe("pending");
  });

  it("acknowledges events it does not act on", async () => {
    const account = await signUp(server);
    const sessionId = await checkout(account, "100");
    stripe.pay(sessionId);
    const foreign = stripe.event("checkout.session.completed", sessionId).replaceAll(sessionId, "cs_test_made_elsewhere");
    expect((await deliver(foreign, stripe.sign(foreign))).status).toBe(200);
    expect((await deliverSigned("customer.created", sessionId)).status).toBe(200);
    expect((await expectLedgerMatches(account)).balance).toBe(STARTER_CREDITS);
    expect((await paymentRow(server, sessionId))?.status).toBe("pending");
  });

  it("marks expired and failed checkouts, and never downgrades a completed one", async () => {
    const account = await signUp(server);
    const expired = await checkout(account, "100");
    expect((await deliverSigned("checkout.session.expired", expired)).status).toBe(200);
    expect((await paymentRow(server, expired))?.status).toBe("expired");

    const failed = await checkout(account, "100");
    stripe.completeUnpaid(failed);
    expect((await deliverSigned("checkout.session.async_payment_failed", failed)).status).toBe(200);
    expect((await paymentRow(server, failed))?.status).toBe("failed");

    const paid = await checkout(account, "100");
    stripe.pay(paid);
    await deliverSigned("checkout.session.completed", paid);
    await deliverSigned("checkout.session.expired", paid);
    expect((await paymentRow(server, paid))?.status).toBe("completed");
    expect((await expectLedgerMatches(account)).balance).toBe(STARTER_CREDITS + 100);
  });
});

describe("the built-in test checkout", () => {
  it("cannot be used once Stripe is configured, not even for a test payment made before", async () => {
    const account = await signUp(server);
    const sessionId = "test_cs_from_before_stripe";
    await server.connection.db.insert(payments).values({
      userId: account.userId,
      provider: "test",
      sessionId,
      packageId: "1000",
      credits: 1000,
      amountCents: 3499,
    });
    const headers = { Cookie: account.cookie, Origin: server.url };
    expect((await server.fetch(`/checkout/test/${sessionId}`, { headers })).status).toBe(404);
    const pay = await server.fetch(`/checkout/test/${sessionId}`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
      body: "intent=pay",
    });
    expect(pay.status).toBe(404);
    expect((await verifyPayment(server, account, sessionId)).status).toBe(409);
    expect((await expectLedgerMatches(account)).balance).toBe(STARTER_CREDITS);
  });
});

describe("the Stripe webhook, given a delivery signed correctly but not to be trusted", () => {
  interface EventJson {
    type?: unknown;
    data: { object?: Record<string, unknown> };
  }

  /** An event about the session as Stripe sends it, changed by `change`, then signed with our secret. */
  function signedVariant(type: string, sessionId: string, change: (event: EventJson) => void) {
    const event = JSON.parse(stripe.event(type, sessionId)) as EventJson;
    change(event);
    const payload = JSON.stringify(event);
    return deliver(payload, stripe.sign(payload));
  }

  it("refuses a malformed event with 400 invalid_input, changes nothing, and the genuine event still credits once", async () => {
    const account = await signUp(server);
    const sessionId = await checkout(account, "500");
    stripe.pay(sessionId);

    const malformed: [string, string, (event: EventJson) => void][] = [
      ["no data.object", "checkout.session.completed", (event) => delete event.data.object],
      ["data.object without an id", "checkout.session.completed", (event) => delete event.data.object?.id],
      ["an id that is not text", "checkout.session.completed", (event) => Object.assign(event.data.object ?? {}, { id: 42 })],
      ["an empty id", "checkout.session.completed", (event) => Object.assign(event.data.object ?? {}, { id: "" })],
      ["no payment_status", "checkout.session.completed", (event) => delete event.data.object?.payment_status],
      ["an amount in text", "checkout.session.completed", (event) => Object.assign(event.data.object ?? {}, { amount_total: "1999" })],
      ["metadata that is not a map", "checkout.session.completed", (event) => Object.assign(event.data.object ?? {}, { metadata: "x" })],
      ["no currency", "checkout.session.async_payment_succeeded", (event) => delete event.data.object?.currency],
      ["an expiry without an id", "checkout.session.expired", (event) => delete event.data.object?.id],
      ["a failure without data.object", "checkout.session.async_payment_failed", (event) => delete event.data.object],
      ["no type", "checkout.session.completed", (event) => delete event.type],
    ];
    for (const [what, type, change] of malformed) {
      const response = await signedVariant(type, sessionId, change);
      expect(response.status, what).toBe(400);
      expect(await response.json(), what).toEqual({ error: expect.stringMatching(/ event is malformed: /), code: "invalid_input" });
    }
    expect((await expectLedgerMatches(account)).balance).toBe(STARTER_CREDITS);
    expect((await paymentRow(server, sessionId))?.status).toBe("pending");

    // The refusals used nothing up: the well-formed delivery credits the purchase, once.
    expect((await deliverSigned("checkout.session.completed", sessionId)).status).toBe(200);
    const credits = await expectLedgerMatches(account);
    expect(credits.balance).toBe(STARTER_CREDITS + 500);
    expect(credits.purchases).toHaveLength(1);
  });

  it("refuses a genuine signature dated more than five minutes ahead, and takes one a minute ahead", async () => {
    const account = await signUp(server);
    const sessionId = await checkout(account, "100");
    stripe.pay(sessionId);
    const payload = stripe.event("checkout.session.completed", sessionId);
    const now = Math.floor(Date.now() / 1000);

    const postDated = await deliver(payload, stripe.sign(payload, { timestamp: now + 3600 }));
    expect(postDated.status).toBe(400);
    expect(await postDated.json()).toEqual({
      error: "The Stripe signature is dated in the future, beyond the 300-second tolerance.",
      code: "invalid_input",
    });
    expect((await expectLedgerMatches(account)).balance).toBe(STARTER_CREDITS);
    expect((await paymentRow(server, sessionId))?.status).toBe("pending");

    // Clocks drift: within the tolerance, ahead is as good as behind.
    expect((await deliver(payload, stripe.sign(payload, { timestamp: now + 60 }))).status).toBe(200);
    expect((await expectLedgerMatches(account)).balance).toBe(STARTER_CREDITS + 100);
  });

  it("refuses a genuine signature older than five minutes", async () => {
    const account = await signUp(server);
    const sessionId = await checkout(account, "100");
    stripe.pay(sessionId);
    const payload = stripe.event("checkout.session.completed", sessionId);

    const stale = await deliver(payload, stripe.sign(payload, { timestamp: Math.floor(Date.now() / 1000) - 3600 }));
    expect(stale.status).toBe(400);
    expect(await stale.json()).toEqual({ error: "The Stripe signature does not match this request.", code: "invalid_input" });
    expect((await expectLedgerMatches(account)).balance).toBe(STARTER_CREDITS);
    expect((await paymentRow(server, sessionId))?.status).toBe("pending");
  });
});
