import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { listContentFolders, readMarkdownFolder } from "../../lib/content-files.server.ts";
import {
  CONTENT_TYPES,
  DIFFICULTIES,
  GAME_CATEGORIES,
  GAME_ICONS,
  GUIDE_CATEGORIES,
  GUIDE_DIFFICULTIES,
  type ContentType,
} from "../../lib/constants.ts";
import { trackedStatsSchema } from "../../lib/tracked-stats.ts";
import type { Database } from "../client.server.ts";
import { blockedTerms, gameContent, games, guides, seedHistory, type NewGame, type NewGameContent, type NewGuide } from "../schema.ts";

const gameFileSchema = z.object({
  slug: z.string().regex(/^[a-z0-9-]+$/),
  title: z.string().min(1),
  tagline: z.string().min(1),
  description: z.string().min(1),
  icon: z.enum(GAME_ICONS),
  difficulty: z.enum(DIFFICULTIES),
  category: z.enum(GAME_CATEGORIES),
  players: z.string().min(1),
  sort_order: z.number().int(),
  tracked_stats: trackedStatsSchema.default([]),
});

const contentFileSchema = z.object({
  title: z.string().min(1),
  section_order: z.number().int().default(0),
});

const guideFileSchema = z.object({
  slug: z.string().regex(/^[a-z0-9-]+$/),
  title: z.string().min(1),
  description: z.string().min(1),
  category: z.enum(GUIDE_CATEGORIES),
  difficulty: z.enum(GUIDE_DIFFICULTIES),
  read_time: z.number().int().min(1),
  featured: z.boolean().default(false),
});

interface SeedGame {
  game: NewGame;
  content: NewGameContent[];
}

function isContentType(name: string): name is ContentType {
  return (CONTENT_TYPES as readonly string[]).includes(name);
}

/** The games of content/games/<slug>/: game.md (fields + the Game Master prompt) and one file per content type. */
export function loadSeedGames(): SeedGame[] {
  return listContentFolders("games").map((folder) => {
    const files = readMarkdownFolder(["games", folder], z.looseObject({}));
    const gameFile = files.find((file) => file.name === "game");
    if (!gameFile) throw new Error(`content/games/${folder} has no game.md`);
    const fields = gameFileSchema.parse(gameFile.attributes);
    const game: NewGame = {
      slug: fields.slug,
      title: fields.title,
      tagline: fields.tagline,
      description: fields.description,
      icon: fields.icon,
      difficulty: fields.difficulty,
      category: fields.category,
      players: fields.players,
      sortOrder: fields.sort_order,
      trackedStats: fields.tracked_stats,
      prompt: gameFile.body,
    };
    const content = files.flatMap((file): NewGameContent[] => {
      if (!isContentType(file.name)) return [];
      const { title, section_order } = contentFileSchema.parse(file.attributes);
      return [{ gameSlug: fields.slug, contentType: file.name, title, content: file.body, sectionOrder: section_order }];
    });
    return { game, content };
  });
}

export function loadSeedGuides(): NewGuide[] {
  return readMarkdownFolder(["seed-guides"], guideFileSchema).map(({ attributes, body }) => ({
    slug: attributes.slug,
    title: attributes.title,
    description: attributes.description,
    content: body,
    category: attributes.category,
    difficulty: attributes.difficulty,
    estimatedReadTime: attributes.read_time,
    featured: attributes.featured,
  }));
}

/**
 * Adds the games and guides of content/ that were never seeded before, in one transaction.
 * Each item is seeded once in the database's life (seed_history), so a restart never undoes
 * an admin's edit or deletion, and a new release can still add new items.
 */
export async function seedDatabase(
  db: Database,
  { blockedTerms: firstBlockedTerms = [] }: { blockedTerms?: readonly string[] } = {},
): Promise<{ games: number; guides: number }> {
  const seedGames = loadSeedGames();
  const seedGuides = loadSeedGuides();
  return db.transaction(async (tx) => {
    const seeded = new Set((await tx.select({ key: seedHistory.key }).from(seedHistory)).map((row) => row.key));
    const claim = async (key: string) => {
      if (seeded.has(key)) return false;
      await tx.insert(seedHistory).values({ key });
      return true;
    };

    let gameCount = 0;
    for (const { game, content } of seedGames) {
      // Tracked stats came after the games: a game seeded before them gets its stats once, unless
      // an admin has given it some already.
      if ((await claim(`stats:${game.slug}`)) && seeded.has(`game:${game.slug}`) && game.trackedStats?.length) {
        await tx
          .update(games)
          .set({ trackedStats: game.trackedStats })
          .where(and(eq(games.slug, game.slug), sql`${games.trackedStats} = '[]'::jsonb`));
      }
      if (!(await claim(`game:${game.slug}`))) continue;
      const inserted = await tx.insert(games).values(game).onConflictDoNothing().returning({ slug: games.slug });
      if (inserted.length === 0) continue; // An admin already made a game with this slug: theirs stays.
      if (content.length > 0) await tx.insert(gameContent).values(content);
      gameCount += 1;
    }

    let guideCount = 0;
    for (const guide of seedGuides) {
      if (!(await claim(`guide:${guide.slug}`))) continue;
      const inserted = await tx.insert(guides).values(guide).onConflictDoNothing().returning({ slug: guides.slug });
      guideCount += inserted.length;
    }
    // The operator's WORLD_BLOCKED_TERMS start the admin's list: each once, so a term the admin removed stays removed.
    for (const term of firstBlockedTerms) {
      if (await claim(`blocked-term:${term}`)) await tx.insert(blockedTerms).values({ term }).onConflictDoNothing();
    }
    return { games: gameCount, guides: guideCount };
  });
}
