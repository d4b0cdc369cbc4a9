import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import {
  CONTINUE_INSTRUCTION,
  PINNED_FACTS_INTRODUCTION,
  pinnedFactLines,
  PROMPT_TAGS,
  readTrackedState,
  STORY_SO_FAR_INTRODUCTION,
  TRACKED_STATE_INTRODUCTION,
  withoutAuthorNote,
  type TrackedState,
} from "../story-brief.server.ts";

/**
 * Everything the offline storyteller reads out of a model call, read in one place. The server may
 * put the tracked state, the pinned facts, the story so far and the author's note in the system
 * prompt (one system message, or a stable and a slow one) or in the last user message, before the
 * player's new message: every system message and the last user message are searched for the same
 * blocks, and the player's message is what is left of the last user message without them.
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

const INTRODUCTIONS = [TRACKED_STATE_INTRODUCTION, PINNED_FACTS_INTRODUCTION, STORY_SO_FAR_INTRODUCTION];
const BLOCKS = new RegExp(`<(${PROMPT_TAGS.join("|")})\\b[^>]*>[\\s\\S]*?</\\1>`, "g");

/** A user message without the blocks the server adds to it: what the player typed. */
function playerText(message: string) {
  const paragraphs = withoutAuthorNote(message.replace(BLOCKS, ""))
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph && !INTRODUCTIONS.includes(paragraph) && !/^End every reply with the state\b/.test(paragraph));
  return withoutAuthorNote(paragraphs.join("\n\n"));
}

export function readPrompt(prompt: LanguageModelV4Prompt): ReadPrompt {
  const system = prompt
    .filter((message) => message.role === "system")
    .map(textOf)
    .join("\n\n");
  const conversation = prompt.filter((message) => message.role === "user" || message.role === "assistant");
  const users = conversation.filter((message) => message.role === "user").map(textOf);
  const searched = [system, users.at(-1) ?? ""].join("\n\n");
  const actions = users.map(playerText);
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
    trackedState: readTrackedState(searched),
    pinnedFacts: pinnedFactLines(block(searched, "pinned_facts") ?? ""),
    storySoFar: block(searched, "story_so_far")?.trim() ?? "",
  };
}

export function promptText(prompt: LanguageModelV4Prompt) {
  return prompt.map(textOf).join("\n");
}
