import { describe, expect, it } from "vitest";
import { paymentsStartupWarning } from "./payments.server.ts";

describe("the payments warning at start", () => {
  it("says a production server without payments sells nothing, why, and what to set", () => {
    const warning = paymentsStartupWarning({ paymentsProvider: "off", isProduction: true });
    expect(warning).toMatch(/^Payments are off: NODE_ENV is production and neither STRIPE_SECRET_KEY nor PAYMENTS_PROVIDER is set/);
    expect(warning).toContain("PAYMENTS_PROVIDER=test");
    expect(warning).not.toContain("\n");
  });

  it("says a production server on the test checkout gives credits away", () => {
    expect(paymentsStartupWarning({ paymentsProvider: "test", isProduction: true })).toMatch(/anyone can add credits without paying/);
  });

  it("is silent when payments are what the configuration asks for", () => {
    expect(paymentsStartupWarning({ paymentsProvider: "stripe", isProduction: true })).toBeUndefined();
    expect(paymentsStartupWarning({ paymentsProvider: "test", isProduction: false })).toBeUndefined();
  });
});
