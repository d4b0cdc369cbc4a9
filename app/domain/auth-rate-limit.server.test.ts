import { describe, expect, it } from "vitest";
import { authLimitFor } from "./auth-rate-limit.server.ts";
import { formatWait } from "./rate-limit.server.ts";

describe("authLimitFor", () => {
  it("limits sign-in, sign-up, outgoing mail and password endpoints", () => {
    expect(authLimitFor("/sign-in/email")?.rule.name).toBe("auth-sign-in");
    expect(authLimitFor("/sign-in/social")?.rule.name).toBe("auth-sign-in");
    expect(authLimitFor("/sign-up/email")?.rule.name).toBe("auth-sign-up");
    expect(authLimitFor("/send-verification-email")?.rule.name).toBe("auth-mail");
    expect(authLimitFor("/request-password-reset")?.rule.name).toBe("auth-mail");
    expect(authLimitFor("/change-password")?.rule.name).toBe("auth-password");
    expect(authLimitFor("/reset-password/abc")?.rule.name).toBe("auth-password");
  });

  it("leaves reading the session and OAuth callbacks alone", () => {
    expect(authLimitFor("/get-session")).toBeUndefined();
    expect(authLimitFor("/callback/google")).toBeUndefined();
    expect(authLimitFor("/verify-email")).toBeUndefined();
  });
});

describe("formatWait", () => {
  it("says how long to wait in words", () => {
    expect(formatWait(1)).toBe("1 second");
    expect(formatWait(45)).toBe("45 seconds");
    expect(formatWait(60)).toBe("1 minute");
    expect(formatWait(61)).toBe("2 minutes");
    expect(formatWait(600)).toBe("10 minutes");
    expect(formatWait(3600)).toBe("60 minutes");
    expect(formatWait(7200)).toBe("2 hours");
    expect(formatWait(7201)).toBe("3 hours");
    expect(formatWait(86_400)).toBe("24 hours");
  });
});
