import { aliasedTable, and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { db } from "../db/database.server.ts";
import {
  contentRules,
  games,
  hiddenWorlds,
  moderationActions,
  moderationAppeals,
  suspendedCreators,
  user,
  worldAdvisories,
  worldReports,
} from "../db/schema.ts";
import { isUniqueViolation } from "../db/unique-violation.server.ts";
import { env } from "../env.server.ts";
import { APPEALABLE, type AppealDecision, type ModerationAction, type ReportReason, type WorldModerationNotice } from "../lib/moderation.ts";
import { findPublishedWorld } from "./community.server.ts";
import { currentRules, type RulesVersion } from "./content-rules.server.ts";
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from "./errors.server.ts";
import { enforceRateLimit } from "./rate-limit.server.ts";
import { WORLD_LISTING } from "./worlds.server.ts";

/**
 * Moderation (issue 36, docs/decisions/064): players report published worlds; moderators (and
 * admins) act on them citing a numbered rule of the current content rules; the creator sees why
 * and may appeal once per action, to a moderator other than the one who acted. Every action is a
 * row of moderation_actions, which is the audit log.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const AUDIT_LOG_SIZE = 100;

/** A player's report of a published world they can see; one of REPORTS_PER_DAY a day (429 past it). */
export async function reportWorld(
  reporterId: string,
  gameId: string,
  report: { reason: ReportReason; details: string },
  showMature: boolean,
): Promise<void> {
  const { game } = await findPublishedWorld(gameId, { showMature, publicOnly: false });
  if (game.creatorId === reporterId) throw new InvalidInputError("You cannot report your own world.");
  const { REPORTS_PER_DAY } = env();
  await enforceRateLimit(
    { name: "world-report", limit: REPORTS_PER_DAY, windowMs: DAY_MS },
    reporterId,
    (wait) => `You can send ${REPORTS_PER_DAY} reports a day. Try again in ${wait}.`,
  );
  await db().insert(worldReports).values({ gameId, reporterId, reason: report.reason, details: report.details });
}

/** The rule cited must be one of the current version's; answers that version. */
async function citedRules(ruleNumber: number): Promise<RulesVersion> {
  const rules = await currentRules();
  if (ruleNumber > rules.rules.length) {
    throw new InvalidInputError(`Choose one of the ${rules.rules.length} rules of version ${rules.version}.`, "rule");
  }
  return rules;
}

type Transaction = Parameters<Parameters<ReturnType<typeof db>["transaction"]>[0]>[0];

/** Hidden: inactive (so no listing, search, sitemap or page shows it), and remembered as hidden so Publish cannot undo it. */
async function hide(tx: Transaction, gameId: string, actionId: string) {
  await tx.insert(hiddenWorlds).values({ gameId, actionId }).onConflictDoUpdate({ target: hiddenWorlds.gameId, set: { actionId } });
  await tx.update(games).set({ isActive: false }).where(eq(games.id, gameId));
}

/** Shown again as its creator left it: active unless it is a draft. */
async function unhide(tx: Transaction, gameId: string) {
  const removed = await tx.delete(hiddenWorlds).where(eq(hiddenWorlds.gameId, gameId)).returning({ gameId: hiddenWorlds.gameId });
  if (removed.length > 0)
    await tx
      .update(games)
      .set({ isActive: sql`${games.status} <> 'draft'` })
      .where(eq(games.id, gameId));
}

/**
 * A moderator's action on a player's world, citing a rule of the current rules: Hide, Restore
 * (shown again, and its creator's suspension lifted), Ask for changes (the world stays; the
 * creator reads the request) or Suspend creator (they cannot publish). Closes the world's open reports.
 */
export async function actOnWorld(
  moderatorId: string,
  input: { action: ModerationAction; worldId: string; rule: number; reason: string },
): Promise<string> {
  const rules = await citedRules(input.rule);
  return db().transaction(async (tx) => {
    const [world] = await tx.select({ id: games.id, creatorId: games.creatorId }).from(games).where(eq(games.id, input.worldId)).for("update");
    if (!world?.creatorId) throw new NotFoundError("There is no such player's world.");
    const [action] = await tx
      .insert(moderationActions)
      .values({
        gameId: world.id,
        moderatorId,
        kind: input.action,
        rulesVersion: rules.version,
        ruleNumber: input.rule,
        reason: input.reason,
      })
      .returning({ id: moderationActions.id });
    if (!action) throw new Error("The action was not recorded.");
    if (input.action === "hide") await hide(tx, world.id, action.id);
    if (input.action === "restore") {
      await unhide(tx, world.id);
      await tx.delete(suspendedCreators).where(eq(suspendedCreators.userId, world.creatorId));
    }
    if (input.action === "suspend_creator") {
      await tx
        .insert(suspendedCreators)
        .values({ userId: world.creatorId, actionId: action.id })
        .onConflictDoUpdate({ target: suspendedCreators.userId, set: { actionId: action.id } });
    }
    await tx
      .update(worldReports)
      .set({ resolvedByActionId: action.id })
      .where(and(eq(worldReports.gameId, world.id), isNull(worldReports.resolvedByActionId)));
    return action.id;
  });
}

/** The creator's appeal of an action on their world: once per action, with their reasons. */
export async function appealAction(creatorId: string, input: { actionId: string; text: string }): Promise<void> {
  const [action] = await db()
    .select({ kind: moderationActions.kind, creatorId: games.creatorId })
    .from(moderationActions)
    .innerJoin(games, eq(games.id, moderationActions.gameId))
    .where(eq(moderationActions.id, input.actionId));
  if (!action || action.creatorId !== creatorId) throw new NotFoundError("There is no such decision on one of your worlds.");
  if (!APPEALABLE.includes(action.kind)) throw new InvalidInputError("This decision cannot be appealed.");
  try {
    await db().insert(moderationAppeals).values({ actionId: input.actionId, creatorId, text: input.text });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError("You have already appealed this decision: each decision can be appealed once.");
    throw error;
  }
}

/**
 * A moderator decides an appeal, citing a rule: Uphold keeps the action; Overturn undoes it (the
 * world shown again, the suspension lifted). The moderator who took the action cannot decide its
 * appeal, whoever asks: the check is made here, on the locked appeal.
 */
export async function decideAppeal(
  moderatorId: string,
  input: { appealId: string; decision: AppealDecision; rule: number; reason: string },
): Promise<void> {
  const rules = await citedRules(input.rule);
  await db().transaction(async (tx) => {
    const [appeal] = await tx
      .select({ decided: moderationAppeals.decisionActionId, action: moderationActions })
      .from(moderationAppeals)
      .innerJoin(moderationActions, eq(moderationActions.id, moderationAppeals.actionId))
      .where(eq(moderationAppeals.id, input.appealId))
      .for("update", { of: moderationAppeals });
    if (!appeal) throw new NotFoundError("There is no such appeal.");
    if (appeal.action.moderatorId === moderatorId) {
      throw new ForbiddenError("You took this decision, so another moderator decides its appeal.");
    }
    if (appeal.decided) throw new ConflictError("This appeal was already decided.");
    const [decision] = await tx
      .insert(moderationActions)
      .values({
        gameId: appeal.action.gameId,
        moderatorId,
        kind: input.decision,
        rulesVersion: rules.version,
        ruleNumber: input.rule,
        reason: input.reason,
        decidesActionId: appeal.action.id,
      })
      .returning({ id: moderationActions.id });
    if (!decision) throw new Error("The decision was not recorded.");
    await tx.update(moderationAppeals).set({ decisionActionId: decision.id }).where(eq(moderationAppeals.id, input.appealId));
    if (input.decision === "overturn") {
      if (appeal.action.kind === "hide") {
        const [hidden] = await tx.select().from(hiddenWorlds).where(eq(hiddenWorlds.actionId, appeal.action.id));
        if (hidden) await unhide(tx, hidden.gameId);
      }
      if (appeal.action.kind === "suspend_creator") await tx.delete(suspendedCreators).where(eq(suspendedCreators.actionId, appeal.action.id));
    }
  });
}

export const HIDDEN_WORLD_REFUSAL =
  "A moderator hid this world, so it cannot be published until it is restored. You can read why, and appeal, below.";

/** Why the creator may not publish now: their publishing suspended, or the world hidden. A sentence, or none. */
export async function publishingHold(creatorId: string, gameId: string): Promise<string | undefined> {
  const [suspended] = await db().select().from(suspendedCreators).where(eq(suspendedCreators.userId, creatorId));
  if (suspended) return "A moderator suspended your publishing, so you cannot publish. You can read why, and appeal, on the world it names.";
  const [hidden] = await db().select().from(hiddenWorlds).where(eq(hiddenWorlds.gameId, gameId));
  if (hidden) return HIDDEN_WORLD_REFUSAL;
  return undefined;
}

const moderator = aliasedTable(user, "moderator");

export async function worldModerationNotice(gameId: string): Promise<WorldModerationNotice | null> {
  const [row] = await db()
    .select({
      action: moderationActions,
      rules: contentRules.rules,
      appealText: moderationAppeals.text,
      appealDecided: moderationAppeals.decisionActionId,
      hidden: sql<boolean>`exists (select 1 from ${hiddenWorlds} where ${hiddenWorlds.gameId} = ${gameId})`,
    })
    .from(moderationActions)
    .innerJoin(contentRules, eq(contentRules.version, moderationActions.rulesVersion))
    .leftJoin(moderationAppeals, eq(moderationAppeals.actionId, moderationActions.id))
    .where(eq(moderationActions.gameId, gameId))
    .orderBy(desc(moderationActions.createdAt))
    .limit(1);
  if (!row) return null;
  const { action } = row;
  return {
    actionId: action.id,
    kind: action.kind,
    rulesVersion: action.rulesVersion,
    ruleNumber: action.ruleNumber,
    rule: row.rules[action.ruleNumber - 1] ?? "",
    reason: action.reason,
    at: action.createdAt.toISOString(),
    appealable: APPEALABLE.includes(action.kind) && row.appealText === null,
    appeal: row.appealText === null ? null : { text: row.appealText, decided: row.appealDecided !== null },
    hidden: row.hidden,
  };
}

/** The moderation queue: open reports grouped by world, appeals waiting, and the audit log. */
export async function moderationQueue(moderatorId: string) {
  // Four independent reads, side by side: the page waits for the slowest, not their sum.
  const [worlds, appeals, hidden, log] = await Promise.all([reportedWorlds(), waitingAppeals(moderatorId), hiddenWorldsList(), auditLog()]);
  return { worlds, hidden, appeals, auditLog: log };
}
export type ModerationQueue = Awaited<ReturnType<typeof moderationQueue>>;

/** Worlds with open reports, most reported first, each with its reports and latest advisory rating. */
async function reportedWorlds() {
  const openReports = await db()
    .select({
      id: worldReports.id,
      gameId: worldReports.gameId,
      reason: worldReports.reason,
      details: worldReports.details,
      createdAt: worldReports.createdAt,
    })
    .from(worldReports)
    .where(isNull(worldReports.resolvedByActionId))
    .orderBy(worldReports.createdAt)
    .limit(500);
  const gameIds = [...new Set(openReports.map((report) => report.gameId))];
  if (gameIds.length === 0) return [];
  const [reported, advisories] = await Promise.all([
    db()
      .select({
        ...WORLD_LISTING,
        creatorName: user.name,
        hidden: sql<boolean>`exists (select 1 from ${hiddenWorlds} where ${hiddenWorlds.gameId} = ${games.id})`,
      })
      .from(games)
      .innerJoin(user, eq(user.id, games.creatorId))
      .where(inArray(games.id, gameIds)),
    latestAdvisories(gameIds),
  ]);
  const worlds = reported.map((world) => ({
    ...world,
    advisory: advisories.get(world.id) ?? null,
    reports: openReports
      .filter((report) => report.gameId === world.id)
      .map(({ id, reason, details, createdAt }) => ({ id, reason, details, createdAt: createdAt.toISOString() })),
  }));
  return worlds.sort((a, b) => b.reports.length - a.reports.length);
}

/** Appeals not yet decided; `actedByMe` marks those whose decision this moderator took (another must decide them). */
async function waitingAppeals(moderatorId: string) {
  const appeals = await db()
    .select({
      id: moderationAppeals.id,
      text: moderationAppeals.text,
      createdAt: moderationAppeals.createdAt,
      kind: moderationActions.kind,
      ruleNumber: moderationActions.ruleNumber,
      rulesVersion: moderationActions.rulesVersion,
      reason: moderationActions.reason,
      actedByMe: sql<boolean>`coalesce(${moderationActions.moderatorId} = ${moderatorId}, false)`,
      worldTitle: games.title,
      worldSlug: games.slug,
    })
    .from(moderationAppeals)
    .innerJoin(moderationActions, eq(moderationActions.id, moderationAppeals.actionId))
    .innerJoin(games, eq(games.id, moderationActions.gameId))
    .where(isNull(moderationAppeals.decisionActionId))
    .orderBy(moderationAppeals.createdAt);
  return appeals.map((appeal) => ({ ...appeal, createdAt: appeal.createdAt.toISOString() }));
}

/** Hidden worlds, newest first. */
async function hiddenWorldsList() {
  const hidden = await db()
    .select({ id: games.id, slug: games.slug, title: games.title, creatorName: user.name, hiddenAt: hiddenWorlds.createdAt })
    .from(hiddenWorlds)
    .innerJoin(games, eq(games.id, hiddenWorlds.gameId))
    .innerJoin(user, eq(user.id, games.creatorId))
    .orderBy(desc(hiddenWorlds.createdAt))
    .limit(200);
  return hidden.map((world) => ({ ...world, hiddenAt: world.hiddenAt.toISOString() }));
}

/** Every moderation action, newest first: who, what, which world, which rule, why, when. */
export async function auditLog() {
  const rows = await db()
    .select({
      id: moderationActions.id,
      kind: moderationActions.kind,
      moderatorName: moderator.name,
      worldTitle: games.title,
      worldSlug: games.slug,
      rulesVersion: moderationActions.rulesVersion,
      ruleNumber: moderationActions.ruleNumber,
      reason: moderationActions.reason,
      createdAt: moderationActions.createdAt,
    })
    .from(moderationActions)
    .innerJoin(games, eq(games.id, moderationActions.gameId))
    .leftJoin(moderator, eq(moderator.id, moderationActions.moderatorId))
    .orderBy(desc(moderationActions.createdAt))
    .limit(AUDIT_LOG_SIZE);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

export interface Advisory {
  worldVersion: number;
  rulesVersion: number;
  model: string;
  verdict: "fits" | "review";
  ruleNumber: number | null;
  summary: string;
}

async function latestAdvisories(gameIds: string[]): Promise<Map<string, Advisory>> {
  const rows = await db()
    .select()
    .from(worldAdvisories)
    .where(inArray(worldAdvisories.gameId, gameIds))
    .orderBy(desc(worldAdvisories.worldVersion));
  const latest = new Map<string, Advisory>();
  for (const row of rows) if (!latest.has(row.gameId)) latest.set(row.gameId, row);
  return latest;
}
