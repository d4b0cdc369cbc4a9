import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import { MESSAGE_REMOVALS, MESSAGE_ROLES, MESSAGE_STATUSES, TURN_KINDS } from "../../lib/constants.ts";
import { BAD_REPLY_REASONS, REPLY_RATINGS } from "../../lib/reply-ratings.ts";
import type { JsonObject } from "../../lib/worlds.ts";
import { oneOf, tsvector, createdAt, updatedAt } from "./columns.ts";
import { user } from "./accounts.ts";
import { games } from "./games.ts";

/**
 * Stories: a player's playthrough of a game, its exchanges and reply versions, its lorebook beside
 * the game's, the ratings of its replies, and the free openings counted per player and address.
 */

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
    /**
     * A branch (docs/decisions/063): the story it was branched from, and the exchange it shares up
     * to. Its exchanges through fork_exchange are read from the parent's (app/db/functions/
     * story_lineage.sql), never copied; a story other stories branched from cannot be deleted.
     */
    parentStoryId: uuid("parent_story_id").references((): AnyPgColumn => stories.id),
    forkExchange: integer("fork_exchange").notNull().default(0),
    /**
     * The published version of a player's world this story plays (world_versions), set when the
     * story begins and moved only by Update to version N (docs/decisions/065); null plays the
     * game as it is: the site's games, and a creator's own stories of their world.
     */
    worldVersion: integer("world_version"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check("stories_active_turn_kind_check", oneOf("active_turn_kind", TURN_KINDS)),
    check("stories_exchanges_check", sql`"exchanges" >= 0`),
    check("stories_fork_exchange_check", sql`"fork_exchange" BETWEEN 0 AND "exchanges"`),
    index("stories_player_game_idx").on(table.userId, table.gameSlug, table.updatedAt),
    index("stories_game_slug_idx").on(table.gameSlug),
    index("stories_parent_idx")
      .on(table.parentStoryId, table.forkExchange)
      .where(sql`"parent_story_id" IS NOT NULL`),
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
    /** Listed in the play screen's Lorebook panel. Off by default: lore is the Game Master's until an admin shows it. */
    shownToPlayers: boolean("shown_to_players").notNull().default(false),
    /**
     * An entry imported from a character card: the card entry's fields the site does not use, and
     * its keys, insertion_order, name and comment as they were, so an unedited entry exports as it
     * came (app/domain/character-cards.server.ts, docs/decisions/065). Empty for the rest.
     */
    extra: jsonb("extra").$type<JsonObject>().notNull().default({}),
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
     * A player's message sent as a Check: the roll the server made and what it decided (StatCheck,
     * app/lib/stat-checks.ts; docs/decisions/061). Kept by Retry and Edit, gone with the exchange on Undo.
     */
    roll: jsonb("roll"),
    /**
     * The model that wrote a reply (of its chosen version), as configured then: AI_PROVIDER and the
     * model's id. Null for a player's message and for replies written before models were recorded.
     */
    modelProvider: text("model_provider"),
    model: text("model"),
    /**
     * A copy of another story's message, made when a branch stopped sharing that exchange
     * (app/db/functions/unshare_latest_exchange.sql): the same turn, so never counted as a new one.
     */
    copiedFrom: bigint("copied_from", { mode: "number" }),
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

export type GameMessage = typeof gameMessages.$inferSelect;
