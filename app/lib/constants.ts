/** Business constants from docs/spec.md §9 and PRODUCT.md, one source each. */

/** Granted by the database trigger (app/db/functions/grant_signup_bonus.sql), in the same transaction as the user. */
export const STARTER_CREDITS = 20;
export const CREDITS_PER_MESSAGE = 1;
/** Password bounds, enforced by the server (better-auth) and stated by the sign-up form. */
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 128;
/** The optional username of the sign-up form (stored as the user's name). */
export const MAX_USERNAME_LENGTH = 50;
export const MAX_PLAYER_MESSAGE_LENGTH = 4000;
export const PREVIEW_REPLY_DELAY_MS = 1500;
export const META_DESCRIPTION_LIMIT = 155;
export const CONTENT_PREVIEW_LENGTH = 100;
export const DEFAULT_READ_TIME_MINUTES = 10;
export const FEATURED_GAME_COUNT = 3;
export const COPYRIGHT_YEAR = 2025;

export const DIFFICULTIES = ["Beginner", "Intermediate", "Advanced"] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

export const GAME_CATEGORIES = ["Adventure", "Strategy", "Simulation", "Life Simulation", "RPG", "Mystery", "Fantasy"] as const;
export type GameCategory = (typeof GAME_CATEGORIES)[number];

export const GAME_ICONS = [
  "Crown",
  "Users",
  "GraduationCap",
  "Sword",
  "Castle",
  "Star",
  "Heart",
  "Zap",
  "Sparkles",
  "Trophy",
  "Shield",
  "Wand2",
] as const;
export type GameIcon = (typeof GAME_ICONS)[number];

export const CONTENT_TYPES = [
  "introduction",
  "story_background",
  "character_development",
  "world_setting",
  "combat_mechanics",
  "dialogue_system",
  "character_progression",
  "beginner_tips",
  "advanced_strategies",
  "community_insights",
  "strategy_guide",
  "pro_tips",
] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

/** The six sections of the multi-section editor, with their placeholder orders. */
export const MULTI_SECTION_TYPES = [
  { contentType: "story_background", sectionOrder: 0 },
  { contentType: "character_development", sectionOrder: 10 },
  { contentType: "world_setting", sectionOrder: 20 },
  { contentType: "beginner_tips", sectionOrder: 30 },
  { contentType: "advanced_strategies", sectionOrder: 40 },
  { contentType: "community_insights", sectionOrder: 50 },
] as const satisfies readonly { contentType: ContentType; sectionOrder: number }[];

export const GUIDE_CATEGORIES = ["general", "basics", "storytelling", "strategy", "tips", "advanced"] as const;
export type GuideCategory = (typeof GUIDE_CATEGORIES)[number];

export const GUIDE_DIFFICULTIES = ["beginner", "intermediate", "advanced"] as const;
export type GuideDifficulty = (typeof GUIDE_DIFFICULTIES)[number];

/** The encodings a cover is stored in: AVIF and WebP for pages, JPEG for link previews. */
export const COVER_FORMATS = ["avif", "webp", "jpeg"] as const;
export type CoverFormat = (typeof COVER_FORMATS)[number];

export const USER_ROLES = ["admin", "moderator"] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const MESSAGE_ROLES = ["user", "assistant"] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

/**
 * A reply is "streaming" while its turn is in flight; "interrupted" when the instance writing it
 * died and another settled the turn: the player's message stays, the reply's text was lost with
 * that instance, and the credit was refunded.
 */
export const MESSAGE_STATUSES = ["streaming", "complete", "interrupted"] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** Why a message left the story: it is kept, never shown as part of it. */
export const MESSAGE_REMOVALS = ["undone", "edited", "failed"] as const;

/** What a paid or free call of the Game Master does to a story (docs: issue 16's controls). */
export const TURN_KINDS = ["send", "retry", "continue", "edit"] as const;
export type TurnKind = (typeof TURN_KINDS)[number];

export const CREDIT_REASONS = ["signup_bonus", "purchase", "chat_message", "refund", "admin_grant", "creator_earnings"] as const;
export type CreditReason = (typeof CREDIT_REASONS)[number];

export const PAYMENT_PROVIDERS = ["stripe", "test"] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

export const PAYMENT_STATUSES = ["pending", "completed", "failed", "expired"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Every package is priced in US dollars (amounts in cents). */
export const PAYMENT_CURRENCY = "usd";

export interface CreditPackage {
  id: "100" | "500" | "1000";
  credits: number;
  priceCents: number;
  originalPriceCents: number;
  badge: string;
  highlight?: string;
}

export const CREDIT_PACKAGES: readonly CreditPackage[] = [
  { id: "100", credits: 100, priceCents: 499, originalPriceCents: 999, badge: "Starter" },
  { id: "500", credits: 500, priceCents: 1999, originalPriceCents: 3999, badge: "Popular", highlight: "Most Popular" },
  { id: "1000", credits: 1000, priceCents: 3499, originalPriceCents: 6999, badge: "Best Value" },
];

export function findCreditPackage(id: string): CreditPackage | undefined {
  return CREDIT_PACKAGES.find((creditPackage) => creditPackage.id === id);
}

export function percentOff(creditPackage: CreditPackage): number {
  return Math.round((1 - creditPackage.priceCents / creditPackage.originalPriceCents) * 100);
}

export function isDifficulty(value: string): value is Difficulty {
  return (DIFFICULTIES as readonly string[]).includes(value);
}

/** Accepts 'beginner', 'ADVANCED'…; the category route's parameter rule. */
export function parseDifficulty(value: string | undefined): Difficulty | undefined {
  if (!value) return undefined;
  return DIFFICULTIES.find((difficulty) => difficulty.toLowerCase() === value.toLowerCase());
}
