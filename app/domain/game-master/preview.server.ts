import type { StoryState } from "../../lib/tracked-stats.ts";
import { PLAY_TOASTS } from "../../lib/play-texts.ts";
import { NotFoundError } from "../errors.server.ts";
import { enforceRateLimit, type RateLimitRule } from "../rate-limit.server.ts";
import { loadStoryBrief } from "./game-source.server.ts";
import { tellOffline } from "./offline/playthrough.server.ts";

/**
 * The game page's preview (issue 33): the real opening scene of a game, answering the visitor's
 * first action, told by the offline storyteller whatever model the site plays with. It needs no
 * account, costs nothing and stores nothing: the storyteller runs in this process on the context a
 * story's first turn gets (tellOffline, as the storyteller's own playthroughs call it), so a
 * visitor meets the opening a player would.
 */

export interface PreviewScene {
  /** The reply's prose, its state block taken out, as the play screen would show it. */
  reply: string;
  /** The game's stats after the opening, when it tracks any. */
  state: StoryState | undefined;
}

/** Generous for a visitor trying a few games; a bound on what one address can make the server write. */
const PREVIEW_RATE_LIMIT: RateLimitRule = { name: "game-preview", limit: 20, windowMs: 60_000 };

export async function previewOpeningScene({
  gameSlug,
  action,
  visitor,
}: {
  gameSlug: string;
  action: string;
  /** The visitor's address, which the preview's rate limit counts. */
  visitor: string;
}): Promise<PreviewScene> {
  await enforceRateLimit(
    PREVIEW_RATE_LIMIT,
    visitor,
    (wait) => `You have tried the preview many times in a minute. Please wait ${wait}, or sign in to play for real.`,
  );
  const game = await loadStoryBrief(gameSlug);
  if (!game) throw new NotFoundError(PLAY_TOASTS.gameNotFound.description);
  const { reply, state } = await tellOffline(game, [], action, { stats: game.trackedStats });
  return { reply: reply.trim(), state };
}
