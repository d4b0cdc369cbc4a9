import { describe, expect, it } from "vitest";
import { CREDIT_PACKAGES, percentOff, type CreditPackage } from "./constants.ts";
import { creditsAddedMessage, formatUsd, PAYMENT_MESSAGES, paymentSuccessPath } from "./payments.ts";

describe("the package table", () => {
  it("holds the packages of docs/spec.md §9 in cents", () => {
    expect(
      CREDIT_PACKAGES.map(({ id, credits, priceCents, originalPriceCents, badge }) => [id, credits, priceCents, originalPriceCents, badge]),
    ).toEqual([
      ["100", 100, 499, 999, "Starter"],
      ["500", 500, 1999, 3999, "Popular"],
      ["1000", 1000, 3499, 6999, "Best Value"],
    ]);
    expect(
      CREDIT_PACKAGES.filter((creditPackage) => creditPackage.highlight).map((creditPackage) => [creditPackage.id, creditPackage.highlight]),
    ).toEqual([["500", "Most Popular"]]);
  });

  it("computes the percent off from the prices", () => {
    expect(CREDIT_PACKAGES.map(percentOff)).toEqual([50, 50, 50]);
    const other: CreditPackage = { id: "100", credits: 1, priceCents: 750, originalPriceCents: 1000, badge: "" };
    expect(percentOff(other)).toBe(25);
  });
});

describe("payment texts and formats", () => {
  it("formats cents as dollars", () => {
    expect(CREDIT_PACKAGES.map((creditPackage) => formatUsd(creditPackage.priceCents))).toEqual(["$4.99", "$19.99", "$34.99"]);
    expect(formatUsd(6999)).toBe("$69.99");
  });

  it("keeps the messages of docs/spec.md §8 verbatim", () => {
    expect(PAYMENT_MESSAGES).toMatchObject({
      signInRequired: "Please sign in to purchase credits",
      createFailed: "Failed to create payment session",
      invalidResponse: "Invalid payment response",
      initiateFailed: "Failed to initiate purchase",
      verifyFailed: "Failed to verify payment",
      verificationFailed: "Payment verification failed",
    });
    expect(creditsAddedMessage(500)).toBe("500 credits added to your account!");
  });

  it("returns checkouts to /payment-success with the session and the package's credits", () => {
    expect(paymentSuccessPath("{CHECKOUT_SESSION_ID}", 500)).toBe("/payment-success?session_id={CHECKOUT_SESSION_ID}&credits=500");
  });
});
