import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { z } from "zod";
import { MODEL_PROVIDERS } from "./lib/model-calls.ts";

const booleanFlag = z.enum(["true", "false", "1", "0", ""]).transform((value) => value === "true" || value === "1");

const optionalText = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .optional();

const positiveInteger = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const wholeNumber = (fallback: number) => z.coerce.number().int().min(0).default(fallback);

/**
 * How many replies an instance admits by default (docs/decisions/038): the bench holds 500 streams on two cores
 * with the first token within a second at p99, and twice that waits 25 s at p99, so an instance
 * refuses the next turn before it gets there rather than answering everyone late.
 */
export const GAME_MASTER_STREAMS_PER_CORE = 250;

const environmentSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
    DATABASE_URL: z
      .string()
      .trim()
      .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    DATABASE_POOL_SIZE: positiveInteger(20),
    DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
    DATA_DIR: z.string().min(1).default("./data"),
    AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    AI_PROVIDER: z.enum(MODEL_PROVIDERS).default("offline"),
    AI_BASE_URL: z.url().optional(),
    AI_API_KEY: optionalText,
    AI_MODEL: optionalText,
    AI_CONTEXT_TOKENS: positiveInteger(8000),
    AI_MAX_OUTPUT_TOKENS: positiveInteger(800),
    AI_TIMEOUT_MS: positiveInteger(60_000),
    AI_OFFLINE_WORD_DELAY_MS: z.coerce.number().int().min(0).default(35),
    // Sends OpenAI's prompt_cache_key (docs/decisions/055); unset: on for openai only, since an
    // OpenAI-compatible server may refuse a field it does not know.
    AI_PROMPT_CACHE_KEY: booleanFlag.optional(),
    CHAT_TURNS_PER_MINUTE: positiveInteger(20),
    // The free replies that open stories (docs/decisions/041): a few a minute and a day per account,
    // a day per client address, and in all before an account confirms its email address.
    FREE_OPENINGS_PER_MINUTE: wholeNumber(3),
    FREE_OPENINGS_PER_DAY: wholeNumber(20),
    FREE_OPENINGS_PER_ADDRESS_PER_DAY: wholeNumber(60),
    FREE_OPENINGS_BEFORE_CONFIRMATION: wholeNumber(3),
    // Pages rendered for one signed-out address a minute, on each instance (docs/decisions/042); 0: no limit.
    PAGE_RENDERS_PER_MINUTE: wholeNumber(300),
    GAME_MASTER_MAX_STREAMS: positiveInteger(GAME_MASTER_STREAMS_PER_CORE * availableParallelism()),
    SHUTDOWN_GRACE_SECONDS: positiveInteger(10),
    // Per-player bounds on New story (issue 31): so many an hour, so many kept in all.
    STORIES_PER_HOUR: positiveInteger(30),
    STORIES_PER_PLAYER: positiveInteger(200),
    // Players' worlds (issue 36): so many begun a day (saved, imported or remixed), so many publishes an hour,
    // and the first blocked terms (comma-separated): seeded once into the admin's list (docs/decisions/064).
    WORLDS_PER_DAY: positiveInteger(20),
    WORLD_PUBLISHES_PER_HOUR: positiveInteger(10),
    // Reports of worlds one player may send a day.
    REPORTS_PER_DAY: positiveInteger(10),
    // What creators earn from other players' paid turns in their Public worlds (docs/decisions/065):
    // 1 credit per so many paid turns of a world a day, at most so many credits a creator a day (0: none).
    CREATOR_PAID_TURNS_PER_CREDIT: positiveInteger(20),
    CREATOR_CREDITS_PER_DAY: wholeNumber(50),
    WORLD_BLOCKED_TERMS: z
      .string()
      .default("")
      .transform((terms) => [
        ...new Set(
          terms
            .split(",")
            .map((term) => term.trim().toLowerCase())
            .filter(Boolean),
        ),
      ]),
    STRIPE_SECRET_KEY: optionalText,
    STRIPE_WEBHOOK_SECRET: optionalText,
    STRIPE_API_URL: z.url().optional(),
    PAYMENTS_PROVIDER: z
      .enum(["stripe", "test"])
      .optional()
      .or(z.literal("").transform(() => undefined)),
    GOOGLE_CLIENT_ID: optionalText,
    GOOGLE_CLIENT_SECRET: optionalText,
    GOOGLE_DISCOVERY_URL: z.url().default("https://accounts.google.com/.well-known/openid-configuration"),
    SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
    MAIL_FROM: z.string().min(3).default("Play as Empress <no-reply@playasempress.example>"),
    REQUIRE_EMAIL_VERIFICATION: booleanFlag.default(false),
    SITE_NAME: z.string().trim().min(1).default("Play as Empress"),
    SUPPORT_EMAIL: z.email().default("support@playasempress.example"),
    METRICS_TOKEN: z
      .string()
      .trim()
      .min(16, "must be at least 16 characters")
      .optional()
      .or(z.literal("").transform(() => undefined)),
  })
  .superRefine((value, context) => {
    const needsModel = value.AI_PROVIDER !== "offline";
    if (needsModel && !value.AI_MODEL) {
      context.addIssue({ code: "custom", path: ["AI_MODEL"], message: `is required when AI_PROVIDER is ${value.AI_PROVIDER}` });
    }
    if (value.AI_PROVIDER === "openai-compatible" && !value.AI_BASE_URL) {
      context.addIssue({ code: "custom", path: ["AI_BASE_URL"], message: "is required when AI_PROVIDER is openai-compatible" });
    }
    if ((value.AI_PROVIDER === "openai" || value.AI_PROVIDER === "anthropic") && !value.AI_API_KEY) {
      context.addIssue({ code: "custom", path: ["AI_API_KEY"], message: `is required when AI_PROVIDER is ${value.AI_PROVIDER}` });
    }
    if (value.STRIPE_SECRET_KEY && !value.STRIPE_WEBHOOK_SECRET) {
      context.addIssue({ code: "custom", path: ["STRIPE_WEBHOOK_SECRET"], message: "is required when STRIPE_SECRET_KEY is set" });
    }
    if (value.PAYMENTS_PROVIDER === "stripe" && !value.STRIPE_SECRET_KEY) {
      context.addIssue({ code: "custom", path: ["STRIPE_SECRET_KEY"], message: "is required when PAYMENTS_PROVIDER is stripe" });
    }
    if (value.GOOGLE_CLIENT_ID && !value.GOOGLE_CLIENT_SECRET) {
      context.addIssue({ code: "custom", path: ["GOOGLE_CLIENT_SECRET"], message: "is required when GOOGLE_CLIENT_ID is set" });
    }
    // Several instances behind a load balancer must sign sessions with one shared secret.
    if (value.NODE_ENV === "production" && value.DATABASE_URL && !value.AUTH_SECRET) {
      context.addIssue({ code: "custom", path: ["AUTH_SECRET"], message: "is required in production when DATABASE_URL is set" });
    }
  });

