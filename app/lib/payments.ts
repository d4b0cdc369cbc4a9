/**
 * What the credits pages and the payment API share: docs/spec.md §8's messages, the JSON the API answers
 * with, and how prices read. Safe on both sides.
 */
import type { ErrorCode } from "./error-codes.ts";

export const PAYMENT_MESSAGES = {
  signInRequired: "Please sign in to purchase credits",
  createFailed: "Failed to create payment session",
  invalidResponse: "Invalid payment response",
  initiateFailed: "Failed to initiate purchase",
  verifyFailed: "Failed to verify payment",
  verificationFailed: "Payment verification failed",
  testMode: "Test mode — no card is charged",
  unavailable: "Purchases are unavailable right now",
} as const;

export function creditsAddedMessage(credits: number) {
  return `${credits} credits added to your account!`;
}

/** POST /api/create-payment answers `{ url }`, or a refusal `{ error, code }` with a 4xx/5xx status. */
export interface CreatePaymentAnswer {
  url?: string;
  error?: string;
  code?: ErrorCode;
}

/**
 * POST /api/verify-payment answers `{ success: true, creditsAdded, balance }`; a payment that is
 * not (yet) paid is refused as `payment_not_completed`, one that is not the caller's as `not_found`.
 */
export interface VerifyPaymentAnswer {
  success?: boolean;
  creditsAdded?: number;
  balance?: number;
  error?: string;
  code?: ErrorCode;
}

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

export function formatUsd(cents: number) {
  return usd.format(cents / 100);
}

/** Where a checkout returns after payment; `credits` is only a hint for people reading the URL. */
export function paymentSuccessPath(sessionId: string, credits: number) {
  return `/payment-success?session_id=${sessionId}&credits=${credits}`;
}
