import type { StoryState, TrackedStat } from "#app/lib/tracked-stats.ts";
import type { Character, Place, Step } from "./session-script.ts";

/** A session as played: what the metrics read, what the scorecard's JSON keeps. */

export interface PlayedTurn {
  /** The turn's position in the session, from 1. */
  number: number;
  step: Step;
  /** What the player sent. */
  message: string;
  /** The reply as the story stores it (the state block taken out). */
  reply: string;
  /** The story's state after the reply, as GET /api/stories/{id} returns it (what the State panel shows). */
  state?: StoryState;
  /** From sending the message to the reply's first text, and to its end. */
  firstTokenMs?: number;
  replyMs?: number;
  /** Why the turn failed (an HTTP refusal, or the stream's error), when it did. */
  error?: string;
  /** Story controls used on this turn's reply after it came (its `reply` and `state` are then the final ones). */
  controls?: PlayedControl[];
}

export interface PlayedControl {
  kind: "continue" | "retry";
  firstTokenMs?: number;
  replyMs?: number;
  error?: string;
}

export interface PlayedSession {
  game: string;
  title: string;
  scriptVersion: number;
  cast: Character[];
  places: Place[];
  stats: TrackedStat[];
  turns: PlayedTurn[];
}

function stateLine(stats: readonly TrackedStat[], state: StoryState | undefined) {
  if (!state || stats.length === 0) return [];
  const shown = stats.map((stat) => {
    const value = state[stat.name];
    return Array.isArray(value) ? `${stat.name}: ${value.join(", ") || "none"}` : `${stat.name} ${String(value)}`;
  });
  return [`> State panel: ${shown.join(" · ")}`, ""];
}

/** A session as Markdown: each message, its reply, and the State panel after it. */
export function transcriptMarkdown(session: PlayedSession, { turns = session.turns.length, model }: { turns?: number; model: string }): string {
  const played = session.turns.slice(0, turns);
  const lines = [
    `# ${session.title}: ${played.length} turns with ${model}`,
    "",
    `*Played by \`npm run gm:eval\`, script ${session.game} v${session.scriptVersion}, through the site's HTTP API.*`,
    "",
  ];
  for (const turn of played) {
    const controls = (turn.controls ?? []).map(
      (control) => `${control.kind === "retry" ? "Retry" : "Continue"}${control.error ? ` (failed: ${control.error})` : ""}`,
    );
    lines.push(
      "---",
      "",
      `**Turn ${turn.number}. You:** ${turn.message}${controls.length > 0 ? ` *(then ${controls.join(", then ")})*` : ""}`,
      "",
    );
    lines.push(turn.error ? `*(The turn failed: ${turn.error})*` : turn.reply.trim(), "", ...stateLine(session.stats, turn.state));
  }
  return lines.join("\n");
}
