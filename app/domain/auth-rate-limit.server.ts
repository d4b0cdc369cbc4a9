import { clientAddress, enforceRateLimit, type RateLimitRule } from "./rate-limit.server.ts";

interface AuthLimit {
  rule: RateLimitRule;
  /** better-auth endpoint paths (below /api/auth) this limit counts; a prefix matches. */
  paths: readonly string[];
  message: (wait: string) => string;
}

const MINUTE = 60_000;

/**
 * Attempts per client address on the endpoints that guess or spend something: passwords,
 * accounts, outgoing mail. Counted in the database, so every instance shares them.
 */
export const AUTH_LIMITS: readonly AuthLimit[] = [
  {
    rule: { name: "auth-sign-in", limit: 10, windowMs: MINUTE },
    paths: ["/sign-in/"],
    message: (wait) => `Too many sign-in attempts. Please wait ${wait} and try again.`,
  },
  {
    rule: { name: "auth-sign-up", limit: 10, windowMs: 10 * MINUTE },
    paths: ["/sign-up/"],
    message: (wait) => `Too many accounts were created from your network. Please wait ${wait} and try again.`,
  },
  {
    rule: { name: "auth-mail", limit: 5, windowMs: 10 * MINUTE },
    paths: ["/send-verification-email", "/request-password-reset", "/forget-password"],
    message: (wait) => `Too many emails were requested. Please wait ${wait} and try again.`,
  },
  {
    rule: { name: "auth-password", limit: 10, windowMs: 10 * MINUTE },
    paths: ["/change-password", "/reset-password", "/set-password", "/change-email", "/verify-password"],
    message: (wait) => `Too many password attempts. Please wait ${wait} and try again.`,
  },
];

/** The limit that applies to a better-auth endpoint path, if any. */
export function authLimitFor(path: string): AuthLimit | undefined {
  return AUTH_LIMITS.find((limit) => limit.paths.some((prefix) => path === prefix || path.startsWith(prefix)));
}

/** Counts a request to /api/auth/*; throws RateLimitedError when its limit is spent. */
export async function limitAuthRequest(request: Request, basePath: string): Promise<void> {
  const path = new URL(request.url).pathname.slice(basePath.length);
  const limit = authLimitFor(path);
  if (limit) await enforceRateLimit(limit.rule, clientAddress(request), limit.message);
}
