import { describe, expect, it } from "vitest";
import { RateLimitedError } from "./errors.server.ts";
import { rateLimitResult } from "./rate-limit.server.ts";
import { ACCOUNT_SIGN_IN_LIMIT, accountLockedError, accountSubject, passwordVerdict, signInEmailOf } from "./sign-in-throttle.server.ts";

const MINUTE = 60_000;

function signInRequest(body: string, contentType: string) {
  return new Request("http://site.test/api/auth/sign-in/email", { method: "POST", headers: { "Content-Type": contentType }, body });
}

describe("the account sign-in limit", () => {
  const windowStartedAt = Date.UTC(2026, 0, 1, 12, 0, 0);
  const decide = (count: number, now: number) => accountLockedError(rateLimitResult(ACCOUNT_SIGN_IN_LIMIT, { count, windowStartedAt }, now));

  it("lets 10 failed attempts through in 15 minutes and refuses the 11th until the window ends", () => {
    expect(ACCOUNT_SIGN_IN_LIMIT).toMatchObject({ limit: 10, windowMs: 15 * MINUTE });
    expect(decide(10, windowStartedAt + 5 * MINUTE)).toBeUndefined();

    const locked = decide(11, windowStartedAt + 5 * MINUTE);
    expect(locked).toBeInstanceOf(RateLimitedError);
    expect(locked?.code).toBe("rate_limited");
    expect(locked?.retryAfterSeconds).toBe(10 * 60);
    expect(locked?.message).toBe("Too many failed sign-in attempts for this account. Please wait 10 minutes and try again.");
  });

  it("says the wait that is left as the window runs out", () => {
    expect(decide(11, windowStartedAt + 14 * MINUTE + 15_000)?.message).toBe(
      "Too many failed sign-in attempts for this account. Please wait 45 seconds and try again.",
    );
    expect(decide(50, windowStartedAt + 15 * MINUTE - 1)?.retryAfterSeconds).toBe(1);
  });
});

describe("accountSubject", () => {
  it("is one subject for an email however it is capitalised or padded", () => {
    expect(accountSubject("  Lin@Example.COM ")).toBe(accountSubject("lin@example.com"));
  });

  it("tells different emails apart and keeps no address in the key", () => {
    expect(accountSubject("lin@example.com")).not.toBe(accountSubject("mei@example.com"));
    expect(accountSubject("lin@example.com")).toMatch(/^[0-9a-f]{64}$/);
    expect(accountSubject(`${"x".repeat(100_000)}@example.com`)).toHaveLength(64);
  });

  it("names no account for an empty or blank email", () => {
    expect(accountSubject("")).toBeUndefined();
    expect(accountSubject("   ")).toBeUndefined();
  });
});

describe("signInEmailOf", () => {
  it("reads the email of a JSON body and leaves the body for better-auth", async () => {
    const request = signInRequest(JSON.stringify({ email: "lin@example.com", password: "secret" }), "application/json; charset=utf-8");
    expect(await signInEmailOf(request)).toBe("lin@example.com");
    expect(await request.json()).toEqual({ email: "lin@example.com", password: "secret" });
  });

  it("reads a form body too, the last of repeated fields as better-auth does", async () => {
    const request = signInRequest("email=first%40example.com&password=x&email=Lin%40Example.com", "application/x-www-form-urlencoded");
    expect(await signInEmailOf(request)).toBe("Lin@Example.com");
  });

  it("finds none in a body that is not JSON, has no email or an email that is not text", async () => {
    expect(await signInEmailOf(signInRequest("{not json", "application/json"))).toBeUndefined();
    expect(await signInEmailOf(signInRequest(JSON.stringify({ password: "x" }), "application/json"))).toBeUndefined();
    expect(await signInEmailOf(signInRequest(JSON.stringify({ email: ["lin@example.com"] }), "application/json"))).toBeUndefined();
    expect(await signInEmailOf(signInRequest(JSON.stringify(null), "application/json"))).toBeUndefined();
    expect(await signInEmailOf(signInRequest(JSON.stringify({ email: "lin@example.com" }), "text/plain"))).toBeUndefined();
    expect(await signInEmailOf(new Request("http://site.test/api/auth/sign-in/email", { method: "POST" }))).toBeUndefined();
  });
});

describe("passwordVerdict", () => {
  const answer = (status: number, body: unknown) => Response.json(body, { status });

  it("is wrong for better-auth's 401 INVALID_EMAIL_OR_PASSWORD (wrong password and unknown email alike)", async () => {
    expect(await passwordVerdict(answer(401, { code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" }))).toBe("wrong");
  });

  it("is right for a signed-in answer", async () => {
    expect(await passwordVerdict(answer(200, { token: "t", user: {} }))).toBe("right");
  });

  it("is unchecked for refused input, other 401s and failures of ours", async () => {
    expect(await passwordVerdict(answer(400, { code: "VALIDATION_ERROR", message: "[body.password] Invalid input" }))).toBe("unchecked");
    expect(await passwordVerdict(answer(401, { code: "FAILED_TO_CREATE_SESSION" }))).toBe("unchecked");
    expect(await passwordVerdict(new Response("not json", { status: 401 }))).toBe("unchecked");
    expect(await passwordVerdict(answer(500, { code: "INTERNAL" }))).toBe("unchecked");
  });
});
