import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import {
  CONTENT_TYPES,
  COVER_FORMATS,
  CREDIT_REASONS,
  DIFFICULTIES,
  GAME_CATEGORIES,
  GUIDE_CATEGORIES,
  GUIDE_DIFFICULTIES,
  MESSAGE_REMOVALS,
  MESSAGE_ROLES,
  MESSAGE_STATUSES,
  PAYMENT_PROVIDERS,
  PAYMENT_STATUSES,
  TURN_KINDS,
  USER_ROLES,
} from "../lib/constants.ts";
import { MODEL_CALL_KINDS, MODEL_CALL_OUTCOMES } from "../lib/model-calls.ts";
import { BAD_REPLY_REASONS, REPLY_RATINGS } from "../lib/reply-ratings.ts";
import { CONTENT_RATINGS, WORLD_STATUSES, type RemixCredit, type WorldExtra, type WorldLoreEntry } from "../lib/worlds.ts";
import type { TrackedStat } from "../lib/tracked-stats.ts";

/** `column IN ('a', 'b')` for a CHECK constraint built from one of our constant lists. */
function oneOf(column: string, values: readonly string[]) {
  const list = values.map((value) => `'${value.replaceAll("'", "''")}'`).join(", ");
  return sql.raw(`"${column}" IN (${list})`);
}

/** PostgreSQL's full-text search document; only ever written by the database (a generated column). */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

// ---------------------------------------------------------------------------------------------
// better-auth's tables (user, session, account, verification): property names are the ones
// better-auth's drizzle adapter expects; columns are snake_case like ours.

export const user = pgTable(
  "user",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull().unique(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    /** Set by an admin: the account cannot sign in or play, and its sessions were revoked (docs/decisions/034). */
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    /** The address of their public worlds, /creators/{handle}: given from their name when they first publish. */
    handle: text("handle").unique(),
    /** When they confirmed in their settings that they are an adult: only then are Mature worlds shown to them. */
    matureConfirmedAt: timestamp("mature_confirmed_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("user_created_idx").on(table.createdAt)],
);

export const session = pgTable(
  "session",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
  },
  (table) => [index("session_user_id_idx").on(table.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("account_user_id_idx").on(table.userId), uniqueIndex("account_provider_account_idx").on(table.providerId, table.accountId)],
);

export const verification = pgTable(
  "verification",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("verification_identifier_idx").on(table.identifier)],
);

/** Fixed-window counters shared by every instance: better-auth's limiter and our own. */
export const rateLimit = pgTable("rate_limit", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});

// ---------------------------------------------------------------------------------------------
// The product's tables (docs/spec.md §3 names).

