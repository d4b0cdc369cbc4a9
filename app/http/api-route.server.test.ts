import { Writable } from "node:stream";
import { pino } from "pino";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InsufficientCreditsError } from "../domain/credits.server.ts";
import { ConflictError, NotFoundError, RateLimitedError } from "../domain/errors.server.ts";
import { requestContext } from "../request-context.ts";
import { apiRoute, endpoint } from "./api-route.server.ts";
import { MAX_REQUEST_BODY_BYTES } from "./limits.ts";

function harness() {
  const lines: { level: number; msg: string; err?: { stack?: string } }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number]);
      done();
    },
  });
  const context = new RouterContextProvider();
  context.set(requestContext, {
    requestId: "req-123",
    clientAddress: "127.0.0.1",
    logger: pino(sink),
    cspNonce: "n",
    shutdownSignal: new AbortController().signal,
    outcome: { databaseBusy: false },
  });
  return { context, lines };
}

const echo = apiRoute({
  GET: endpoint({ access: "public", handler: () => ({ ok: true }) }),
  POST: endpoint({
    access: "public",
    body: z.object({ name: z.string().max(10) }),
    handler: ({ body }) => ({ hello: body.name }),
  }),
});

function call(route: typeof echo, init: RequestInit & { url?: string } = {}) {
  const { context, lines } = harness();
  const request = new Request(init.url ?? "http://site.test/api/echo", init);
  return { response: route({ request, params: {}, context }), lines };
}

function post(body: string, contentType = "application/json") {
  return call(echo, { method: "POST", body, headers: { "Content-Type": contentType } }).response;
}

describe("apiRoute", () => {
  it("answers a method it does not take with 405 and Allow", async () => {
    const response = await call(echo, { method: "DELETE" }).response;
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("GET, POST");
    expect(await response.json()).toEqual({ error: "This address accepts GET, POST only.", code: "method_not_allowed" });
  });

  it("answers a handler's value as JSON that no cache may keep", async () => {
    const response = await call(echo).response;
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await response.json()).toEqual({ ok: true });
  });

  it("requires a JSON content type for a body (415)", async () => {
    const response = await post("name=x", "application/x-www-form-urlencoded");
    expect(response.status).toBe(415);
    expect((await response.json()).code).toBe("unsupported_media_type");
  });

  it("refuses a body over the limit (413) even when its length was not declared", async () => {
    const response = await post(JSON.stringify({ name: "x".repeat(MAX_REQUEST_BODY_BYTES) }));
    expect(response.status).toBe(413);
    expect((await response.json()).code).toBe("payload_too_large");
  });

  it("refuses a body that is not JSON (400 invalid_json)", async () => {
    const response = await post("{not json");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "The request body is not valid JSON.", code: "invalid_json" });
  });

  it("refuses a body that does not fit, naming the field (400 invalid_input)", async () => {
    const response = await post(JSON.stringify({ name: 42 }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: '"name" must be text.',
      code: "invalid_input",
      fieldErrors: { name: '"name" must be text.' },
    });
    expect(await (await post(JSON.stringify({ name: "x".repeat(11) }))).json()).toMatchObject({
      error: '"name" is too long: at most 10 characters.',
    });
  });

  it("maps each domain error to its status and code", async () => {
    const cases = [
      [new InsufficientCreditsError(), 402, "insufficient_credits"],
      [new NotFoundError("No such game."), 404, "not_found"],
      [new ConflictError("Taken.", "slug"), 409, "conflict"],
    ] as const;
    for (const [error, status, code] of cases) {
      const route = apiRoute({ GET: endpoint({ access: "public", handler: () => Promise.reject(error) }) });
      const response = await call(route).response;
      expect(response.status).toBe(status);
      expect(await response.json()).toMatchObject({ error: error.message, code });
    }
  });

  it("answers a rate limit with 429 and Retry-After", async () => {
    const route = apiRoute({ GET: endpoint({ access: "public", handler: () => Promise.reject(new RateLimitedError("Slow down.", 42)) }) });
    const response = await call(route).response;
    expect(response.status).toBe(429);
    expect(response.headers.get("Retry-After")).toBe("42");
    expect(await response.json()).toEqual({ error: "Slow down.", code: "rate_limited", retryAfterSeconds: 42 });
  });

  it("answers a database without a free connection with 503 and Retry-After", async () => {
    const busy = new Error("Failed query", { cause: new Error("timeout exceeded when trying to connect") });
    const route = apiRoute({ GET: endpoint({ access: "public", handler: () => Promise.reject(busy) }) });
    const response = await call(route).response;
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("5");
    expect((await response.json()).code).toBe("busy");
  });

  it("answers anything else with 500 and the request id, logged once with its stack", async () => {
    const route = apiRoute({ GET: endpoint({ access: "public", handler: () => Promise.reject(new Error("kaboom")) }) });
    const { response, lines } = call(route);
    const answered = await response;
    expect(answered.status).toBe(500);
    const body = await answered.json();
    expect(body).toMatchObject({ code: "internal", requestId: "req-123" });
    expect(JSON.stringify(body)).not.toContain("kaboom");
    const errors = lines.filter((line) => line.level >= 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.err?.stack).toContain("kaboom");
  });
});
