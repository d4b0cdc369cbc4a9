import { splitStoryChoices } from "./story-choices.ts";
import type { StatValue } from "./tracked-stats.ts";

/**
 * SPEC's "simpler embedded chat" on the game page (docs/spec.md §4). Its welcome, placeholder and
 * typing indicator are SPEC's; where SPEC gave it a canned reply, it now plays the game's real
 * opening scene, told by the offline storyteller for free and without an account (issue 33:
 * the canned reply was a stub for every game but one). Where SPEC shows the game's prompt, the
 * preview shows its description: the prompt is the Game Master's secret
 * (docs/decisions/016-the-prompt-stays-on-the-server.md).
 */

export interface PreviewStat {
  label: string;
  value: string;
}

export type PreviewMessage =
  | { id: number; role: "user"; text: string }
  | {
      id: number;
      role: "assistant";
      /** Markdown, as the Game Master wrote it. */
      text: string;
      stats?: readonly PreviewStat[];
      choices?: readonly string[];
    };

export interface PreviewGame {
  slug: string;
  title: string;
  description: string;
}

/** The opening scene as POST /api/game-preview answers it. */
export interface PreviewScene {
  reply: string;
  state?: Record<string, StatValue>;
}

export const PREVIEW_PLACEHOLDER = "What do you want to do? Type your action or choice...";
export const PREVIEW_ACTION_MAX_LENGTH = 500;

export const PREVIEW_TEXTS = {
  failed: "The preview could not be told just now. Please try again in a moment.",
  ended:
    "That is where the preview ends. Sign in to go on with this story: the opening scene is free, and every message after it costs one credit.",
} as const;

export function welcomeMessage(game: PreviewGame): PreviewMessage {
  return { id: 0, role: "assistant", text: `Welcome to ${game.title}! I am your AI Game Master.\n\n${game.description}` };
}

function statText(value: StatValue): string {
  if (Array.isArray(value)) return value.length > 0 ? value.join(", ") : "None";
  return typeof value === "number" ? value.toLocaleString("en-US") : value;
}

/** The opening scene as the preview shows it: its prose, the stats it leaves the story with, and its numbered choices. */
export function sceneMessage(scene: PreviewScene, id: number): PreviewMessage {
  const { body, choices } = splitStoryChoices(scene.reply);
  const stats = scene.state ? Object.entries(scene.state).map(([label, value]) => ({ label, value: statText(value) })) : undefined;
  return { id, role: "assistant", text: body, stats, choices: choices.length > 0 ? choices : undefined };
}