export const games = pgTable(
  "games",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    slug: text("slug").notNull().unique(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    tagline: text("tagline"),
    icon: text("icon").notNull().default("Crown"),
    difficulty: text("difficulty", { enum: DIFFICULTIES }).notNull().default("Beginner"),
    players: text("players"),
    category: text("category", { enum: GAME_CATEGORIES }).notNull().default("Adventure"),
    prompt: text("prompt").notNull(),
    sortOrder: integer("sort_order").notNull().default(0),
    isActive: boolean("is_active").notNull().default(true),
    /** The living state its stories keep (app/lib/tracked-stats.ts), as the admin defined it. */
    trackedStats: jsonb("tracked_stats").$type<TrackedStat[]>().notNull().default([]),
    /** How many exchanges before the new message the lorebook's keys are looked for in. */
    loreScanDepth: integer("lore_scan_depth").notNull().default(2),
    /** The admin's uploaded cover (covers.hash); none → the generated art (app/lib/covers.ts). */
    coverHash: text("cover_hash").references(() => covers.hash, { onDelete: "set null" }),
    // A world (docs/decisions/053): a game a player made. The site's games have no creator.
    creatorId: text("creator_id").references(() => user.id, { onDelete: "cascade" }),
    /** A draft is also inactive, so every public read that asks for active games leaves it out. */
    status: text("status", { enum: WORLD_STATUSES }).notNull().default("public"),
    contentRating: text("content_rating", { enum: CONTENT_RATINGS }).notNull().default("Everyone"),
    tags: text("tags")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    opening: text("opening").notNull().default(""),
    alternativeOpenings: jsonb("alternative_openings").$type<string[]>().notNull().default([]),
    /** Shown to the creator; never sent to the model. */
    creatorNotes: text("creator_notes").notNull().default(""),
    lorebook: jsonb("lorebook").$type<WorldLoreEntry[]>().notNull().default([]),
    /** What an imported character card held that the site does not use, exported again. */
    extra: jsonb("extra").$type<WorldExtra>().notNull().default({ data: {} }),
    /** The last version published to world_versions; null while never published (docs/decisions/059). */
    publishedVersion: integer("published_version"),
    firstPublishedAt: timestamp("first_published_at", { withTimezone: true }),
    /** The worlds this one was remixed from, nearest first, as they were named then: the credit outlives them. */
    remixedFrom: jsonb("remixed_from").$type<RemixCredit[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index("games_cover_hash_idx").on(table.coverHash),
    index("games_creator_idx").on(table.creatorId, table.updatedAt),
    index("games_community_idx").on(table.status, table.firstPublishedAt),
    check("games_status_check", oneOf("status", WORLD_STATUSES)),
    check("games_content_rating_check", oneOf("content_rating", CONTENT_RATINGS)),
    check("games_difficulty_check", oneOf("difficulty", DIFFICULTIES)),
    check("games_category_check", oneOf("category", GAME_CATEGORIES)),
    check("games_slug_check", sql`${table.slug} ~ '^[a-z0-9-]+$'`),
    index("games_active_sort_idx").on(table.isActive, table.sortOrder),
  ],
);

/** Each version of a world its creator published, as it was: players' stories can keep theirs. */
export const worldVersions = pgTable(
  "world_versions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    gameId: uuid("game_id")
      .notNull()
      .references(() => games.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    /** The world's fields when it was published (title, instructions, openings, lorebook, extra…). */
    fields: jsonb("fields").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("world_versions_game_version_idx").on(table.gameId, table.version)],
);

/** One like per player and world. */
export const worldLikes = pgTable(
  "world_likes",
  {
    gameId: uuid("game_id")
      .notNull()
      .references(() => games.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.gameId, table.userId] }), index("world_likes_recent_idx").on(table.gameId, table.createdAt)],
);

/**
 * An uploaded cover, named by the hash of what was uploaded: its re-encoded variants never change,
 * so their addresses can be cached for ever (docs/decisions/033).
 */
export const covers = pgTable("covers", {
  hash: text("hash").primaryKey(),
  createdAt: createdAt(),
});

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength)),
});

/** One re-encoded size of a cover: AVIF and WebP at each width the pages use, and the JPEG link-preview card. */
export const coverVariants = pgTable(
  "cover_variants",
  {
    hash: text("hash")
      .notNull()
      .references(() => covers.hash, { onDelete: "cascade" }),
    format: text("format", { enum: COVER_FORMATS }).notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    bytes: bytea("bytes").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.hash, table.format, table.width] }),
    check("cover_variants_format_check", oneOf("format", COVER_FORMATS)),
  ],
);

export const gameContent = pgTable(
  "game_content",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    gameSlug: text("game_slug")
      .notNull()
      .references(() => games.slug, { onUpdate: "cascade", onDelete: "cascade" }),
    contentType: text("content_type", { enum: CONTENT_TYPES }).notNull().default("introduction"),
    title: text("title").notNull(),
    content: text("content").notNull(),
    sectionOrder: integer("section_order").notNull().default(0),
    isPublished: boolean("is_published").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check("game_content_type_check", oneOf("content_type", CONTENT_TYPES)),
    index("game_content_lookup_idx").on(table.gameSlug, table.contentType, table.sectionOrder),
    index("game_content_published_idx").on(table.isPublished),
  ],
);

export const guides = pgTable(
  "guides",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    slug: text("slug").notNull().unique(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    content: text("content").notNull(),
    category: text("category", { enum: GUIDE_CATEGORIES }).notNull().default("general"),
    difficulty: text("difficulty", { enum: GUIDE_DIFFICULTIES }).notNull().default("beginner"),
    estimatedReadTime: integer("estimated_read_time").notNull().default(10),
    isPublished: boolean("is_published").notNull().default(true),
    featured: boolean("featured").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check("guides_category_check", oneOf("category", GUIDE_CATEGORIES)),
    check("guides_difficulty_check", oneOf("difficulty", GUIDE_DIFFICULTIES)),
    check("guides_read_time_check", sql`${table.estimatedReadTime} >= 1`),
    index("guides_published_created_idx").on(table.isPublished, table.createdAt),
  ],
);

