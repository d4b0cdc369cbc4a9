import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { db } from "../db/database.server.ts";
import { guides } from "../db/schema.ts";
import { GUIDE_CATEGORIES, GUIDE_DIFFICULTIES, type GuideCategory, type GuideDifficulty } from "../lib/constants.ts";
import { readMarkdownFolder } from "../lib/content-files.server.ts";

/**
 * Guides as visitors see them: the three built-in guides of content/guides (part of the release)
 * and the published rows of the `guides` table that admins write. Read-only.
 */

export interface GuideSummary {
  slug: string;
  title: string;
  description: string;
  category: GuideCategory;
  difficulty: GuideDifficulty;
  readTimeMinutes: number;
  featured: boolean;
  /** Built-in guides ship with the site; library guides come from the guides table. */
  source: "built-in" | "library";
  /** Library guides only: when it was written and last changed. */
  publishedAt?: Date;
  updatedAt?: Date;
}

export interface Guide extends GuideSummary {
  /** Markdown or HTML; render it with the sanitising renderer. */
  content: string;
}

const builtInGuideSchema = z.object({
  slug: z.string().regex(/^[a-z0-9-]+$/),
  title: z.string().min(1),
  description: z.string().min(1),
  category: z.enum(GUIDE_CATEGORIES),
  difficulty: z.enum(GUIDE_DIFFICULTIES),
  read_time: z.number().int().min(1),
});

/** SPEC's order of the Getting Started section. */
export const BUILT_IN_GUIDE_ORDER = ["getting-started", "ai-storytelling-tips", "best-practices"] as const;

let builtIn: Guide[] | undefined;

/** The built-in guides, read once: content/ is part of the release and does not change while it runs. */
export function listBuiltInGuides(): Guide[] {
  builtIn ??= readMarkdownFolder(["guides"], builtInGuideSchema)
    .map(({ attributes, body }): Guide => ({
      slug: attributes.slug,
      title: attributes.title,
      description: attributes.description,
      category: attributes.category,
      difficulty: attributes.difficulty,
      readTimeMinutes: attributes.read_time,
      featured: false,
      source: "built-in",
      content: body,
    }))
    .sort((a, b) => guideRank(a.slug) - guideRank(b.slug));
  return builtIn;
}

function guideRank(slug: string) {
  const index = (BUILT_IN_GUIDE_ORDER as readonly string[]).indexOf(slug);
  return index === -1 ? BUILT_IN_GUIDE_ORDER.length : index;
}

const summaryColumns = {
  slug: guides.slug,
  title: guides.title,
  description: guides.description,
  category: guides.category,
  difficulty: guides.difficulty,
  readTimeMinutes: guides.estimatedReadTime,
  featured: guides.featured,
  publishedAt: guides.createdAt,
  updatedAt: guides.updatedAt,
};

/** Published guides of the guides table, newest first; a slug a built-in guide already uses is left out. */
export async function listPublishedGuides(): Promise<GuideSummary[]> {
  const builtInSlugs = new Set(listBuiltInGuides().map((guide) => guide.slug));
  const rows = await db()
    .select(summaryColumns)
    .from(guides)
    .where(eq(guides.isPublished, true))
    .orderBy(desc(guides.featured), desc(guides.createdAt));
  return rows.filter((row) => !builtInSlugs.has(row.slug)).map((row) => ({ ...row, source: "library" as const }));
}

/** A guide by slug: a built-in one first, else a published one from the guides table. */
export async function getGuide(slug: string): Promise<Guide | undefined> {
  const fromRelease = listBuiltInGuides().find((guide) => guide.slug === slug);
  if (fromRelease) return fromRelease;
  const [row] = await db()
    .select({ ...summaryColumns, content: guides.content })
    .from(guides)
    .where(and(eq(guides.slug, slug), eq(guides.isPublished, true)))
    .limit(1);
  return row ? { ...row, source: "library" } : undefined;
}
