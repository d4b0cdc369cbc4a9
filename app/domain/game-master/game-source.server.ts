import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { preparedQuery } from "../../db/prepared.server.ts";
import { gameContent, games } from "../../db/schema.ts";
import { WORLD_CONTENT_TYPES, type StoryBrief, type WorldContentType } from "./story-brief.server.ts";

const playableGameQuery = preparedQuery((database) =>
  database
    .select({ slug: games.slug, title: games.title, tagline: games.tagline, prompt: games.prompt })
    .from(games)
    .where(and(eq(games.slug, sql.placeholder("slug")), eq(games.isActive, true)))
    .prepare("playable_game"),
);

/** The playable game of a slug: active games only. */
export async function findPlayableGame(slug: string) {
  const [game] = await playableGameQuery().execute({ slug });
  return game;
}

export type PlayableGame = NonNullable<Awaited<ReturnType<typeof findPlayableGame>>>;

const worldContentQuery = preparedQuery((database) =>
  database
    .select({ contentType: gameContent.contentType, title: gameContent.title, content: gameContent.content })
    .from(gameContent)
    .where(
      and(
        eq(gameContent.gameSlug, sql.placeholder("slug")),
        eq(gameContent.isPublished, true),
        inArray(gameContent.contentType, [...WORLD_CONTENT_TYPES]),
      ),
    )
    .orderBy(asc(gameContent.sectionOrder), asc(gameContent.createdAt))
    .prepare("world_content"),
);

/** The game's prompt and its published world content, most important sections first. */
export async function loadStoryBrief(game: PlayableGame): Promise<StoryBrief> {
  const rows = await worldContentQuery().execute({ slug: game.slug });
  const priority = (type: string) => WORLD_CONTENT_TYPES.indexOf(type as WorldContentType);
  const sections = rows
    .map((row) => ({ contentType: row.contentType as WorldContentType, title: row.title, content: row.content }))
    .sort((a, b) => priority(a.contentType) - priority(b.contentType));
  return { title: game.title, prompt: game.prompt, sections };
}
