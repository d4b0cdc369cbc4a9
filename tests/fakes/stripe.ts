import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

/**
 * A local server speaking the Stripe API for the calls the app makes — create and retrieve a
 * Checkout Session — with Stripe's form encoding, bearer-key auth and error shapes, plus what the
 * real Stripe does on its side: the customer paying, and signed webhook events.
 * Point the app at it with STRIPE_API_URL=fake.url and STRIPE_SECRET_KEY=fake.secretKey.
 */

export interface FakeCheckoutSession {
  id: string;
  object: "checkout.session";
  amount_subtotal: number;
  amount_total: number;
  cancel_url: string;
  client_reference_id: string | null;
  created: number;
  currency: string;
  customer_email: string | null;
  expires_at: number;
  line_items_requested: LineItemParams[];
  livemode: false;
  metadata: Record<string, string>;
  mode: string;
  payment_intent: string | null;
  payment_status: "paid" | "unpaid" | "no_payment_required";
  status: "open" | "complete" | "expired";
  success_url: string;
  url: string | null;
}

interface LineItemParams {
  quantity?: string;
  price_data?: { currency?: string; unit_amount?: string; product_data?: { name?: string; description?: string } };
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** The decoded form body (nested like Stripe's `a[b][0][c]` keys). */
  body: Record<string, unknown>;
  headers: IncomingMessage["headers"];
}

export interface FakeStripe {
  /** For STRIPE_API_URL. */
  url: string;
  secretKey: string;
  webhookSecret: string;
  sessions: Map<string, FakeCheckoutSession>;
  requests: RecordedRequest[];
  /** While set, every API call answers 500 (an outage). */
  failing: boolean;
  /** The customer pays on Stripe's page: the session becomes complete and paid. */
  pay(sessionId: string): FakeCheckoutSession;
  /** A delayed payment method: the checkout is complete, the money not yet there. */
  completeUnpaid(sessionId: string): FakeCheckoutSession;
  /** The JSON body of an event about a session, as Stripe would deliver it. */
  event(type: string, sessionId: string): string;
  /** A Stripe-Signature header for a body (the webhook secret unless another is given). */
  sign(payload: string, options?: { secret?: string; timestamp?: number }): string;
  close(): Promise<void>;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const secretKey = `sk_test_${randomBytes(12).toString("hex")}`;
  const webhookSecret = `whsec_${randomBytes(16).toString("hex")}`;
  const sessions = new Map<string, FakeCheckoutSession>();
  const requests: RecordedRequest[] = [];
  let baseUrl = "";

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      send(response, 500, { error: { type: "api_error", message: String(error) } });
    });
  });

  const fake: FakeStripe = {
    url: "",
    secretKey,
    webhookSecret,
    sessions,
    requests,
    failing: false,
    pay(sessionId) {
      const session = existing(sessionId);
      Object.assign(session, {
        status: "complete",
        payment_status: "paid",
        payment_intent: `pi_${randomBytes(12).toString("hex")}`,
        url: null,
      });
      return session;
    },
    completeUnpaid(sessionId) {
      const session = existing(sessionId);
      Object.assign(session, { status: "complete", payment_status: "unpaid", url: null });
      return session;
    },
    event(type, sessionId) {
      const { line_items_requested: _requested, ...session } = existing(sessionId);
      return JSON.stringify({
        id: `evt_${randomBytes(12).toString("hex")}`,
        object: "event",
        api_version: Stripe.API_VERSION,
        created: Math.floor(Date.now() / 1000),
        data: { object: session },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      });
    },
    sign(payload, { secret = webhookSecret, timestamp } = {}) {
      return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
    },
    close() {
      return new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };

  function existing(sessionId: string) {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`the fake Stripe has no session ${sessionId}`);
    return session;
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? "/", baseUrl);
    const body = parseStripeForm(await readBody(request));
    requests.push({ method: request.method ?? "GET", path: url.pathname, body, headers: request.headers });

    if (fake.failing) return send(response, 500, { error: { type: "api_error", message: "An unexpected error occurred." } });
    if (request.headers.authorization !== `Bearer ${secretKey}`) {
      return send(response, 401, {
        error: { type: "invalid_request_error", message: "Invalid API Key provided." },
      });
    }

    if (request.method === "POST" && url.pathname === "/v1/checkout/sessions") {
      return createSession(body, response);
    }
    const retrieve = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
    if (request.method === "GET" && retrieve) {
      const session = sessions.get(decodeURIComponent(retrieve[1]!));
      if (!session) {
        return send(response, 404, {
          error: {
            type: "invalid_request_error",
            code: "resource_missing",
            param: "id",
            message: `No such checkout.session: '${retrieve[1]}'`,
          },
        });
      }
      const { line_items_requested: _requested, ...visible } = session;
      return send(response, 200, visible);
    }
    return send(response, 404, {
      error: { type: "invalid_request_error", message: `Unrecognized request URL (${request.method} ${url.pathname}).` },
    });
  }

  function createSession(body: Record<string, unknown>, response: ServerResponse) {
    const invalid = (param: string, message: string) => send(response, 400, { error: { type: "invalid_request_error", param, message } });
    if (body.mode !== "payment") return invalid("mode", "This fake supports mode=payment only.");
    for (const param of ["success_url", "cancel_url"] as const) {
      if (typeof body[param] !== "string" || !/^https?:\/\//.test(body[param])) {
        return invalid(param, `Not a valid URL: ${param}`);
      }
    }
    const lineItems = Array.isArray(body.line_items) ? (body.line_items as LineItemParams[]) : [];
    if (lineItems.length === 0) return invalid("line_items", "line_items is required in payment mode.");
    let total = 0;
    let currency: string | undefined;
    for (const [index, item] of lineItems.entries()) {
      const amount = Number(item.price_data?.unit_amount);
      const quantity = Number(item.quantity ?? 1);
      if (!Number.isInteger(amount) || amount <= 0) {
        return invalid(`line_items[${index}][price_data][unit_amount]`, "unit_amount must be a positive integer (cents).");
      }
      if (!item.price_data?.product_data?.name) {
        return invalid(`line_items[${index}][price_data][product_data][name]`, "A product name is required.");
      }
      if (currency && item.price_data.currency !== currency) return invalid("currency", "All line items must share a currency.");
      currency = item.price_data.currency;
      total += amount * quantity;
    }
    const id = `cs_test_${randomBytes(24).toString("hex")}`;
    const now = Math.floor(Date.now() / 1000);
    const session: FakeCheckoutSession = {
      id,
      object: "checkout.session",
      amount_subtotal: total,
      amount_total: total,
      cancel_url: body.cancel_url as string,
      client_reference_id: typeof body.client_reference_id === "string" ? body.client_reference_id : null,
      created: now,
      currency: currency ?? "usd",
      customer_email: typeof body.customer_email === "string" ? body.customer_email : null,
      expires_at: now + 24 * 60 * 60,
      line_items_requested: lineItems,
      livemode: false,
      metadata: (body.metadata ?? {}) as Record<string, string>,
      mode: "payment",
      payment_intent: null,
      payment_status: "unpaid",
      status: "open",
      success_url: body.success_url as string,
      url: `${baseUrl}/c/pay/${id}`,
    };
    sessions.set(id, session);
    const { line_items_requested: _requested, ...visible } = session;
    return send(response, 200, visible);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.url = baseUrl;
  return fake;
}

function send(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { "Content-Type": "application/json", "Request-Id": `req_${randomBytes(8).toString("hex")}` });
  response.end(JSON.stringify(body));
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (text += chunk));
    request.on("end", () => resolve(text));
    request.on("error", reject);
  });
}

/** Stripe's form encoding: `line_items[0][price_data][currency]=usd` → nested objects and arrays. */
export function parseStripeForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = [key.replace(/\[.*$/, ""), ...[...key.matchAll(/\[([^\]]*)\]/g)].map((match) => match[1]!)];
    let node: Record<string, unknown> | unknown[] = root;
    for (const [index, segment] of path.entries()) {
      const last = index === path.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(path[index + 1]!);
      const slot = Array.isArray(node) ? Number(segment) : segment;
      const container = node as Record<string | number, unknown>;
      if (last) {
        container[slot] = value;
      } else {
        container[slot] ??= nextIsIndex ? [] : {};
        node = container[slot] as Record<string, unknown> | unknown[];
      }
    }
  }
  return root;
}
