import { redirect } from "react-router";
import type { ContentType } from "../lib/constants.ts";
import type { Logger } from "../lib/logger.server.ts";
import { getPublishedContent, type PublishedContent } from "./game-content.server.ts";
import { getActiveGame, type GameSummary } from "./games.server.ts";

/**
 * An active game and its published content, for /game/{slug} and its guide and tips pages.
 * SPEC: a missing slug, an unknown or inactive game, or a failing query all redirect to /games.
 */
export async function requireGamePage(
  slug: string | undefined,
  { contentTypes, logger }: { contentTypes?: readonly ContentType[]; logger: Logger },
): Promise<{ game: GameSummary; content: PublishedContent }> {
  if (!slug) throw redirect("/games");
  let found: [GameSummary | undefined, PublishedContent];
  try {
    found = await Promise.all([getActiveGame(slug), getPublishedContent(slug, contentTypes)]);
  } catch (error) {
    logger.error({ err: error, slug }, "the game page failed to load");
    throw redirect("/games");
  }
  const [game, content] = found;
  if (!game) throw redirect("/games");
  return { game, content };
}
