import { z } from "zod";
import type { UserRole } from "./constants.ts";

/**
 * Moderation (issue 36, docs/decisions/064): what a player may report a world for, what a
 * moderator may do about it, and the shapes the forms send, shared by the pages and the server.
 */

/** Moderators and admins moderate. */
export function isModerator(viewer: { roles: readonly UserRole[] } | null | undefined): boolean {
  return Boolean(viewer && (viewer.roles.includes("moderator") || viewer.roles.includes("admin")));
}

/** Why a player reports a world, as the Report form offers them. */
export const REPORT_REASONS = [
  "Sexual content involving minors",
  "Hate or harassment",
  "Violence or gore beyond its rating",
  "Wrong content rating",
  "Spam or scam",
  "Someone else's work",
  "Something else",
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** What a moderator does to a world from the queue. */
export const MODERATION_ACTIONS = ["hide", "restore", "ask_changes", "suspend_creator"] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];
/** An appeal's outcome, kept in the audit log as an action of its own. */
export const APPEAL_DECISIONS = ["uphold", "overturn"] as const;
export type AppealDecision = (typeof APPEAL_DECISIONS)[number];
export const MODERATION_KINDS = [...MODERATION_ACTIONS, ...APPEAL_DECISIONS] as const;
export type ModerationKind = (typeof MODERATION_KINDS)[number];

export const MODERATION_LABELS: Record<ModerationKind, string> = {
  hide: "Hide",
  restore: "Restore",
  ask_changes: "Ask for changes",
  suspend_creator: "Suspend creator",
  uphold: "Uphold",
  overturn: "Overturn",
};

/** What the creator reads on their world after each kind of action. */
export const MODERATION_NOTICES: Record<ModerationKind, string> = {
  hide: "A moderator hid this world: no one else can find or play it.",
  restore: "A moderator restored this world.",
  ask_changes: "A moderator asks you to change this world.",
  suspend_creator: "A moderator suspended your publishing: you cannot publish worlds.",
  uphold: "Your appeal was decided: the moderator's decision stands.",
  overturn: "Your appeal was decided: the decision was overturned.",
};

/** The actions a creator may appeal (once each). */
export const APPEALABLE: readonly ModerationKind[] = ["hide", "ask_changes", "suspend_creator"];

export const MODERATION_LIMITS = { details: 2000, reason: 2000, appeal: 4000, rule: 1000, rules: 40, term: 100 } as const;

/** A form's text, trimmed, with a sentence when it is too long. */
const text = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text.` })
    .trim()
    .max(max, `${label} must be at most ${max.toLocaleString("en-US")} characters.`);

export const reportSchema = z.object({
  reason: z.enum(REPORT_REASONS, { error: "Choose a reason from the list." }),
  details: text("Details", MODERATION_LIMITS.details),
});

export const moderationActionSchema = z.object({
  action: z.enum(MODERATION_ACTIONS, { error: "Choose Hide, Restore, Ask for changes or Suspend creator." }),
  worldId: z.uuid({ error: "Choose a world." }),
  rule: z.coerce.number({ error: "Choose the rule this breaks." }).int().min(1, "Choose the rule this breaks."),
  reason: text("Reason", MODERATION_LIMITS.reason).refine((value) => value.trim().length > 0, "Write the reason the creator will read."),
});

export const appealDecisionSchema = z.object({
  appealId: z.uuid({ error: "Choose an appeal." }),
  decision: z.enum(APPEAL_DECISIONS, { error: "Choose Uphold or Overturn." }),
  rule: moderationActionSchema.shape.rule,
  reason: moderationActionSchema.shape.reason,
});

export const appealSchema = z.object({
  actionId: z.uuid({ error: "There is no such decision." }),
  text: text("Appeal", MODERATION_LIMITS.appeal).refine((value) => value.trim().length > 0, "Write why the decision should change."),
});

/** A new version of the rules: one rule a line, blank lines ignored. */
export const rulesSchema = z.object({
  rules: text("Rules", MODERATION_LIMITS.rule * MODERATION_LIMITS.rules)
    .transform((value) =>
      value
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean),
    )
    .refine((rules) => rules.length > 0, "Write at least one rule, one a line.")
    .refine((rules) => rules.length <= MODERATION_LIMITS.rules, `Write at most ${MODERATION_LIMITS.rules} rules.`)
    .refine((rules) => rules.every((rule) => rule.length <= MODERATION_LIMITS.rule), `Keep each rule under ${MODERATION_LIMITS.rule} characters.`),
});

export const blockedTermSchema = z.object({
  term: text("Term", MODERATION_LIMITS.term)
    .transform((value) => value.trim().toLowerCase())
    .refine((value) => value.length > 0, "Write the term to block."),
});

/** The latest moderation action on a world, as its creator reads it: the rule it cites, why, and their appeal. */
export interface WorldModerationNotice {
  actionId: string;
  kind: ModerationKind;
  rulesVersion: number;
  ruleNumber: number;
  rule: string;
  reason: string;
  at: string;
  appealable: boolean;
  appeal: { text: string; decided: boolean } | null;
  hidden: boolean;
}
