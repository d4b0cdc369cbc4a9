import { and, asc, eq, inArray } from "drizzle-orm";
import { db } from "../db/database.server.ts";
import { gameContent, games } from "../db/schema.ts";
import type { ContentType } from "../lib/constants.ts";

/**
 * Published per-game content as visitors see it. SPEC: only the first published record of each
 * content type is shown — the lowest section_order, the oldest on a tie.
 */

export interface ContentSection {
  title: string;
  content: string;
}

export type PublishedContent = Partial<Record<ContentType, ContentSection>>;

export async function getPublishedContent(gameSlug: string, contentTypes?: readonly ContentType[]): Promise<PublishedContent> {
  const rows = await db()
    .selectDistinctOn([gameContent.contentType], {
      contentType: gameContent.contentType,
      title: gameContent.title,
      content: gameContent.content,
    })
    .from(gameContent)
    .where(
      and(
        eq(gameContent.gameSlug, gameSlug),
        eq(gameContent.isPublished, true),
        contentTypes ? inArray(gameContent.contentType, [...contentTypes]) : undefined,
      ),
    )
    .orderBy(asc(gameContent.contentType), asc(gameContent.sectionOrder), asc(gameContent.createdAt));
  const content: PublishedContent = {};
  for (const row of rows) content[row.contentType] = { title: row.title, content: row.content };
  return content;
}

/** Active games that have a published strategy guide or pro tips page (for the sitemap). */
export async function listPublishedGamePages(): Promise<{ gameSlug: string; contentType: "strategy_guide" | "pro_tips" }[]> {
  const rows = await db()
    .selectDistinct({ gameSlug: gameContent.gameSlug, contentType: gameContent.contentType })
    .from(gameContent)
    .innerJoin(games, eq(games.slug, gameContent.gameSlug))
    .where(and(eq(games.isActive, true), eq(gameContent.isPublished, true), inArray(gameContent.contentType, ["strategy_guide", "pro_tips"])))
    .orderBy(asc(gameContent.gameSlug), asc(gameContent.contentType));
  return rows.flatMap((row) =>
    row.contentType === "strategy_guide" || row.contentType === "pro_tips" ? [{ gameSlug: row.gameSlug, contentType: row.contentType }] : [],
  );
}
