import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateLimit, session } from "#app/db/schema.ts";
import { rateLimitKey } from "#app/domain/rate-limit.server.ts";
import { ACCOUNT_SIGN_IN_LIMIT, accountSubject } from "#app/domain/sign-in-throttle.server.ts";
import { INVALID_CREDENTIALS_MESSAGE } from "#app/lib/auth.ts";
import { signUp, testClientAddress, uniqueEmail } from "#tests/helpers/accounts.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";

/**
 * The per-account sign-in limit (docs/decisions/017). Every attempt comes from an address of its
 * own, so the per-address limit never applies: what is refused here is refused per account.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

const LOCKED = /^Too many failed sign-in attempts for this account\. Please wait (\d+ minutes?|\d+ seconds?) and try again\.$/;

function signIn(email: string, password: string, { address = testClientAddress() } = {}) {
  return server.fetch("/api/auth/sign-in/email", {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: server.url, "X-Forwarded-For": address },
    body: JSON.stringify({ email, password }),
  });
}

/** `count` wrong passwords for `email`, each from a new address, each answered 401. */
async function failSignIns(email: string, count: number) {
  for (let attempt = 1; attempt <= count; attempt += 1) {
    const response = await signIn(email, `wrong guess ${attempt}`);
    expect(response.status, `wrong password ${attempt}`).toBe(401);
    expect((await response.json()).message).toBe(INVALID_CREDENTIALS_MESSAGE);
  }
}

async function expectLocked(response: Response) {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  expect(response.headers.getSetCookie()).toEqual([]);
  const body = (await response.json()) as { error: string; code: string; retryAfterSeconds: number };
  expect(body).toEqual({ error: expect.stringMatching(LOCKED), code: "rate_limited", retryAfterSeconds: retryAfter });
  return body;
}

async function sessionCount(userId: string) {
  const [row] = await server.connection.db
    .select({ count: sql<number>`count(*)::int` })
    .from(session)
    .where(eq(session.userId, userId));
  return row?.count ?? 0;
}

/** The account's counter row, as if its window had begun `ms` earlier. */
async function ageCounter(email: string, ms: number) {
  const key = rateLimitKey(ACCOUNT_SIGN_IN_LIMIT, accountSubject(email)!);
  const aged = await server.connection.db
    .update(rateLimit)
    .set({ lastRequest: sql`${rateLimit.lastRequest} - ${ms}` })
    .where(eq(rateLimit.key, key))
    .returning({ key: rateLimit.key });
  expect(aged).toHaveLength(1);
}

describe("sign-in is limited per account, from any address", () => {
  it("after 10 wrong passwords refuses even the right one, with the wait, without checking it", async () => {
    const player = await signUp(server);
    const sessionsBefore = await sessionCount(player.userId);
    await failSignIns(player.email, 10);

    const body = await expectLocked(await signIn(player.email, player.password));
    expect(body.error).toBe("Too many failed sign-in attempts for this account. Please wait 15 minutes and try again.");
    expect(await sessionCount(player.userId)).toBe(sessionsBefore);

    // The same account however the email is written, and as a form (better-auth accepts both).
    await expectLocked(await signIn(`  ${player.email.toUpperCase()} `, player.password));
    const form = await server.fetch("/api/auth/sign-in/email", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url, "X-Forwarded-For": testClientAddress() },
      body: new URLSearchParams({ email: player.email, password: player.password }).toString(),
    });
    await expectLocked(form);
  });

  it("leaves other accounts alone", async () => {
    const locked = await signUp(server);
    const other = await signUp(server);
    await failSignIns(locked.email, 10);
    await expectLocked(await signIn(locked.email, locked.password));
    expect((await signIn(other.email, other.password)).status).toBe(200);
  });

  it("signs in again once the 15 minutes have passed", async () => {
    const player = await signUp(server);
    await failSignIns(player.email, 10);
    await expectLocked(await signIn(player.email, player.password));

    await ageCounter(player.email, 14 * 60_000);
    await expectLocked(await signIn(player.email, player.password));
    await ageCounter(player.email, 60_000);
    expect((await signIn(player.email, player.password)).status).toBe(200);
  });

  it("locks an email that has no account the same way, so a lock tells nothing about which accounts exist", async () => {
    const nobody = uniqueEmail("nobody");
    await failSignIns(nobody, 10);
    const body = await expectLocked(await signIn(nobody, "one more guess"));
    expect(body.error).toBe("Too many failed sign-in attempts for this account. Please wait 15 minutes and try again.");
  });

  it("counts guesses sent all at once before any is answered", async () => {
    const player = await signUp(server);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => signIn(player.email, `parallel guess ${index}`)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array<number>(10).fill(401), ...Array<number>(10).fill(429)]);
    await expectLocked(await signIn(player.email, player.password));
  });
});

describe("what counts", () => {
  it("a successful sign-in clears the failures before it", async () => {
    const player = await signUp(server);
    await failSignIns(player.email, 9);
    expect((await signIn(player.email, player.password)).status).toBe(200);
    await failSignIns(player.email, 10);
    await expectLocked(await signIn(player.email, player.password));
  });

  it("attempts whose password was never checked do not count", async () => {
    const player = await signUp(server);
    for (let attempt = 1; attempt <= 12; attempt += 1) {
      const response = await server.fetch("/api/auth/sign-in/email", {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: server.url, "X-Forwarded-For": testClientAddress() },
        body: JSON.stringify({ email: player.email }),
      });
      expect(response.status, `attempt ${attempt} without a password`).toBe(400);
    }
    expect((await signIn(player.email, player.password)).status).toBe(200);
  });

  it("a body that names no account goes to better-auth, which refuses it", async () => {
    const post = (body: string, contentType = "application/json") =>
      server.fetch("/api/auth/sign-in/email", {
        method: "POST",
        headers: { "Content-Type": contentType, Origin: server.url, "X-Forwarded-For": testClientAddress() },
        body,
      });
    const noEmail = await post(JSON.stringify({ password: "no email here" }));
    expect(noEmail.status).toBe(400);
    expect((await noEmail.json()).message).toBe("Please enter a valid email address");
    expect((await post("{not json")).status).toBe(400);
    expect((await post("email=lin%40example.com", "text/plain")).status).toBe(415);
  });
});
