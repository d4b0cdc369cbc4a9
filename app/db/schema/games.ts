import { sql } from "drizzle-orm";
import { DEFAULT_SCAN_DEPTH } from "../../lib/lorebook.ts";
import { bigint, boolean, check, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { CONTENT_TYPES, COVER_FORMATS, DIFFICULTIES, GAME_CATEGORIES, GUIDE_CATEGORIES, GUIDE_DIFFICULTIES } from "../../lib/constants.ts";
import { CONTENT_RATINGS, WORLD_STATUSES, type RemixCredit, type WorldExtra } from "../../lib/worlds.ts";
import type { TrackedStat } from "../../lib/tracked-stats.ts";
import { oneOf, createdAt, updatedAt, bytea } from "./columns.ts";
import { user } from "./accounts.ts";

/**
 * Games and what visitors read of them: games (a player's world is a game with a creator), their
 * published versions and likes, covers, world content and guides, and what keeps the visitors' pages
 * current.
 */

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
    loreScanDepth: integer("lore_scan_depth").notNull().default(DEFAULT_SCAN_DEPTH),
    /** The model its turns use, of the configured provider (AI_PROVIDER); null: the site's (AI_MODEL). */
    model: text("model"),
    /** Its turns' context budget in tokens; null: the site's (AI_CONTEXT_TOKENS). Read by begin_turn.sql too. */
    contextTokens: integer("context_tokens"),
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
    /** The world's fields when it was published (title, instructions, openings, extra…). */
    fields: jsonb("fields").$type<Record<string, unknown>>().notNull(),
    /**
     * The game's enabled lorebook entries when it was published, as story_lore.sql answers them
     * (game_lore.sql): a story of this version matches against these, never the live ones.
     */
    lore: jsonb("lore").$type<Record<string, unknown>[]>().notNull(),
    /** Its published world content sections then, as [type, title, content], in the brief's order. */
    sections: jsonb("sections").$type<[string, string, string][]>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("world_versions_game_version_idx").on(table.gameId, table.version)],
);

/**
 * What a world earned its creator on one UTC day (docs/decisions/065): the paid turns other players
 * took in it, and the credits those turns earned (finish_turn.sql, which counts and credits them).
 */
export const worldEarnings = pgTable(
  "world_earnings",
  {
    gameId: uuid("game_id")
      .notNull()
      .references(() => games.id, { onDelete: "cascade" }),
    day: date("day").notNull(),
    creatorId: text("creator_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    paidTurns: integer("paid_turns").notNull().default(0),
    credits: integer("credits").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.gameId, table.day] }), index("world_earnings_creator_day_idx").on(table.creatorId, table.day)],
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

export type Game = typeof games.$inferSelect;

export type NewGame = typeof games.$inferInsert;

export type GameContent = typeof gameContent.$inferSelect;

export type NewGameContent = typeof gameContent.$inferInsert;

export type Guide = typeof guides.$inferSelect;

export type NewGuide = typeof guides.$inferInsert;
