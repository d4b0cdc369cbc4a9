import { mkdtempSync, readFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigurationError, GAME_MASTER_STREAMS_PER_CORE, parseEnvironment } from "./env.server.ts";

const dataDir = () => mkdtempSync(path.join(tmpdir(), "pae-env-"));

function errorOf(source: Record<string, string>) {
  try {
    parseEnvironment({ DATA_DIR: dataDir(), ...source });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as Error).message;
  }
  throw new Error("expected a configuration error");
}

describe("configuration", () => {
  it("runs on the embedded defaults with nothing set", () => {
    const directory = dataDir();
    const config = parseEnvironment({ DATA_DIR: directory });
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: "0.0.0.0",
      PUBLIC_URL: "http://localhost:3000",
      AI_PROVIDER: "offline",
      AI_CONTEXT_TOKENS: 8000,
      AI_MAX_OUTPUT_TOKENS: 800,
      AI_TIMEOUT_MS: 60000,
      DATABASE_POOL_SIZE: 20,
      GAME_MASTER_MAX_STREAMS: GAME_MASTER_STREAMS_PER_CORE * availableParallelism(),
      REQUIRE_EMAIL_VERIFICATION: false,
      SITE_NAME: "Play as Empress",
      SUPPORT_EMAIL: "support@playasempress.example",
      usesEmbeddedDatabase: true,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.AUTH_SECRET).toHaveLength(43);
    expect(readFileSync(path.join(directory, "auth-secret"), "utf8")).toBe(config.AUTH_SECRET);
    expect(parseEnvironment({ DATA_DIR: directory }).AUTH_SECRET).toBe(config.AUTH_SECRET);
  });

  it("gives free story openings a few a minute and a day, per address, and before confirmation; 0 turns one off (docs/decisions/041)", () => {
    expect(parseEnvironment({ DATA_DIR: dataDir() })).toMatchObject({
      FREE_OPENINGS_PER_MINUTE: 3,
      FREE_OPENINGS_PER_DAY: 20,
      FREE_OPENINGS_PER_ADDRESS_PER_DAY: 60,
      FREE_OPENINGS_BEFORE_CONFIRMATION: 3,
    });
    expect(parseEnvironment({ DATA_DIR: dataDir(), FREE_OPENINGS_PER_DAY: "0" }).FREE_OPENINGS_PER_DAY).toBe(0);
    expect(errorOf({ FREE_OPENINGS_PER_ADDRESS_PER_DAY: "-1" })).toMatch(
      /^Invalid configuration: FREE_OPENINGS_PER_ADDRESS_PER_DAY .*\(got "-1"\)$/,
    );
    expect(errorOf({ FREE_OPENINGS_BEFORE_CONFIRMATION: "a few" })).toMatch(/^Invalid configuration: FREE_OPENINGS_BEFORE_CONFIRMATION /);
  });

  it("trusts both loopback names on the port while PUBLIC_URL is unset, and only PUBLIC_URL once it is set", () => {
    expect(parseEnvironment({ DATA_DIR: dataDir(), PORT: "4100" }).SITE_ORIGINS).toEqual(["http://localhost:4100", "http://127.0.0.1:4100"]);
    expect(parseEnvironment({ DATA_DIR: dataDir(), PUBLIC_URL: "https://play.example/" }).SITE_ORIGINS).toEqual(["https://play.example"]);
  });

  it("names the variable and the problem in one line", () => {
    expect(errorOf({ PORT: "eighty" })).toMatch(/^Invalid configuration: PORT .*\(got "eighty"\)$/);
    expect(errorOf({ DATABASE_URL: "mysql://x" })).toBe(
      'Invalid configuration: DATABASE_URL must start with postgres:// or postgresql:// (got "mysql://x")',
    );
    expect(errorOf({ AI_PROVIDER: "skynet" })).toMatch(/^Invalid configuration: AI_PROVIDER /);
    expect(errorOf({ REQUIRE_EMAIL_VERIFICATION: "maybe" })).toMatch(/^Invalid configuration: REQUIRE_EMAIL_VERIFICATION /);
    expect(errorOf({ SUPPORT_EMAIL: "nobody" })).toMatch(/^Invalid configuration: SUPPORT_EMAIL /);
    expect(errorOf({ DATABASE_POOL_SIZE: "0" })).toMatch(/^Invalid configuration: DATABASE_POOL_SIZE .*\(got "0"\)$/);
    expect(errorOf({ METRICS_TOKEN: "short" })).toBe("Invalid configuration: METRICS_TOKEN must be at least 16 characters");
    expect(errorOf({ AUTH_SECRET: "too-short-secret" })).toBe("Invalid configuration: AUTH_SECRET must be at least 32 characters");
    for (const message of [errorOf({ PORT: "-1" }), errorOf({ PUBLIC_URL: "ftp://x" })]) expect(message).not.toContain("\n");
  });

  it("requires what a chosen provider needs", () => {
    expect(errorOf({ AI_PROVIDER: "openai-compatible", AI_MODEL: "m" })).toBe(
      "Invalid configuration: AI_BASE_URL is required when AI_PROVIDER is openai-compatible",
    );
    expect(errorOf({ AI_PROVIDER: "anthropic", AI_API_KEY: "k" })).toBe(
      "Invalid configuration: AI_MODEL is required when AI_PROVIDER is anthropic",
    );
    expect(errorOf({ STRIPE_SECRET_KEY: "sk_test_1" })).toBe(
      "Invalid configuration: STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set",
    );
    expect(errorOf({ GOOGLE_CLIENT_ID: "id" })).toBe("Invalid configuration: GOOGLE_CLIENT_SECRET is required when GOOGLE_CLIENT_ID is set");
  });

  it("requires a shared AUTH_SECRET for production on PostgreSQL only", () => {
    expect(errorOf({ NODE_ENV: "production", DATABASE_URL: "postgres://db/x" })).toBe(
      "Invalid configuration: AUTH_SECRET is required in production when DATABASE_URL is set",
    );
    expect(() => parseEnvironment({ NODE_ENV: "production", DATA_DIR: dataDir() })).not.toThrow();
  });
});

