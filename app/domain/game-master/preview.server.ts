import { env } from "../../env.server.ts";
import { applyStateChanges, startingState, type StoryState } from "../../lib/tracked-stats.ts";
import { PLAY_TOASTS } from "../../lib/play-texts.ts";
import { NotFoundError } from "../errors.server.ts";
import { enforceRateLimit, type RateLimitRule } from "../rate-limit.server.ts";
import { buildModelContext } from "./context.server.ts";
import { loadStoryBrief } from "./game-source.server.ts";
import { createOfflineStoryteller } from "./offline-storyteller.server.ts";
import { streamReply } from "./reply-stream.server.ts";
import { StateBlockFilter } from "./state-block.server.ts";

/**
 * The game page's preview (issue 33): the real opening scene of a game, answering the visitor's
 * first action, told by the offline storyteller whatever model the site plays with. It needs no
 * account, costs nothing and stores nothing: the storyteller runs in this process, on the same
 * context a story's first turn gets, so a visitor meets the opening a player would.
 */

export interface PreviewScene {
  /** The reply's prose, its state block taken out, as the play screen would show it. */
  reply: string;
  /** The game's stats after the opening, when it tracks any. */
  state: StoryState | undefined;
}

/** Generous for a visitor trying a few games; a bound on what one address can make the server write. */
const PREVIEW_RATE_LIMIT: RateLimitRule = { name: "game-preview", limit: 20, windowMs: 60_000 };

/** Written at once: the preview shows its typing indicator for a fixed time instead. */
const previewStoryteller = createOfflineStoryteller({ wordDelayMs: 0 });

export async function previewOpeningScene({
  gameSlug,
  action,
  visitor,
  abortSignal,
}: {
  gameSlug: string;
  action: string;
  /** The visitor's address, which the preview's rate limit counts. */
  visitor: string;
  abortSignal: AbortSignal;
}): Promise<PreviewScene> {
  await enforceRateLimit(
    PREVIEW_RATE_LIMIT,
    visitor,
    (wait) => `You have tried the preview many times in a minute. Please wait ${wait}, or sign in to play for real.`,
  );
  const game = await loadStoryBrief(gameSlug);
  if (!game) throw new NotFoundError(PLAY_TOASTS.gameNotFound.description);
  const config = env();
  const stats = game.trackedStats;
  const startingValues = startingState(stats);
  const context = buildModelContext({
    brief: game,
    conversation: { messages: [], hasGap: false },
    message: action,
    budgetTokens: config.AI_CONTEXT_TOKENS,
    trackedState: stats.length > 0 ? { stats, values: startingValues } : undefined,
  });
  const read = await streamReply({
    model: previewStoryteller,
    system: context.system,
    messages: context.messages,
    maxOutputTokens: config.AI_MAX_OUTPUT_TOKENS,
    maxRetries: 0,
    abortSignal,
  });
  const filter = new StateBlockFilter();
  let reply = "";
  await read((delta) => {
    reply += filter.push(delta);
  });
  reply += filter.end();
  return { reply: reply.trim(), state: stats.length > 0 ? applyStateChanges(stats, startingValues, filter.state()) : undefined };
}
