import type { MessageRole } from "../../lib/constants.ts";
import {
  asPromptData,
  OMITTED_TURNS_NOTE,
  PINNED_FACTS_INTRODUCTION,
  renderSystemPrompt,
  STORY_SO_FAR_INTRODUCTION,
  withAuthorNote,
  renderTrackedState,
  renderWorldSection,
  WORLD_INTRODUCTION,
  type StoryBrief,
  type TrackedState,
  type WorldSection,
} from "./story-brief.server.ts";
import { estimateMessageTokens, estimateTokens, truncateToTokens } from "./tokens.server.ts";

export interface ConversationMessage {
  role: MessageRole;
  content: string;
}

export interface StoredConversation {
  /** Chronological: the whole story, or its opening and its most recent messages. */
  messages: ConversationMessage[];
  /** True when messages between the opening and the recent ones were not loaded. */
  hasGap: boolean;
  /** Exchanges among the recent ones left out because their reply was interrupted. */
  unanswered?: number;
}

export interface ModelContext {
  system: string;
  messages: ConversationMessage[];
  /** How many of the newest turns before the new message were kept (the opening aside). */
  keptTurns: number;
}

/** The story's memory, as the player wrote it (or the server summarised it). */
export interface ContextMemory {
  summary: string;
  pinnedFacts: string;
  authorNote: string;
}

/** Each part of the memory may take at most this share of the budget: the story itself needs the rest. */
const MEMORY_SHARE = 0.2;

/** World content may take at most this share of the budget; the story itself needs the rest. */
const WORLD_SHARE = 0.4;
/** Each "\n\n" between system prompt parts, rounded up. */
const SEPARATOR_TOKENS = 1;

/**
 * One exchange: a player message and the replies that follow it (normally exactly one). Turns
 * are kept or dropped whole, so the model never sees a reply without the action it answers.
 */
function groupTurns(messages: ConversationMessage[]): ConversationMessage[][] {
  const turns: ConversationMessage[][] = [];
  for (const message of messages) {
    const current = turns.at(-1);
    if (message.role === "user" || !current) turns.push([message]);
    else current.push(message);
  }
  return turns;
}

function messagesTokens(messages: ConversationMessage[]) {
  return messages.reduce((sum, message) => sum + estimateMessageTokens(message.content), 0);
}

/** A brief's prompt and world sections, with what each costs. */
interface MeasuredBrief {
  prompt: string;
  promptTokens: number;
  sections: { section: WorldSection; tokens: number }[];
}

// A game's brief is kept in memory, the same object for every turn until an admin changes the
// game (game-source.server.ts): its ~15 KB are measured once, not on every turn.
const measuredBriefs = new WeakMap<StoryBrief, MeasuredBrief>();

function measure(brief: StoryBrief): MeasuredBrief {
  let measured = measuredBriefs.get(brief);
  if (!measured) {
    const prompt = brief.prompt.trim();
    measured = {
      prompt,
      promptTokens: estimateTokens(prompt),
      sections: brief.sections.map((section) => ({ section, tokens: estimateTokens(renderWorldSection(section)) + SEPARATOR_TOKENS })),
    };
    measuredBriefs.set(brief, measured);
  }
  return measured;
}

/**
 * The model's context for one turn, within `budgetTokens`: the system prompt (the game's prompt,
 * then as much published world content as its share allows), the opening exchange of the story,
 * the newest turns that still fit, and the player's new message. Older turns go first.
 */
export function buildModelContext({
  brief,
  conversation,
  message,
  budgetTokens,
  memory,
  trackedState,
}: {
  brief: StoryBrief;
  conversation: StoredConversation;
  message: string;
  budgetTokens: number;
  memory?: ContextMemory;
  /** The game's stats and their values before this reply, when the game tracks any. */
  trackedState?: TrackedState;
}): ModelContext {
  const heading = `# ${brief.title}`;
  const memoryLimit = Math.floor(budgetTokens * MEMORY_SHARE);
  // Measured as the model reads it: as data, where "‹" costs more than the "<" the player wrote.
  const remembered = {
    summary: truncateToTokens(asPromptData(memory?.summary.trim() ?? ""), memoryLimit),
    pinnedFacts: truncateToTokens(asPromptData(memory?.pinnedFacts.trim() ?? ""), memoryLimit),
  };
  const finalMessage = withAuthorNote(message, truncateToTokens(asPromptData(memory?.authorNote.trim() ?? ""), memoryLimit));
  const memoryTokens =
    (remembered.summary ? estimateTokens(STORY_SO_FAR_INTRODUCTION) + estimateTokens(remembered.summary) + 4 * SEPARATOR_TOKENS : 0) +
    (remembered.pinnedFacts ? estimateTokens(PINNED_FACTS_INTRODUCTION) + estimateTokens(remembered.pinnedFacts) + 8 * SEPARATOR_TOKENS : 0);
  const stateTokens = trackedState?.stats.length ? estimateTokens(renderTrackedState(trackedState)) + SEPARATOR_TOKENS : 0;
  const fixedTokens =
    estimateMessageTokens(finalMessage) +
    estimateTokens(heading) +
    estimateTokens(OMITTED_TURNS_NOTE) +
    3 * SEPARATOR_TOKENS +
    memoryTokens +
    stateTokens;
  // The game's own prompt is never dropped; only a budget smaller than the prompt shortens it.
  const measured = measure(brief);
  const promptFits = measured.promptTokens <= budgetTokens - fixedTokens;
  const prompt = promptFits ? measured.prompt : truncateToTokens(measured.prompt, budgetTokens - fixedTokens);
  let used = fixedTokens + (promptFits ? measured.promptTokens : estimateTokens(prompt));

  const worldLimit = Math.min(Math.floor(budgetTokens * WORLD_SHARE), budgetTokens - used);
  const sections: WorldSection[] = [];
  let worldTokens = estimateTokens(WORLD_INTRODUCTION) + SEPARATOR_TOKENS;
  for (const { section, tokens: cost } of measured.sections) {
    if (worldTokens + cost > worldLimit) continue;
    sections.push(section);
    worldTokens += cost;
  }
  if (sections.length > 0) used += worldTokens;

  const [opening, ...rest] = groupTurns(conversation.messages);
  const keptOpening = opening !== undefined && used + messagesTokens(opening) <= budgetTokens;
  if (keptOpening) used += messagesTokens(opening);
  let firstKept = rest.length;
  for (const turn of rest.toReversed()) {
    const cost = messagesTokens(turn);
    if (used + cost > budgetTokens) break;
    firstKept -= 1;
    used += cost;
  }
  const turnsOmitted = conversation.hasGap || (opening !== undefined && !keptOpening) || firstKept > 0;

  const history = [...(keptOpening ? opening : []), ...rest.slice(firstKept).flat()];
  const system = renderSystemPrompt({ title: brief.title, prompt }, sections, { turnsOmitted, memory: remembered, trackedState });
  const messages = [...history, { role: "user" as const, content: finalMessage }];
  return { system, messages, keptTurns: rest.length - firstKept };
}
