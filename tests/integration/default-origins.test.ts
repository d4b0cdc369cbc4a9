import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testClientAddress, uniqueEmail } from "#tests/helpers/accounts.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";

/**
 * A default start (PUBLIC_URL unset) is opened as http://localhost:PORT or http://127.0.0.1:PORT
 * alike: both must be able to sign up and play; any other origin is refused.
 */
let server: TestServer;
let port: string;

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL: undefined });
  port = new URL(server.url).port;
});

afterAll(() => server.close());

function signUpFrom(origin: string) {
  return fetch(`${server.url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: origin, "X-Forwarded-For": testClientAddress() },
    body: JSON.stringify({ email: uniqueEmail(), password: "a long enough password", name: "Origin" }),
  });
}

describe("a default start without PUBLIC_URL", () => {
  it("signs up from http://127.0.0.1 and http://localhost on its port", async () => {
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) {
      const response = await signUpFrom(origin);
      expect({ origin, status: response.status }).toEqual({ origin, status: 200 });
    }
  });

  it("lets a signed-in player act from either name, and refuses other origins", async () => {
    const signedUp = await signUpFrom(`http://127.0.0.1:${port}`);
    const cookie = signedUp.headers
      .getSetCookie()
      .find((header) => header.includes("session_token="))!
      .split(";")[0]!;
    const save = (origin: string) =>
      fetch(`${server.url}/api/game-messages`, {
        method: "PUT",
        headers: { "Content-Type": "application/json", Cookie: cookie, Origin: origin },
        body: JSON.stringify({ game_slug: "empress-simulator", messages: [] }),
      });
    expect((await save(`http://localhost:${port}`)).status).toBe(200);
    expect((await save(`http://127.0.0.1:${port}`)).status).toBe(200);
    const foreign = await save(`http://127.0.0.1:${Number(port) + 1}`);
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ code: "cross_site" });
    expect((await signUpFrom("http://evil.example")).status).toBe(403);
  });
});
