import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";
import { MODERATION_KINDS, REPORT_REASONS } from "../../lib/moderation.ts";
import { createdAt, oneOf } from "./columns.ts";
import { user } from "./accounts.ts";
import { games } from "./games.ts";

/**
 * Moderation (issue 36, docs/decisions/064): the content rules' versions, players' reports, what
 * moderators did (the audit log), creators' appeals, the admin's blocked terms and the model's
 * advisory ratings. A hidden world and a suspended creator are rows of their own, so nothing
 * else's columns change meaning.
 */

/** A published version of the content rules: numbered rules, kept for ever so old decisions still link to theirs. */
export const contentRules = pgTable("content_rules", {
  version: integer("version").primaryKey(),
  /** Rule N is rules[N - 1]. */
  rules: jsonb("rules").$type<string[]>().notNull(),
  publishedBy: text("published_by").references(() => user.id, { onDelete: "set null" }),
  createdAt: createdAt(),
});

/** Every moderation action: who, what, which world, which rule of which version, why, when. */
export const moderationActions = pgTable(
  "moderation_actions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    gameId: uuid("game_id")
      .notNull()
      .references(() => games.id, { onDelete: "cascade" }),
    moderatorId: text("moderator_id").references(() => user.id, { onDelete: "set null" }),
    kind: text("kind", { enum: MODERATION_KINDS }).notNull(),
    rulesVersion: integer("rules_version")
      .notNull()
      .references(() => contentRules.version),
    ruleNumber: integer("rule_number").notNull(),
    reason: text("reason").notNull(),
    /** For an appeal's decision: the action appealed. */
    decidesActionId: uuid("decides_action_id").references((): AnyPgColumn => moderationActions.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (table) => [
    check("moderation_actions_kind_check", oneOf("kind", MODERATION_KINDS)),
    index("moderation_actions_game_idx").on(table.gameId, table.createdAt),
    index("moderation_actions_created_idx").on(table.createdAt),
    index("moderation_actions_moderator_idx").on(table.moderatorId),
    index("moderation_actions_decides_idx").on(table.decidesActionId),
    index("moderation_actions_rules_idx").on(table.rulesVersion),
  ],
);

/** A player's report of a published world; open until a moderator acts on the world. */
export const worldReports = pgTable(
  "world_reports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    gameId: uuid("game_id")
      .notNull()
      .references(() => games.id, { onDelete: "cascade" }),
    reporterId: text("reporter_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    reason: text("reason", { enum: REPORT_REASONS }).notNull(),
    details: text("details").notNull().default(""),
    /** The action that closed it; null while open. */
    resolvedByActionId: uuid("resolved_by_action_id").references(() => moderationActions.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (table) => [
    check("world_reports_reason_check", oneOf("reason", REPORT_REASONS)),
    index("world_reports_open_idx").on(table.gameId, table.resolvedByActionId),
    index("world_reports_reporter_idx").on(table.reporterId),
    index("world_reports_action_idx").on(table.resolvedByActionId),
  ],
);

/** A creator's appeal of one action (one each); decided by a moderator other than the one who acted. */
export const moderationAppeals = pgTable(
  "moderation_appeals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    actionId: uuid("action_id")
      .notNull()
      .references(() => moderationActions.id, { onDelete: "cascade" }),
    creatorId: text("creator_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    text: text("text").notNull(),
    /** The decision, an action of its own in the audit log; null while waiting. */
    decisionActionId: uuid("decision_action_id").references(() => moderationActions.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("moderation_appeals_action_idx").on(table.actionId),
    index("moderation_appeals_creator_idx").on(table.creatorId),
    index("moderation_appeals_decision_idx").on(table.decisionActionId),
  ],
);

/** A world a moderator hid: inactive, so no public read lists or shows it, until restored. */
export const hiddenWorlds = pgTable(
  "hidden_worlds",
  {
    gameId: uuid("game_id")
      .primaryKey()
      .references(() => games.id, { onDelete: "cascade" }),
    actionId: uuid("action_id")
      .notNull()
      .references(() => moderationActions.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (table) => [index("hidden_worlds_action_idx").on(table.actionId)],
);

/** A creator a moderator suspended: they cannot publish until restored or their appeal is upheld. */
export const suspendedCreators = pgTable(
  "suspended_creators",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => user.id, { onDelete: "cascade" }),
    actionId: uuid("action_id")
      .notNull()
      .references(() => moderationActions.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (table) => [index("suspended_creators_action_idx").on(table.actionId)],
);

/** The admin's blocked terms, refused on publish (whole words, any case). */
export const blockedTerms = pgTable("blocked_terms", {
  term: text("term").primaryKey(),
  createdAt: createdAt(),
});

/** A model's advisory rating of a published version against a rules version: shown to moderators, never acting alone. */
export const worldAdvisories = pgTable(
  "world_advisories",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    gameId: uuid("game_id")
      .notNull()
      .references(() => games.id, { onDelete: "cascade" }),
    worldVersion: integer("world_version").notNull(),
    rulesVersion: integer("rules_version")
      .notNull()
      .references(() => contentRules.version),
    /** Which model rated it ("offline" for the offline storyteller's deterministic advisory). */
    model: text("model").notNull(),
    /** "fits" or "review", with the rule it thinks is at stake. */
    verdict: text("verdict", { enum: ["fits", "review"] }).notNull(),
    ruleNumber: integer("rule_number"),
    summary: text("summary").notNull(),
    ratedAt: timestamp("rated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("world_advisories_verdict_check", oneOf("verdict", ["fits", "review"])),
    uniqueIndex("world_advisories_version_idx").on(table.gameId, table.worldVersion),
    index("world_advisories_rules_idx").on(table.rulesVersion),
  ],
);
