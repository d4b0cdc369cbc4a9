import { describe, expect, it } from "vitest";
import {
  authPath,
  displayName,
  googleSignInErrorMessage,
  humanAuthMessage,
  safeRedirectPath,
  signUpToPlayPath,
  verificationErrorMessage,
} from "./auth.ts";

describe("safeRedirectPath", () => {
  it("keeps paths on this site, with their query and fragment", () => {
    expect(safeRedirectPath("/play/empress-simulator")).toBe("/play/empress-simulator");
    expect(safeRedirectPath("/games?search=empress#top")).toBe("/games?search=empress#top");
    expect(safeRedirectPath("/game/a/../b")).toBe("/game/b");
  });

  it.each([
    ["https://evil.example/phish"],
    ["//evil.example"],
    ["/\\evil.example"],
    ["\\\\evil.example"],
    ["/ /evil.example"],
    ["javascript:alert(1)"],
    ["evil.example"],
    [""],
    [null],
    [undefined],
  ])("refuses %s", (target) => {
    expect(safeRedirectPath(target)).toBe("/");
    expect(safeRedirectPath(target, "/games")).toBe("/games");
  });

  it("never sends back to /auth itself or to an API endpoint", () => {
    expect(safeRedirectPath("/auth?redirectTo=/auth")).toBe("/");
    expect(safeRedirectPath("/api/auth/sign-out")).toBe("/");
    expect(safeRedirectPath("/auth/verify-email")).toBe("/auth/verify-email");
  });
});

describe("authPath", () => {
  it("remembers where to come back to, leaving out the home page", () => {
    expect(authPath("/")).toBe("/auth");
    expect(authPath("/play/empress-simulator")).toBe("/auth?redirectTo=%2Fplay%2Fempress-simulator");
    expect(authPath("/credits", { tab: "signup" })).toBe("/auth?tab=signup&redirectTo=%2Fcredits");
  });

  it("sends a visitor who wants to play to the Sign Up tab, naming the game, and back to it", () => {
    expect(signUpToPlayPath("empress-simulator")).toBe(
      "/auth?tab=signup&reason=play&game=empress-simulator&redirectTo=%2Fplay%2Fempress-simulator",
    );
  });
});

describe("displayName", () => {
  it("uses the chosen username, tidied and bounded", () => {
    expect(displayName("  Empress   Lin ", "lin@example.com")).toBe("Empress Lin");
    expect(displayName("x".repeat(80), "lin@example.com")).toHaveLength(50);
  });

  it("falls back to the email's first part", () => {
    expect(displayName("", "lin.mei@example.com")).toBe("lin.mei");
    expect(displayName("   ", "lin.mei@example.com")).toBe("lin.mei");
    expect(displayName(null, "lin.mei@example.com")).toBe("lin.mei");
  });
});

describe("humanAuthMessage", () => {
  it("says better-auth's errors the way a person would", () => {
    expect(humanAuthMessage("INVALID_EMAIL_OR_PASSWORD")).toBe("Invalid email or password");
    expect(humanAuthMessage("USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL")).toBe("An account with this email already exists");
    expect(humanAuthMessage("PASSWORD_TOO_SHORT")).toBe("Password must be at least 8 characters");
    expect(humanAuthMessage("PASSWORD_TOO_LONG")).toBe("Password must be at most 128 characters");
  });

  it("names the field that failed the request schema", () => {
    expect(humanAuthMessage("VALIDATION_ERROR", "[body.email] Invalid email address")).toBe("Please enter a valid email address");
    expect(humanAuthMessage("VALIDATION_ERROR", "[body.password] Invalid input")).toBe("Please enter your password");
    expect(humanAuthMessage("VALIDATION_ERROR", "[body.rememberMe] Invalid input")).toBe("Please check what you entered and try again.");
  });

  it("leaves codes it does not know to the server's own message", () => {
    expect(humanAuthMessage("INVALID_ORIGIN")).toBeUndefined();
    expect(humanAuthMessage(undefined)).toBeUndefined();
  });
});

describe("Google and confirmation-link errors", () => {
  it("explain what happened and what to do", () => {
    expect(googleSignInErrorMessage("account_not_linked")).toMatch(/confirm your email address first/);
    expect(googleSignInErrorMessage("access_denied")).toBe("Google sign-in was cancelled.");
    expect(googleSignInErrorMessage("state_mismatch")).toMatch(/try again/);
    expect(googleSignInErrorMessage("something_new")).toBe("Google sign-in did not complete. Please try again.");
    expect(verificationErrorMessage("TOKEN_EXPIRED")).toMatch(/expired/);
    expect(verificationErrorMessage("INVALID_TOKEN")).toMatch(/not valid/);
  });
});