export const profiles = pgTable(
  "profiles",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => user.id, { onDelete: "cascade" }),
    credits: integer("credits").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [check("profiles_credits_check", sql`${table.credits} >= 0`)],
);

export const userRoles = pgTable(
  "user_roles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    role: text("role", { enum: USER_ROLES }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [check("user_roles_role_check", oneOf("role", USER_ROLES)), uniqueIndex("user_roles_user_role_idx").on(table.userId, table.role)],
);

/**
 * A player's story in one game: the exchanges (game_messages) hang off it, and it holds what the
 * story as a whole needs — how many live exchanges it has (the latest position, read without
 * touching the messages), a revision every change bumps (what other tabs compare), and the turn in
 * flight if any: at most one per story, owned by the instance that holds its lease.
 */
export const stories = pgTable(
  "stories",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    gameSlug: text("game_slug")
      .notNull()
      .references(() => games.slug, { onUpdate: "cascade", onDelete: "cascade" }),
    title: text("title"),
    exchanges: integer("exchanges").notNull().default(0),
    revision: integer("revision").notNull().default(0),
    activeTurnId: uuid("active_turn_id"),
    activeTurnKind: text("active_turn_kind", { enum: TURN_KINDS }),
    activeReplyId: bigint("active_reply_id", { mode: "number" }),
    activeTurnLeaseUntil: timestamp("active_turn_lease_until", { withTimezone: true }),
    /** Memory the player sees and steers: facts always in context, a note on style and direction, and the story so far. */
    pinnedFacts: text("pinned_facts").notNull().default(""),
    authorNote: text("author_note").notNull().default(""),
    summary: text("summary").notNull().default(""),
    /** The summary tells the story up to this exchange; the exchanges after it are read as they are. */
    summaryThrough: integer("summary_through").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check("stories_active_turn_kind_check", oneOf("active_turn_kind", TURN_KINDS)),
    check("stories_exchanges_check", sql`"exchanges" >= 0`),
    index("stories_player_game_idx").on(table.userId, table.gameSlug, table.updatedAt),
    index("stories_game_slug_idx").on(table.gameSlug),
    // Every instance's sweeper looks here for turns whose lease ran out.
    index("stories_turn_lease_idx")
      .on(table.activeTurnLeaseUntil)
      .where(sql`"active_turn_id" IS NOT NULL`),
  ],
);

