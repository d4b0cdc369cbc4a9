import { readGameChatStream } from "#app/lib/game-chat-stream.ts";
import type { StoryView } from "#app/lib/story-view.ts";
import { BEGIN_MESSAGE, isTurn, type SessionScript, type Step, type TurnStep } from "./session-script.ts";
import { replyParts } from "./text.ts";
import type { PlayedControl, PlayedSession, PlayedTurn } from "./transcript.ts";

/**
 * Plays a session as a player's browser would, through the site's HTTP API: a new story
 * (POST /api/stories), each turn (POST /api/game-chat, its event stream read to the end), pinned
 * facts (PUT /api/stories/{id}/memory), the story controls (POST /api/stories/{id}/continue and
 * /retry), and after each call the story as the play screen reloads it (GET /api/stories/{id}):
 * the reply as stored and the state the State panel shows.
 */

export interface Player {
  /** The site's address. */
  url: string;
  /** A session token, sent as `Authorization: Bearer` (README: programs that are not browsers). */
  token: string;
}

async function call<T>(player: Player, method: string, pathname: string, body?: unknown): Promise<T> {
  const response = await fetch(new URL(pathname, player.url), {
    method,
    headers: { Authorization: `Bearer ${player.token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${pathname} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** What the player types for a step, given the reply before it (whose choices a `choose` step picks). */
export function messageFor(step: TurnStep, previousReply: string): string {
  switch (step.kind) {
    case "begin":
      return BEGIN_MESSAGE;
    case "choose": {
      if (step.by === "number") return String(step.choice);
      // A reply without that choice leaves the player typing its number, as they would.
      return replyParts(previousReply).choices[step.choice - 1] ?? String(step.choice);
    }
    default:
      return step.text;
  }
}

interface CallOutcome {
  firstTokenMs?: number;
  replyMs?: number;
  error?: string;
}

/** A Game Master call (a turn or a story control): its event stream read to the end, timed from the request. */
async function streamCall(player: Player, pathname: string, body: unknown): Promise<CallOutcome> {
  const startedAt = performance.now();
  const response = await fetch(new URL(pathname, player.url), {
    method: "POST",
    headers: { Authorization: `Bearer ${player.token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok || !response.body) return { error: `HTTP ${response.status}: ${await response.text()}` };
  let firstTokenMs: number | undefined;
  for await (const event of readGameChatStream(response.body)) {
    if (event.type === "content" && firstTokenMs === undefined) firstTokenMs = performance.now() - startedAt;
    if (event.type === "error") return { firstTokenMs, error: event.message };
    if (event.type === "done") return { firstTokenMs, replyMs: performance.now() - startedAt };
  }
  return { firstTokenMs, error: "the stream ended without [DONE]" };
}

/** The reply of the story's latest exchange, as stored. */
function latestReply(view: StoryView) {
  return view.messages.findLast((message) => message.role === "assistant" && message.exchange === view.exchanges)?.content ?? "";
}

export async function playSession(
  player: Player,
  script: SessionScript,
  steps: readonly Step[],
  { title, onTurn }: { title: string; onTurn?: (turn: PlayedTurn) => void },
): Promise<PlayedSession> {
  let view = await call<StoryView>(player, "POST", "/api/stories", { game_slug: script.game });
  const storyId = view.id;
  const pinned: string[] = [];
  const turns: PlayedTurn[] = [];
  for (const step of steps) {
    if (step.kind === "pin") {
      pinned.push(step.fact);
      await call(player, "PUT", `/api/stories/${storyId}/memory`, {
        pinned_facts: pinned.join("\n"),
        author_note: view.memory.authorNote,
        summary: view.memory.summary,
      });
      continue;
    }
    if (!isTurn(step)) {
      // Continue or Retry on the latest reply: the turn it belongs to now reads as the player sees it.
      const latest = turns.at(-1);
      if (!latest) throw new Error(`A session cannot ${step.kind} before its first turn.`);
      const outcome = await streamCall(player, `/api/stories/${storyId}/${step.kind}`, { exchange: view.exchanges });
      view = await call<StoryView>(player, "GET", `/api/stories/${storyId}`);
      const control: PlayedControl = { kind: step.kind, ...outcome };
      latest.controls = [...(latest.controls ?? []), control];
      if (!outcome.error) {
        latest.reply = latestReply(view);
        if (view.state) latest.state = view.state.values;
      }
      continue;
    }
    const message = messageFor(step, turns.at(-1)?.reply ?? "");
    const outcome = await streamCall(player, "/api/game-chat", { message, game_slug: script.game, story_id: storyId });
    view = await call<StoryView>(player, "GET", `/api/stories/${storyId}`);
    const turn: PlayedTurn = {
      number: turns.length + 1,
      step,
      message,
      reply: outcome.error ? "" : latestReply(view),
      ...(view.state ? { state: view.state.values } : {}),
      ...outcome,
    };
    turns.push(turn);
    onTurn?.(turn);
  }
  return {
    game: script.game,
    title,
    scriptVersion: script.version,
    cast: script.cast,
    places: script.places,
    stats: view.state?.stats ?? [],
    turns,
  };
}