describe("the payments provider", () => {
  const stripeKeys = { STRIPE_SECRET_KEY: "sk_test_1", STRIPE_WEBHOOK_SECRET: "whsec_1" };
  const providerOf = (source: Record<string, string>) => parseEnvironment({ DATA_DIR: dataDir(), ...source }).paymentsProvider;

  // NODE_ENV × a Stripe key × PAYMENTS_PROVIDER. The test checkout gives credits away, so
  // production reaches it only when it is named, and sells nothing when neither is set.
  it.each([
    { NODE_ENV: "development", stripe: false, PAYMENTS_PROVIDER: undefined, provider: "test" },
    { NODE_ENV: "test", stripe: false, PAYMENTS_PROVIDER: undefined, provider: "test" },
    { NODE_ENV: "production", stripe: false, PAYMENTS_PROVIDER: undefined, provider: "off" },
    { NODE_ENV: "production", stripe: false, PAYMENTS_PROVIDER: "", provider: "off" },
    { NODE_ENV: "development", stripe: true, PAYMENTS_PROVIDER: undefined, provider: "stripe" },
    { NODE_ENV: "production", stripe: true, PAYMENTS_PROVIDER: undefined, provider: "stripe" },
    { NODE_ENV: "production", stripe: true, PAYMENTS_PROVIDER: "stripe", provider: "stripe" },
    { NODE_ENV: "development", stripe: true, PAYMENTS_PROVIDER: "stripe", provider: "stripe" },
    { NODE_ENV: "production", stripe: false, PAYMENTS_PROVIDER: "test", provider: "test" },
    { NODE_ENV: "production", stripe: true, PAYMENTS_PROVIDER: "test", provider: "test" },
    { NODE_ENV: "development", stripe: true, PAYMENTS_PROVIDER: "test", provider: "test" },
  ] as const)("NODE_ENV=$NODE_ENV, Stripe key: $stripe, PAYMENTS_PROVIDER=$PAYMENTS_PROVIDER → $provider", (row) => {
    const source: Record<string, string> = { NODE_ENV: row.NODE_ENV, ...(row.stripe ? stripeKeys : {}) };
    if (row.PAYMENTS_PROVIDER !== undefined) source.PAYMENTS_PROVIDER = row.PAYMENTS_PROVIDER;
    expect(providerOf(source)).toBe(row.provider);
  });

  it("defaults to the test checkout when NODE_ENV is unset (development)", () => {
    expect(providerOf({})).toBe("test");
  });

  it("refuses PAYMENTS_PROVIDER=stripe without a key, and providers it does not know", () => {
    for (const NODE_ENV of ["development", "production"]) {
      expect(errorOf({ NODE_ENV, PAYMENTS_PROVIDER: "stripe" })).toBe(
        "Invalid configuration: STRIPE_SECRET_KEY is required when PAYMENTS_PROVIDER is stripe",
      );
    }
    expect(errorOf({ PAYMENTS_PROVIDER: "paypal" })).toMatch(/^Invalid configuration: PAYMENTS_PROVIDER .*\(got "paypal"\)$/);
  });
});