/** A lorebook entry's columns: the same for a game's (canon) and a story's (the player's own). */
const loreEntryColumns = () => ({
  id: uuid("id").primaryKey().defaultRandom(),
  title: text("title").notNull(),
  /** Comma-separated words or phrases, or /patterns/ (app/domain/game-master/lorebook.server.ts). */
  keys: text("keys").notNull().default(""),
  content: text("content").notNull(),
  alwaysOn: boolean("always_on").notNull().default(false),
  priority: integer("priority").notNull().default(0),
  enabled: boolean("enabled").notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const gameLoreEntries = pgTable(
  "game_lore_entries",
  {
    gameSlug: text("game_slug")
      .notNull()
      .references(() => games.slug, { onUpdate: "cascade", onDelete: "cascade" }),
    ...loreEntryColumns(),
  },
  (table) => [index("game_lore_entries_game_idx").on(table.gameSlug, table.createdAt)],
);

/** A story's own entries: they never change the game's (canon and playthrough stay apart). */
export const storyLoreEntries = pgTable(
  "story_lore_entries",
  {
    storyId: uuid("story_id")
      .notNull()
      .references(() => stories.id, { onDelete: "cascade" }),
    ...loreEntryColumns(),
  },
  (table) => [index("story_lore_entries_story_idx").on(table.storyId, table.createdAt)],
);

export const gameMessages = pgTable(
  "game_messages",
  {
    // An identity: the two rows of one exchange share their exchange number and replay in the
    // order they were written.
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    gameSlug: text("game_slug")
      .notNull()
      .references(() => games.slug, { onUpdate: "cascade", onDelete: "cascade" }),
    storyId: uuid("story_id")
      .notNull()
      .references(() => stories.id, { onDelete: "cascade" }),
    /** The exchange's position in its story, from 1: a player's message and its reply share it. */
    exchange: integer("exchange").notNull(),
    role: text("role", { enum: MESSAGE_ROLES }).notNull(),
    /** A reply's chosen version (the one the story continues from); a player's message is always 1. */
    content: text("content").notNull(),
    status: text("status", { enum: MESSAGE_STATUSES }).notNull().default("complete"),
    version: integer("version").notNull().default(1),
    versions: integer("versions").notNull().default(1),
    /** Undone, replaced by an edit, or a turn that failed: kept, never shown as the story. */
    removedAt: timestamp("removed_at", { withTimezone: true }),
    removal: text("removal", { enum: MESSAGE_REMOVALS }),
    removedByTurn: uuid("removed_by_turn"),
    /** A reply's story state after it (every tracked stat's value), in a game that tracks stats. */
    state: jsonb("state"),
    /**
     * The model that wrote a reply (of its chosen version), as configured then: AI_PROVIDER and the
     * model's id. Null for a player's message and for replies written before models were recorded.
     */
    modelProvider: text("model_provider"),
    model: text("model"),
    /** Find in story: the message's words, kept by the database as the content changes. */
    searchVector: tsvector("search_vector").generatedAlwaysAs(sql`to_tsvector('english', "content")`),
    /**
     * The content's length in characters, kept by the database: what a turn reads of a story is
     * measured by it (app/db/functions/story_context.sql) without reading a long reply it will leave out.
     */
    characters: integer("characters")
      .notNull()
      .generatedAlwaysAs(sql`length("content")`),
    createdAt: createdAt(),
  },
  (table) => [
    check("game_messages_role_check", oneOf("role", MESSAGE_ROLES)),
    check("game_messages_status_check", oneOf("status", MESSAGE_STATUSES)),
    check("game_messages_removal_check", oneOf("removal", MESSAGE_REMOVALS)),
    check("game_messages_version_check", sql`"version" BETWEEN 1 AND "versions"`),
    // The live story, in order (a player's message before its reply: 'user' > 'assistant'), from an
    // index: keyset pages and the latest exchanges never sort.
    uniqueIndex("game_messages_story_position_idx")
      .on(table.storyId, table.exchange, table.role.desc())
      .where(sql`"removed_at" IS NULL`),
    index("game_messages_story_idx").on(table.storyId),
    index("game_messages_search_idx")
      .using("gin", table.searchVector)
      .where(sql`"removed_at" IS NULL`),
    // The state a story is in: its newest reply that stored one, found without reading the story.
    index("game_messages_story_state_idx")
      .on(table.storyId, table.exchange)
      .where(sql`"state" IS NOT NULL AND "removed_at" IS NULL`),
    index("game_messages_game_slug_idx").on(table.gameSlug),
    index("game_messages_user_idx").on(table.userId),
    // The admin dashboard's turns per day and most played games: a player's messages by day.
    index("game_messages_turns_created_idx")
      .on(table.createdAt, table.gameSlug, table.userId)
      .where(sql`"role" = 'user'`),
  ],
);

/** Every version of a reply that was retried (version 1 included); the chosen one is also the reply's content. */
export const replyVersions = pgTable(
  "reply_versions",
  {
    messageId: bigint("message_id", { mode: "number" })
      .notNull()
      .references(() => gameMessages.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    content: text("content").notNull(),
    /** The story state this version leaves (see game_messages.state). */
    state: jsonb("state"),
    /** The model that wrote this version (see game_messages.model). */
    modelProvider: text("model_provider"),
    model: text("model"),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.messageId, table.version] })],
);

/**
 * A player's Good reply / Bad reply on one version of a reply (app/domain/reply-ratings.server.ts):
 * one per player and version, replaced when changed and deleted when cleared. The model that
 * wrote the version is copied here when it is rated, so the admin overview groups by model
 * without reading the versions. A rating of a reply that later left the story (undone, edited
 * away) stays, and is not counted.
 */
