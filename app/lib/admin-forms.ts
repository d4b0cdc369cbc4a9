import { z } from "zod";
import { ADMIN_TEXTS } from "./admin-texts.ts";
import {
  CONTENT_TYPES,
  DEFAULT_READ_TIME_MINUTES,
  DIFFICULTIES,
  GAME_CATEGORIES,
  GAME_ICONS,
  GUIDE_CATEGORIES,
  GUIDE_DIFFICULTIES,
  MULTI_SECTION_TYPES,
} from "./constants.ts";
import { contextTokensSchema, gameModelSchema } from "./game-models.ts";
import { isUsableSlug, slugify } from "./slugify.ts";
import { trackedStatsSchema } from "./tracked-stats.ts";

/**
 * The admin forms' rules (docs/spec.md §5), shared by the browser (field errors before sending) and the
 * admin API (the check that counts). Numbers arrive as the text of their inputs.
 */

/** The longest slug a game or guide may have (a suffix that makes it unique fits within it). */
export const SLUG_MAX_LENGTH = 100;

const LIMITS = {
  title: 200,
  slug: SLUG_MAX_LENGTH,
  tagline: 200,
  players: 100,
  description: 2_000,
  prompt: 50_000,
  content: 200_000,
  order: 1_000_000,
  readTime: 600,
} as const;

function requiredText(label: string, max: number) {
  const required = `${label} is required.`;
  return z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(max, `${label} must be at most ${max.toLocaleString("en-US")} characters.`);
}

function optionalText(label: string, max: number) {
  return z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max.toLocaleString("en-US")} characters.`)
    .nullish()
    .transform((value) => (value ? value : null));
}

function slugField() {
  const required = "Slug is required.";
  const noLetters = "The slug needs at least one letter or digit.";
  return z
    .string({ error: required })
    .trim()
    .min(1, required)
    .transform(slugify)
    .pipe(z.string().min(1, noLetters).max(LIMITS.slug, `Slug must be at most ${LIMITS.slug} characters.`).refine(isUsableSlug, noLetters));
}

interface IntegerBounds {
  min?: number;
  max?: number;
}

/** An integer typed into a text box: parsed like parseInt, `null` when it is not a number. */
function integerOrNull(label: string, { min = -LIMITS.order, max = LIMITS.order }: IntegerBounds = {}) {
  return z
    .union([z.number(), z.string()])
    .nullish()
    .transform((value) => {
      const parsed = typeof value === "number" ? Math.trunc(value) : Number.parseInt(value ?? "", 10);
      return Number.isNaN(parsed) ? null : parsed;
    })
    .pipe(
      z
        .number()
        .int()
        .min(min, `${label} must be at least ${min.toLocaleString("en-US")}.`)
        .max(max, `${label} must be at most ${max.toLocaleString("en-US")}.`)
        .nullable(),
    );
}

function integerOr(fallback: number, label: string, bounds?: IntegerBounds) {
  return integerOrNull(label, bounds).transform((value) => value ?? fallback);
}

export const gameInputSchema = z.object({
  title: requiredText("Title", LIMITS.title),
  slug: slugField(),
  description: requiredText("Description", LIMITS.description),
  prompt: requiredText("Prompt", LIMITS.prompt),
  tagline: optionalText("Tagline", LIMITS.tagline),
  icon: z.enum(GAME_ICONS, { error: "Choose one of the listed icons." }).default("Crown"),
  difficulty: z.enum(DIFFICULTIES, { error: "Choose Beginner, Intermediate or Advanced." }).default("Beginner"),
  category: z.enum(GAME_CATEGORIES, { error: "Choose one of the listed categories." }).default("Adventure"),
  players: optionalText("Players", LIMITS.players),
  sortOrder: integerOr(0, "Sort order"),
  isActive: z.boolean().default(true),
  trackedStats: trackedStatsSchema.default([]),
  model: gameModelSchema,
  contextTokens: contextTokensSchema,
});
export type GameInput = z.output<typeof gameInputSchema>;
export type GameFormValues = z.input<typeof gameInputSchema>;

export const contentInputSchema = z.object({
  gameSlug: z.string({ error: "Choose a game." }).trim().min(1, "Choose a game."),
  contentType: z.enum(CONTENT_TYPES, { error: "Choose one of the content types." }).default("introduction"),
  title: requiredText("Title", LIMITS.title),
  content: requiredText("Content", LIMITS.content),
  sectionOrder: integerOr(0, "Section order"),
  isPublished: z.boolean().default(true),
});
export type ContentInput = z.output<typeof contentInputSchema>;
export type ContentFormValues = z.input<typeof contentInputSchema>;

export const MULTI_SECTION_CONTENT_TYPES = MULTI_SECTION_TYPES.map((section) => section.contentType);

const sectionInputSchema = z.object({
  /** The record being edited; absent for a section the game does not have yet. */
  id: z.uuid("Unknown section.").nullish(),
  contentType: z.enum(MULTI_SECTION_CONTENT_TYPES, { error: "Unknown section type." }),
  title: z.string().trim().max(LIMITS.title, `Title must be at most ${LIMITS.title} characters.`),
  content: z
    .string()
    .trim()
    .max(LIMITS.content, `Content must be at most ${LIMITS.content.toLocaleString("en-US")} characters.`),
  /** `null` (not a number) takes the section's placeholder order. */
  sectionOrder: integerOrNull("Section order"),
  isPublished: z.boolean().default(true),
});

export const sectionsInputSchema = z
  .object({
    gameSlug: z.string({ error: ADMIN_TEXTS.selectGame }).trim().min(1, ADMIN_TEXTS.selectGame),
    sections: z.array(sectionInputSchema).max(MULTI_SECTION_TYPES.length),
  })
  .superRefine(({ sections }, context) => {
    const seen = new Set<string>();
    sections.forEach((section, index) => {
      if (seen.has(section.contentType)) {
        context.addIssue({ code: "custom", path: ["sections", index, "contentType"], message: "Each section may appear once." });
      }
      seen.add(section.contentType);
      // An existing section is updated, never blanked: removing one is the Game Content tab's delete.
      if (section.id) {
        for (const field of ["title", "content"] as const) {
          if (!section[field]) {
            context.addIssue({
              code: "custom",
              path: ["sections", index, field],
              message: `${field === "title" ? "Title" : "Content"} is required for a section that already exists.`,
            });
          }
        }
      }
    });
  });
export type SectionsInput = z.output<typeof sectionsInputSchema>;
export type SectionInput = SectionsInput["sections"][number];

export const guideInputSchema = z.object({
  title: requiredText("Title", LIMITS.title),
  slug: slugField(),
  description: requiredText("Description", LIMITS.description),
  content: requiredText("Content", LIMITS.content),
  category: z.enum(GUIDE_CATEGORIES, { error: "Choose one of the listed categories." }).default("general"),
  difficulty: z.enum(GUIDE_DIFFICULTIES, { error: "Choose beginner, intermediate or advanced." }).default("beginner"),
  estimatedReadTime: integerOr(DEFAULT_READ_TIME_MINUTES, "Read time", { min: 1, max: LIMITS.readTime }),
  isPublished: z.boolean().default(true),
  featured: z.boolean().default(false),
});
export type GuideInput = z.output<typeof guideInputSchema>;
export type GuideFormValues = z.input<typeof guideInputSchema>;

/** Field path ("title", "sections.2.content") → the first message about it. */
export type FieldErrors = Record<string, string>;

export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join(".") || "form";
    errors[key] ??= issue.message;
  }
  return errors;
}