export type Environment = ReturnType<typeof parseEnvironment>;

export class ConfigurationError extends Error {
  override name = "ConfigurationError";
}

const SECRET_VARIABLE = /SECRET|TOKEN|_KEY$/;

export function parseEnvironment(source: NodeJS.ProcessEnv = process.env) {
  const result = environmentSchema.safeParse(source);
  if (!result.success) {
    const issue = result.error.issues[0];
    const variable = issue?.path.join(".") || "environment";
    // A secret's value is never written to the log, even a wrong one.
    const received = issue && issue.path.length > 0 && !SECRET_VARIABLE.test(variable) ? source[String(issue.path[0])] : undefined;
    const detail = issue?.message ?? "is invalid";
    throw new ConfigurationError(
      `Invalid configuration: ${variable} ${detail.replace(/^Invalid input: /, "")}` + (received === undefined ? "" : ` (got "${received}")`),
    );
  }
  const value = result.data;
  const dataDir = path.resolve(value.DATA_DIR);
  const port = value.PORT || 3000;
  const publicUrl = (value.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, "");
  return {
    ...value,
    DATA_DIR: dataDir,
    PUBLIC_URL: publicUrl,
    // Where the site's own pages are served from. Unset, a default start is opened as localhost or
    // 127.0.0.1 alike, and both must be able to sign up and post; set, only the address it names.
    SITE_ORIGINS: value.PUBLIC_URL ? [new URL(publicUrl).origin] : [`http://localhost:${port}`, `http://127.0.0.1:${port}`],
    AUTH_SECRET: value.AUTH_SECRET ?? readOrCreateLocalSecret(dataDir, "auth-secret"),
    AI_PROMPT_CACHE_KEY: value.AI_PROMPT_CACHE_KEY ?? value.AI_PROVIDER === "openai",
    isProduction: value.NODE_ENV === "production",
    paymentsProvider: paymentsProviderFor(value),
    usesEmbeddedDatabase: !value.DATABASE_URL,
  };
}

/** How credits are bought: Stripe Checkout, the built-in test checkout, or not at all. */
export type PaymentsProvider = "stripe" | "test" | "off";

/**
 * The test checkout "pays" for nothing, so anyone reaching it can add credits free. Outside
 * production that is the point (development, CI); in production it must be asked for by name
 * (a staging or acceptance site), and without Stripe or that request nothing can be bought.
 */
function paymentsProviderFor(
  value: Pick<z.output<typeof environmentSchema>, "NODE_ENV" | "PAYMENTS_PROVIDER" | "STRIPE_SECRET_KEY">,
): PaymentsProvider {
  if (value.PAYMENTS_PROVIDER) return value.PAYMENTS_PROVIDER;
  if (value.STRIPE_SECRET_KEY) return "stripe";
  return value.NODE_ENV === "production" ? "off" : "test";
}

/** A secret generated once and kept in DATA_DIR, so sessions survive restarts of a single instance. */
export function readOrCreateLocalSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString("base64url");
    writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}

let current: Environment | undefined;

/** The parsed configuration; parsed on first use so tests can set process.env before it. */
export function env(): Environment {
  current ??= parseEnvironment();
  return current;
}
