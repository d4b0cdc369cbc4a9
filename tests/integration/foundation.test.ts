import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ METRICS_TOKEN: undefined });
});

afterAll(async () => {
  await server.close();
});

describe("the server shell", () => {
  it("answers liveness and readiness", async () => {
    const live = await server.fetch("/healthz");
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "ok" });
    const ready = await server.fetch("/readyz");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ready", database: server.database.driver });
  });

  it("serves unknown paths as the not-found page with status 404", async () => {
    const response = await server.fetch("/no/such/page");
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("Oops! Page not found");
    expect(html).toMatch(/<a[^>]+href="\/"[^>]*>Return to Home<\/a>/);
  });

  it("has no /metrics without METRICS_TOKEN: the path is as unknown as any other", async () => {
    const response = await server.fetch("/metrics", { headers: { Authorization: "Bearer metrics-token-guess-0123456789" } });
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Oops! Page not found");
  });

  it("refuses request bodies over 1 MB with 413", async () => {
    const response = await server.fetch("/api/auth/sign-in/email", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "a@b.c", password: "x".repeat(1024 * 1024 + 10) }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: expect.stringMatching(/too large/), code: "payload_too_large" });
  });

  it("refuses a body without a declared length with 411, in the one error shape", async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"email":"a@b.c"}'));
        controller.close();
      },
    });
    const response = await server.fetch("/api/auth/sign-in/email", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(411);
    expect(await response.json()).toEqual({ error: "Request bodies must declare their Content-Length.", code: "length_required" });
  });

  it("sends a nonce-based Content-Security-Policy whose nonce is on every script", async () => {
    const response = await server.fetch("/");
    const policy = response.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce).toBeTruthy();
    expect(policy).not.toContain("unsafe-inline' 'nonce"); // scripts: self + nonce only
    const html = await response.text();
    // JSON-LD blocks are data, never executed, so CSP does not apply to them.
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]).filter((tag) => !tag.includes('type="application/ld+json"'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it("sends API answers the same security headers, with a policy that lets no inline script run", async () => {
    const response = await server.fetch("/api/game-messages?game_slug=empress-simulator");
    expect(response.status).toBe(401);
    const directives = (response.headers.get("content-security-policy") ?? "").split(";").map((directive) => directive.trim());
    expect(directives).toContain("script-src 'self'");
    expect(directives).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  });

  it("lets pages load images from the site itself (and data: URLs) only", async () => {
    const response = await server.fetch("/game/empress-simulator");
    expect(response.status).toBe(200);
    const directives = (response.headers.get("content-security-policy") ?? "").split(";").map((directive) => directive.trim());
    // An image from anywhere else would tell that server who reads the page, and could carry what is on it.
    expect(directives.filter((directive) => directive.startsWith("img-src"))).toEqual(["img-src 'self' data:"]);
  });

  it("tags every response with a request id", async () => {
    const response = await server.fetch("/healthz", { headers: { "X-Request-Id": "test-request-0001" } });
    expect(response.headers.get("x-request-id")).toBe("test-request-0001");
    const generated = await server.fetch("/");
    expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  // Last: it takes the database away from the server.
  it("reports not ready (503) once the database is gone, while staying alive", async () => {
    await server.connection.close();
    const ready = await server.fetch("/readyz");
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: "unavailable", error: "The database is not answering." });
    expect((await server.fetch("/healthz")).status).toBe(200);
  });
});
