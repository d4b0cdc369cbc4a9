import { and, asc, eq, isNull, ne, or } from "drizzle-orm";
import { db } from "../db/database.server.ts";
import { games } from "../db/schema.ts";
import { DIFFICULTY_LEVELS } from "../lib/difficulty-levels.ts";
import { listBlogPosts } from "./blog.server.ts";
import { listPublishedGamePages } from "./game-content.server.ts";
import { listBuiltInGuides, listPublishedGuides } from "./guides.server.ts";

/** /sitemap.xml: every public page a search engine should know about. */

export interface SitemapEntry {
  path: string;
  /** ISO date or date-time. */
  lastModified?: string;
}

const STATIC_PAGES = ["/", "/games", "/guides", "/blog", "/about", "/contact", "/privacy", "/terms", "/rules"];

export async function listSitemapEntries(): Promise<SitemapEntry[]> {
  const [activeGames, gamePages, libraryGuides] = await Promise.all([
    db()
      .select({ slug: games.slug, updatedAt: games.updatedAt })
      .from(games)
      // The site's games and players' Public worlds: never an Unlisted or a Mature one (docs/decisions/059).
      .where(and(eq(games.isActive, true), or(isNull(games.creatorId), and(eq(games.status, "public"), ne(games.contentRating, "Mature")))))
      .orderBy(asc(games.sortOrder), asc(games.title)),
    listPublishedGamePages(),
    listPublishedGuides(),
  ]);
  const entries: SitemapEntry[] = STATIC_PAGES.map((path) => ({ path }));
  for (const level of Object.values(DIFFICULTY_LEVELS)) entries.push({ path: `/games/category/${level.slug}` });
  for (const game of activeGames) entries.push({ path: `/game/${game.slug}`, lastModified: game.updatedAt.toISOString() });
  for (const page of gamePages) {
    entries.push({ path: `/game/${page.gameSlug}/${page.contentType === "strategy_guide" ? "guide" : "tips"}` });
  }
  for (const guide of listBuiltInGuides()) entries.push({ path: `/guides/${guide.slug}` });
  for (const guide of libraryGuides) entries.push({ path: `/guides/${guide.slug}`, lastModified: guide.updatedAt?.toISOString() });
  for (const post of listBlogPosts()) entries.push({ path: `/blog/${post.slug}`, lastModified: post.publishedAt });
  return entries;
}

function escapeXml(value: string) {
  return value.replace(/[<>&'"]/g, (character) => `&#${character.charCodeAt(0)};`);
}

export function renderSitemap(publicUrl: string, entries: readonly SitemapEntry[]): string {
  const urls = entries.map((entry) => {
    const lastModified = entry.lastModified ? `<lastmod>${escapeXml(entry.lastModified)}</lastmod>` : "";
    return `  <url><loc>${escapeXml(`${publicUrl}${entry.path}`)}</loc>${lastModified}</url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
}

/** Disallowed: pages that need an account or make no sense to index. */
export function renderRobots(publicUrl: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    "Disallow: /admin",
    "Disallow: /play",
    "Disallow: /api",
    "Disallow: /auth",
    "",
    `Sitemap: ${publicUrl}/sitemap.xml`,
    "",
  ].join("\n");
}
