import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { CREDIT_REASONS, PAYMENT_PROVIDERS, PAYMENT_STATUSES } from "../../lib/constants.ts";
import { MODEL_CALL_KINDS, MODEL_CALL_OUTCOMES, SPEND_PARTS } from "../../lib/model-calls.ts";
import { oneOf, createdAt, updatedAt } from "./columns.ts";
import { user } from "./accounts.ts";
import { games } from "./games.ts";
import { gameMessages, stories } from "./stories.ts";

/**
 * Money in and out: the credit ledger and payments, their daily totals for the admin overview, and
 * every model call with what it cost by the admin's price table.
 */

export const creditLedger = pgTable(
  "credit_ledger",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    delta: integer("delta").notNull(),
    balanceAfter: integer("balance_after").notNull(),
    reason: text("reason", { enum: CREDIT_REASONS }).notNull(),
    reference: text("reference").notNull(),
    /** Why an admin granted the credits, in their words; other changes explain themselves by reason. */
    note: text("note"),
    createdAt: createdAt(),
  },
  (table) => [
    check("credit_ledger_reason_check", oneOf("reason", CREDIT_REASONS)),
    check("credit_ledger_delta_check", sql`${table.delta} <> 0`),
    uniqueIndex("credit_ledger_reason_reference_idx").on(table.reason, table.reference),
    index("credit_ledger_user_idx").on(table.userId, table.createdAt),
    // The admin dashboard's credits bought and spent per day, read from the index alone.
    index("credit_ledger_created_idx").on(table.createdAt, table.reason, table.delta),
  ],
);

