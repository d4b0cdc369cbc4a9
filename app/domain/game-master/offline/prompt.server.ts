import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { CONTINUE_INSTRUCTION, pinnedFactLines, type TrackedState } from "../story-brief.server.ts";
import { readTurnMessage, type TurnCheck } from "../turn-message.server.ts";

/**
 * Everything the offline storyteller reads out of a model call, read in one place, as the context
 * lays it out (docs/decisions/055): the game's part and the story's memory as system messages, and
 * the turn's tracked state, fired lore and author's note in the last user message, before the
 * player's new message (readTurnMessage). On a Continue the lore is the instruction's turn's: none.
 */
export interface ReadPrompt {
  /** Every system message, joined: the game's prompt and its world content. */
  system: string;
  action: string;
  previousActions: string[];
  previousReplies: string[];
  /** The call asks for more of the latest reply (Continue). */
  extending: boolean;
  trackedState: TrackedState | undefined;
  /** The lore entries this turn's words fired ("Title: content"), as the turn's message gives them (decision 054). */
  lore: string[];
  /** The Check the rules settled for this action, if it was sent as one. */
  check: TurnCheck | undefined;
  pinnedFacts: string[];
  /** The rolling summary of the turns that have left the context. */
  storySoFar: string;
}

function textOf(message: LanguageModelV4Prompt[number]) {
  if (message.role === "system") return message.content;
  return message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

function block(text: string, tag: string) {
  return new RegExp(`<${tag}>\\n?([\\s\\S]*?)\\n?</${tag}>`).exec(text)?.[1];
}

export function readPrompt(prompt: LanguageModelV4Prompt): ReadPrompt {
  const system = prompt
    .filter((message) => message.role === "system")
    .map(textOf)
    .join("\n\n");
  const conversation = prompt.filter((message) => message.role === "user" || message.role === "assistant");
  const users = conversation.filter((message) => message.role === "user").map(textOf);
  const turn = readTurnMessage(users.at(-1) ?? "");
  const actions = [...users.slice(0, -1), turn.message];
  const extending = actions.at(-1) === CONTINUE_INSTRUCTION;
  // Continue: the action is still the player's last one, and the reply so far is the last reply.
  const action = (extending ? actions.at(-2) : actions.at(-1)) ?? "";
  const previousActions = actions.slice(0, extending ? -2 : -1);
  return {
    system,
    action,
    previousActions: extending ? [...previousActions, action] : previousActions,
    previousReplies: conversation.filter((message) => message.role === "assistant").map(textOf),
    extending,
    trackedState: turn.trackedState,
    lore: turn.triggeredLore,
    check: turn.check,
    pinnedFacts: pinnedFactLines(block(system, "pinned_facts") ?? ""),
    storySoFar: block(system, "story_so_far")?.trim() ?? "",
  };
}

export function promptText(prompt: LanguageModelV4Prompt) {
  return prompt.map(textOf).join("\n");
}
