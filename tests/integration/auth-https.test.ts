import { afterAll, beforeAll, expect, it } from "vitest";
import { testClientAddress, uniqueEmail } from "#tests/helpers/accounts.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";

// A deployment behind TLS (PUBLIC_URL https) without Google configured.
const PUBLIC_URL = "https://play.example.test";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL, GOOGLE_CLIENT_ID: "", GOOGLE_CLIENT_SECRET: "" });
});

afterAll(async () => {
  await server.close();
});

function signUpFrom(origin: string, email = uniqueEmail("tls")) {
  return server.fetch("/api/auth/sign-up/email", {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: origin, "X-Forwarded-For": testClientAddress() },
    body: JSON.stringify({ email, password: "correct horse battery", name: "" }),
  });
}

it("sets the session cookie Secure, HTTP-only and SameSite=Lax, with the __Secure- prefix", async () => {
  const email = uniqueEmail("tls");
  const response = await signUpFrom(PUBLIC_URL, email);
  expect(response.status).toBe(200);
  const cookie = response.headers.getSetCookie().find((header) => header.startsWith("__Secure-better-auth.session_token="));
  expect(cookie).toBeDefined();
  expect(cookie).toMatch(/;\s*Secure/i);
  expect(cookie).toMatch(/;\s*HttpOnly/i);
  expect(cookie).toMatch(/;\s*SameSite=Lax/i);
  expect(response.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);

  const html = await (await server.fetch("/", { headers: { Cookie: cookie!.split(";")[0]! } })).text();
  expect(html).toContain(email);
});

it("refuses a request that carries the session cookie but comes from another site", async () => {
  const response = await signUpFrom(PUBLIC_URL);
  const cookie = response.headers
    .getSetCookie()
    .find((header) => header.startsWith("__Secure-"))!
    .split(";")[0]!;
  const forged = await server.fetch("/api/auth/sign-out", {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: "https://evil.example", Cookie: cookie },
    body: "{}",
  });
  expect(forged.status).toBe(403);
  const session = await server.fetch("/api/auth/get-session", { headers: { Cookie: cookie } });
  expect(await session.json()).not.toBeNull();
});

it("shows the Google button disabled, with the reason, when GOOGLE_CLIENT_ID is unset", async () => {
  const html = await (await server.fetch("/auth")).text();
  expect(html).toContain("Google sign-in is not configured on this server");
  const googleButtons = [...html.matchAll(/<button[^>]*>(?:(?!<\/button>).)*(?:Continue with Google|Sign up with Google)/gs)].map(
    (match) => match[0],
  );
  expect(googleButtons.length).toBeGreaterThan(0);
  for (const button of googleButtons) expect(button).toMatch(/<button[^>]*\sdisabled=""/);

  const start = await server.fetch("/api/auth/sign-in/social", {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: PUBLIC_URL },
    body: JSON.stringify({ provider: "google", callbackURL: "/" }),
  });
  expect(start.status).toBe(404);
});
