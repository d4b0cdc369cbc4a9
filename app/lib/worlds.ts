import { z } from "zod";
import { DIFFICULTIES, GAME_CATEGORIES, GAME_ICONS } from "./constants.ts";
import type { LoreEntryInput } from "./lorebook.ts";

/**
 * Worlds: games a player makes (issue 36, docs/decisions/053). Their statuses, content ratings
 * and the shapes of what a world keeps besides a game's columns, shared by the create screen, the
 * server and the schema.
 */

/** A draft is seen by its creator alone; unlisted by anyone with the link; public by everyone. */
export const WORLD_STATUSES = ["draft", "unlisted", "public"] as const;
export type WorldStatus = (typeof WORLD_STATUSES)[number];
/** Each status as the create screen and the creator dashboard name it. */
export const WORLD_STATUS_LABELS: Record<WorldStatus, string> = { draft: "Draft", unlisted: "Unlisted", public: "Public" };

/** What Publish offers: Unlisted (anyone with the link plays it) or Public (listed under Community too). */
export const PUBLISHED_STATUSES = ["unlisted", "public"] as const;
export type PublishedStatus = (typeof PUBLISHED_STATUSES)[number];

export const CONTENT_RATINGS = ["Everyone", "Teen", "Mature"] as const;
export type ContentRating = (typeof CONTENT_RATINGS)[number];

/** Community's orders: likes and plays of the last week, likes of all time, first published. */
export const COMMUNITY_SORTS = ["trending", "top", "new"] as const;
export type CommunitySort = (typeof COMMUNITY_SORTS)[number];

/** A world this one was remixed from, as it was named when the remix was made. */
export interface RemixCredit {
  slug: string;
  title: string;
  creatorName: string;
  creatorHandle: string;
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/**
 * A world's lorebook entry as a character card gives it: an entry of the game's lorebook (its
 * fields as the editor has them), and what the card's entry held besides (docs/decisions/065).
 */
export interface WorldLoreEntry extends LoreEntryInput {
  /** The card entry's fields besides content, constant and enabled, as they were (keys, name…). */
  extra: JsonObject;
}

/** What a world keeps of an imported character card besides the fields it uses, to export it again. */
export interface WorldExtra {
  /** The card's data fields the site does not use (mes_example, system_prompt, extensions…). */
  data: JsonObject;
  /** The character book's fields besides its entries; absent when the card had no book. */
  book?: JsonObject;
  /** The three texts the instructions were made of, to write them back apart while unedited. */
  source?: { description: string; personality: string; scenario: string };
}

export const WORLD_LIMITS = {
  title: 200,
  tagline: 200,
  description: 2_000,
  prompt: 50_000,
  opening: 20_000,
  alternativeOpenings: 20,
  tags: 20,
  tag: 40,
  creatorNotes: 20_000,
} as const;

function text(label: string, max: number, required: boolean) {
  const trimmed = z.string().trim();
  return (required ? trimmed.min(1, `${label} is required.`) : trimmed).max(
    max,
    `${label} must be at most ${max.toLocaleString("en-US")} characters.`,
  );
}

/** The create form's rules: the browser shows them per field, the server's check is the one that counts. */
export const worldFormSchema = z.object({
  title: text("Title", WORLD_LIMITS.title, true),
  tagline: text("Tagline", WORLD_LIMITS.tagline, false),
  description: text("Description", WORLD_LIMITS.description, true),
  difficulty: z.enum(DIFFICULTIES, "Choose a difficulty from the list."),
  category: z.enum(GAME_CATEGORIES, "Choose a category from the list."),
  icon: z.enum(GAME_ICONS, "Choose an icon from the list."),
  prompt: text("Game Master instructions", WORLD_LIMITS.prompt, true),
  opening: text("Opening message", WORLD_LIMITS.opening, false),
  alternativeOpenings: z
    .array(text("An alternative opening", WORLD_LIMITS.opening, false))
    .max(WORLD_LIMITS.alternativeOpenings, `A world may have at most ${WORLD_LIMITS.alternativeOpenings} alternative openings.`)
    .transform((openings) => openings.filter(Boolean)),
  tags: z
    .string()
    .transform((tags) => [
      ...new Set(
        tags
          .split(",")
          .map((tag) => tag.trim().toLowerCase())
          .filter(Boolean),
      ),
    ])
    .pipe(
      z
        .array(z.string().max(WORLD_LIMITS.tag, `Each tag must be at most ${WORLD_LIMITS.tag} characters.`))
        .max(WORLD_LIMITS.tags, `A world may have at most ${WORLD_LIMITS.tags} tags.`),
    ),
  contentRating: z.enum(CONTENT_RATINGS, "Choose a content rating: Everyone, Teen or Mature."),
  creatorNotes: text("Creator notes", WORLD_LIMITS.creatorNotes, false),
});
export type WorldForm = z.infer<typeof worldFormSchema>;
export type WorldFormField = keyof WorldForm;
