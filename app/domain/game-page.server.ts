import type { Logger } from "pino";
import type { ContentType } from "../lib/constants.ts";
import { getPublishedContent, type PublishedContent } from "./game-content.server.ts";
import { getActiveGame, type GameSummary } from "./games.server.ts";

export interface GamePage {
  game: GameSummary;
  content: PublishedContent;
}

/**
 * An active game and its published content, for /game/{slug} and its guide and tips pages; none
 * for a missing slug, an unknown or inactive game, a Mature world without `showMature`, or a failing query (docs/spec.md §2 sends all
 * three to /games: app/http/guards.server.ts).
 */
export async function loadGamePage(
  slug: string | undefined,
  { contentTypes, logger, showMature }: { contentTypes?: readonly ContentType[]; logger: Logger; showMature?: boolean },
): Promise<GamePage | undefined> {
  if (!slug) return undefined;
  try {
    const [game, content] = await Promise.all([getActiveGame(slug, { showMature }), getPublishedContent(slug, contentTypes)]);
    return game ? { game, content } : undefined;
  } catch (error) {
    logger.error({ err: error, slug }, "the game page failed to load");
    return undefined;
  }
}