export const payments = pgTable(
  "payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: PAYMENT_PROVIDERS }).notNull(),
    sessionId: text("session_id").notNull().unique(),
    packageId: text("package_id").notNull(),
    credits: integer("credits").notNull(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("usd"),
    status: text("status", { enum: PAYMENT_STATUSES }).notNull().default("pending"),
    createdAt: createdAt(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (table) => [
    check("payments_status_check", oneOf("status", PAYMENT_STATUSES)),
    check("payments_provider_check", oneOf("provider", PAYMENT_PROVIDERS)),
    check("payments_amount_check", sql`${table.amountCents} > 0 AND ${table.credits} > 0`),
    index("payments_user_idx").on(table.userId, table.createdAt),
    // The admin dashboard: revenue by day of completion, and the payments that failed or wait.
    index("payments_completed_idx")
      .on(table.completedAt)
      .where(sql`"status" = 'completed'`),
    index("payments_status_created_idx").on(table.status, table.createdAt),
  ],
);

/**
 * The admin overview's totals of whole days that are over (docs/decisions/034): written once, the
 * first time the overview covers the day, so a period reads a row a day instead of every turn and
 * ledger row in it. A day's credits row marks the day as summed up; its turns rows (one per game
 * played that day) are written in the same transaction.
 */
export const dailyCredits = pgTable("daily_credits", {
  day: date("day").primaryKey(),
  bought: integer("bought").notNull(),
  spent: integer("spent").notNull(),
  granted: integer("granted").notNull(),
});

export const dailyTurns = pgTable(
  "daily_turns",
  {
    day: date("day").notNull(),
    gameSlug: text("game_slug")
      .notNull()
      .references(() => games.slug, { onUpdate: "cascade", onDelete: "cascade" }),
    turns: integer("turns").notNull(),
  },
  (table) => [primaryKey({ columns: [table.day, table.gameSlug] }), index("daily_turns_game_slug_idx").on(table.gameSlug)],
);

/**
 * One row per request to a model provider (issue 34, docs/decisions/056): a turn's reply, whatever
 * became of it, or a summary. Written in the statement that finishes the turn (finish_turn.sql,
 * through record_model_call.sql) or with the summary it wrote. Input tokens count every token sent,
 * cached and cache writes included; `estimated` when the provider reported no usage and the site
 * counted (app/domain/game-master/tokens.server.ts). Kept when its story or player is deleted:
 * the money was spent all the same.
 */
export const modelCalls = pgTable(
  "model_calls",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text("kind", { enum: MODEL_CALL_KINDS }).notNull(),
    storyId: uuid("story_id").references(() => stories.id, { onDelete: "set null" }),
    gameSlug: text("game_slug").references(() => games.slug, { onUpdate: "cascade", onDelete: "set null" }),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    provider: text("provider").notNull(),
    model: text("model").notNull(),
    inputTokens: integer("input_tokens").notNull(),
    cachedInputTokens: integer("cached_input_tokens").notNull().default(0),
    cacheWriteTokens: integer("cache_write_tokens").notNull().default(0),
    outputTokens: integer("output_tokens").notNull(),
    reasoningTokens: integer("reasoning_tokens"),
    estimated: boolean("estimated").notNull(),
    firstTokenMs: integer("first_token_ms"),
    totalMs: integer("total_ms").notNull(),
    outcome: text("outcome", { enum: MODEL_CALL_OUTCOMES }).notNull(),
    /** By model_prices when the call was recorded; NULL: the model had no price ("no price"). */
    cost: numeric("cost", { precision: 14, scale: 6, mode: "number" }),
    currency: text("currency"),
    /** The reply (and its version) a turn's call wrote: "What the Game Master sees" finds its call by it. */
    replyId: bigint("reply_id", { mode: "number" }).references(() => gameMessages.id, { onDelete: "set null" }),
    replyVersion: integer("reply_version"),
    /**
     * What the call was sent, as references and token counts, never a copy of the text
     * (ContextManifest, app/lib/context-manifest.ts; docs/decisions/062).
     */
    context: jsonb("context"),
    createdAt: createdAt(),
  },
  (table) => [
    check("model_calls_kind_check", oneOf("kind", MODEL_CALL_KINDS)),
    check("model_calls_outcome_check", oneOf("outcome", MODEL_CALL_OUTCOMES)),
    index("model_calls_story_idx").on(table.storyId),
    // A game's recent turns (the editor's estimate of a turn's cost).
    index("model_calls_game_slug_idx").on(table.gameSlug, table.createdAt),
    index("model_calls_user_idx").on(table.userId),
    index("model_calls_reply_idx").on(table.replyId, table.replyVersion),
  ],
);

/**
 * The model calls' totals per UTC day, game, model and what they were for (`part`: docs/decisions/060),
 * kept by record_model_call.sql in the statement that records the call, so the overview reads a row
 * a day and game instead of every call. `shard` spreads one game's busy day over a few rows (the
 * connection's), so calls finishing at once do not wait on one row's lock; readers sum them.
 * Spend is in US dollars (calls priced in another currency are counted, not summed), as the overview shows it.
 */
export const modelSpendDays = pgTable(
  "model_spend_days",
  {
    day: date("day").notNull(),
    gameSlug: text("game_slug").references(() => games.slug, { onUpdate: "cascade", onDelete: "set null" }),
    provider: text("provider").notNull(),
    model: text("model").notNull(),
    part: text("part", { enum: SPEND_PARTS }).notNull(),
    shard: smallint("shard").notNull(),
    calls: integer("calls").notNull(),
    inputTokens: bigint("input_tokens", { mode: "number" }).notNull(),
    cachedInputTokens: bigint("cached_input_tokens", { mode: "number" }).notNull(),
    outputTokens: bigint("output_tokens", { mode: "number" }).notNull(),
    spend: numeric("spend", { precision: 16, scale: 6, mode: "number" }).notNull(),
    unpricedCalls: integer("unpriced_calls").notNull(),
  },
  (table) => [
    unique("model_spend_days_key").on(table.day, table.gameSlug, table.provider, table.model, table.part, table.shard).nullsNotDistinct(),
    check("model_spend_days_part_check", oneOf("part", SPEND_PARTS)),
    index("model_spend_days_game_slug_idx").on(table.gameSlug),
  ],
);

/** What each model costs, per million tokens; edited by admins (app/domain/model-prices.server.ts). */
export const modelPrices = pgTable(
  "model_prices",
  {
    provider: text("provider").notNull(),
    model: text("model").notNull(),
    inputPerMillion: numeric("input_per_million", { precision: 12, scale: 4, mode: "number" }).notNull(),
    /** NULL: cached input costs what input costs (a provider without caching). */
    cachedInputPerMillion: numeric("cached_input_per_million", { precision: 12, scale: 4, mode: "number" }),
    cacheWritePerMillion: numeric("cache_write_per_million", { precision: 12, scale: 4, mode: "number" }),
    outputPerMillion: numeric("output_per_million", { precision: 12, scale: 4, mode: "number" }).notNull(),
    currency: text("currency").notNull().default("USD"),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.provider, table.model] })],
);

export type Payment = typeof payments.$inferSelect;