export const replyRatings = pgTable(
  "reply_ratings",
  {
    messageId: bigint("message_id", { mode: "number" })
      .notNull()
      .references(() => gameMessages.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    rating: text("rating", { enum: REPLY_RATINGS }).notNull(),
    /** What was wrong, if the player said: only with "bad". */
    reason: text("reason", { enum: BAD_REPLY_REASONS }),
    modelProvider: text("model_provider"),
    model: text("model"),
    /** When the player last set it: the admin overview counts a rating on this day. */
    ratedAt: timestamp("rated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.messageId, table.version, table.userId] }),
    check("reply_ratings_rating_check", oneOf("rating", REPLY_RATINGS)),
    check("reply_ratings_reason_check", sql`"reason" IS NULL OR ("rating" = 'bad' AND ${oneOf("reason", BAD_REPLY_REASONS)})`),
    index("reply_ratings_rated_idx").on(table.ratedAt),
    index("reply_ratings_user_idx").on(table.userId),
  ],
);

/**
 * Every free opening given: a reply that opened a story at no cost (app/lib/turn-cost.ts). Counted
 * per account and per client address, over the last minute, day and in all, by
 * app/db/functions/free_opening_allowance.sql (docs/decisions/041). An account's deletion keeps
 * its rows, so the address's count stays.
 */
export const freeOpenings = pgTable(
  "free_openings",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    /** The client's address as limits per address count it (addressSubject in app/domain/rate-limit.server.ts). */
    clientAddress: text("client_address").notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index("free_openings_user_idx").on(table.userId, table.createdAt),
    index("free_openings_address_idx").on(table.clientAddress, table.createdAt),
  ],
);

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

export const contactMessages = pgTable(
  "contact_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    /** When an admin marked it handled; null while it waits. */
    handledAt: timestamp("handled_at", { withTimezone: true }),
    handledBy: text("handled_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (table) => [
    index("contact_messages_created_idx").on(table.createdAt),
    index("contact_messages_user_idx").on(table.userId),
    index("contact_messages_handled_idx").on(table.handledAt, table.createdAt),
    index("contact_messages_handled_by_idx").on(table.handledBy),
  ],
);

/** An admin's answer to a contact message, sent by email and kept with the message. */
export const contactReplies = pgTable(
  "contact_replies",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    messageId: uuid("message_id")
      .notNull()
      .references(() => contactMessages.id, { onDelete: "cascade" }),
    authorId: text("author_id").references(() => user.id, { onDelete: "set null" }),
    /** Who wrote it, as they were then: the author's account may change or go. */
    authorName: text("author_name").notNull(),
    authorEmail: text("author_email").notNull(),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("contact_replies_message_idx").on(table.messageId, table.createdAt), index("contact_replies_author_idx").on(table.authorId)],
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
    createdAt: createdAt(),
  },
  (table) => [
    check("model_calls_kind_check", oneOf("kind", MODEL_CALL_KINDS)),
    check("model_calls_outcome_check", oneOf("outcome", MODEL_CALL_OUTCOMES)),
    index("model_calls_created_idx").on(table.createdAt),
    index("model_calls_story_idx").on(table.storyId),
    index("model_calls_game_slug_idx").on(table.gameSlug),
    index("model_calls_user_idx").on(table.userId),
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

export type Game = typeof games.$inferSelect;
export type NewGame = typeof games.$inferInsert;
export type GameContent = typeof gameContent.$inferSelect;
export type NewGameContent = typeof gameContent.$inferInsert;
export type Guide = typeof guides.$inferSelect;
export type NewGuide = typeof guides.$inferInsert;
export type GameMessage = typeof gameMessages.$inferSelect;
export type Payment = typeof payments.$inferSelect;
export type ContactMessage = typeof contactMessages.$inferSelect;
export type ContactReply = typeof contactReplies.$inferSelect;

/** Which seed items were ever applied, so a restart never re-creates what an admin deleted. */
export const seedHistory = pgTable("seed_history", {
  key: text("key").primaryKey(),
  seededAt: timestamp("seeded_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One row counting changes to what visitors see (games, game_content, guides): triggers bump it
 * in the same transaction as the change, so a page kept for visitors is valid only while the
 * version it was rendered at is still current (server/page-cache.ts).
 */
export const publicContentVersion = pgTable(
  "public_content_version",
  {
    id: boolean("id").primaryKey().default(true),
    version: bigint("version", { mode: "number" }).notNull().default(0),
  },
  (table) => [check("public_content_version_single_row", sql`${table.id}`)],
);
