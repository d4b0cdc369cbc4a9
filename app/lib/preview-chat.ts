/**
 * SPEC's "simpler embedded chat" on the game page: a local preview with canned replies (no
 * server call, no credits). The empress sample reply and its stats are docs/spec.md §4's. Where SPEC
 * shows the game's prompt, the preview shows its description: the prompt is the Game Master's
 * secret (docs/decisions/016-the-prompt-stays-on-the-server.md).
 */

export interface PreviewStat {
  label: string;
  value: string;
}

export interface PreviewMessage {
  id: number;
  role: "user" | "assistant";
  paragraphs: readonly string[];
  stats?: readonly PreviewStat[];
  choices?: readonly string[];
}

export interface PreviewGame {
  slug: string;
  title: string;
  description: string;
}

export const PREVIEW_PLACEHOLDER = "What do you want to do? Type your action or choice...";

export const EMPRESS_SAMPLE_STATS: readonly PreviewStat[] = [
  { label: "Grace", value: "75" },
  { label: "Imperial Stability", value: "68" },
  { label: "Trust of Young Emperor", value: "85" },
  { label: "Private treasury", value: "2,800 silver taels" },
];

export const EMPRESS_SAMPLE_CHOICES: readonly string[] = [
  "Summon Grand Chancellor Duan to a private audience before the ministers leave the hall",
  "Grant Marquis Mu's request, but let only three hundred of his horsemen inside the city walls",
  "Order Censor Fang Yu to submit his evidence against Chief Eunuch Gu in writing by nightfall",
  "Send Madam Lin to question the night guards posted outside the emperor's bedchamber",
  "Release 500 taels from your private treasury toward the Northern Army's winter pay",
  "Take the young emperor's hand and adjourn the audience until tomorrow",
];

export function welcomeMessage(game: PreviewGame): PreviewMessage {
  return {
    id: 0,
    role: "assistant",
    paragraphs: [`Welcome to ${game.title}! I am your AI Game Master.`, game.description],
  };
}

/** The canned reply to a player's action (trimmed, non-empty). */
export function cannedReply(game: PreviewGame, action: string, id: number): PreviewMessage {
  if (game.slug === "empress-simulator") {
    return {
      id,
      role: "assistant",
      paragraphs: [
        `You decide: “${action}”`,
        "Behind the pearl curtain, the hall falls silent. Grand Chancellor Duan lowers his ivory tablet a fraction, Marquis Mu's jaw tightens, and at your side the little emperor holds his breath. Every minister is weighing what your choice says about the regent they will serve.",
        "Your standing at court:",
      ],
      stats: EMPRESS_SAMPLE_STATS,
      choices: EMPRESS_SAMPLE_CHOICES,
    };
  }
  return {
    id,
    role: "assistant",
    paragraphs: [
      `You decide: “${action}”`,
      `The Game Master takes note. In the full game of ${game.title}, your action would ripple through the story: characters react, consequences unfold, and new choices open up.`,
    ],
  };
}
