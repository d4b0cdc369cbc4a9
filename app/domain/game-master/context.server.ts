import type { MessageRole } from "../../lib/constants.ts";
import type { ContextManifest, ContextSection } from "../../lib/context-manifest.ts";
import type { StatCheck } from "../../lib/stat-checks.ts";
import {
  asPromptData,
  OMITTED_TURNS_NOTE,
  PINNED_FACTS_INTRODUCTION,
  renderStateRules,
  renderSystemPrompt,
  renderTrackedState,
  STORY_LORE_INTRODUCTION,
  STORY_SO_FAR_INTRODUCTION,
  renderWorldSection,
  WORLD_INTRODUCTION,
  type StoryBrief,
  type TrackedState,
  type WorldSection,
} from "./story-brief.server.ts";
import { renderCheck, renderTurnMessage, withAuthorNote } from "./turn-message.server.ts";
import { loreForTurn, type LoreEntry, type LoreForTurn } from "./lorebook.server.ts";
import { estimateMessageTokens, estimateTokens, MESSAGE_OVERHEAD_TOKENS, truncateToTokens } from "./tokens.server.ts";

export interface ConversationMessage {
  role: MessageRole;
  content: string;
  /** The exchange it belongs to, when it was read from the story (begun-turn.server.ts); otherwise its place counts. */
  exchange?: number;
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
  /** The system prompt's parts, as renderSystemPrompt orders them: each is a system message of its own. */
  system: string[];
  messages: ConversationMessage[];
  /** How many of the newest turns before the new message were kept (the opening aside). */
  keptTurns: number;
  /** The lore that entered (always on, or fired and by what) and what was cut for room. */
  lore: LoreForTurn<ContextLoreEntry>;
  /** Every part, in order, by reference and token count: what "What the Game Master sees" shows. */
  manifest: ContextManifest;
}

/** A lore entry of the game's (canon) or of the story's (the player's own), by its row's id. */
export type ContextLoreEntry = LoreEntry & { source: "game" | "story"; id: string };

/** The lorebooks a turn matches against, as begin_turn reads them (app/db/functions/story_lore.sql). */
export interface ContextLore {
  entries: readonly ContextLoreEntry[];
  /** How many exchanges before the new message are scanned for keys. */
  scanDepth: number;
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
/** Lore, always-on and fired together, may take at most this share (docs/decisions/054). */
const LORE_SHARE = 0.15;
/** Each "\n\n" between system prompt parts, rounded up. */
const SEPARATOR_TOKENS = 1;
/**
 * A full window lets its oldest exchanges go in blocks of about this share of the exchanges it
 * holds, so the request's beginning stays the same, and cached, until the next block goes.
 */
const DROPPED_BLOCK_SHARE = 0.25;
/**
 * A small window (a few long exchanges) still lets at least this many go at once, up to half of
 * it: with a block of one or two, every other turn would begin its history anew.
 */
const SMALL_WINDOW_BLOCK = 3;

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

/** A turn's exchange: as read from the story, or, in a conversation read whole, from its place after the opening. */
function exchangeOf(turn: ConversationMessage[], index: number) {
  return turn[0]?.exchange ?? index + 2;
}

/**
 * The first of the newest turns (`rest`, the opening aside) a full window keeps, when those from
 * `oldestFitting` on are all that fit: the first whose exchange is at a block boundary. Blocks are
 * a power of two exchanges, about a quarter of those that fit and at least SMALL_WINDOW_BLOCK (a
 * power of two, so the size stays the same from turn to turn while exchanges vary in length, and
 * its boundaries nest when it changes); boundaries are multiples of it, so
 * the window's first exchange moves only when a whole block goes, and stays put in between.
 */
function blockStart(rest: ConversationMessage[][], oldestFitting: number) {
  const fitting = rest.length - oldestFitting;
  const block = 2 ** Math.ceil(Math.log2(Math.max(1, fitting * DROPPED_BLOCK_SHARE, Math.min(SMALL_WINDOW_BLOCK, fitting / 2))));
  const oldest = rest[oldestFitting];
  if (!oldest) return oldestFitting;
  const boundary = Math.ceil(exchangeOf(oldest, oldestFitting) / block) * block;
  const start = rest.findIndex((turn, index) => index >= oldestFitting && exchangeOf(turn, index) >= boundary);
  return start < 0 ? rest.length : start;
}

/**
 * The model's context for one turn, within `budgetTokens`, laid out for a provider's prompt cache
 * (docs/decisions/055): the system prompt's parts (the game's prompt, as much published world
 * content as its share allows, the game's always-on lore and the state's rules; then the story's
 * memory and its always-on lore), the opening exchange of the story, the newest turns that still
 * fit, and last the turn's message: the tracked state, the lore this turn's words fired (the
 * message being sent included), the author's note and the player's new message. Older turns go
 * first, a block at a time; lore has its own share, where lower priority goes first. A Check's
 * outcome goes in the turn's message, before the player's words (docs/decisions/061).
 */
export function buildModelContext({
  brief,
  conversation,
  message,
  budgetTokens,
  memory,
  trackedState,
  lore,
  check,
}: {
  brief: StoryBrief;
  conversation: StoredConversation;
  message: string;
  budgetTokens: number;
  memory?: ContextMemory;
  /** The game's stats and their values before this reply, when the game tracks any. */
  trackedState?: TrackedState;
  lore?: ContextLore;
  /** The Check this exchange was sent with, settled by the server's roll. */
  check?: StatCheck;
}): ModelContext {
  const heading = `# ${brief.title}`;
  const turns = groupTurns(conversation.messages);
  const loreInContext = loreForTurn({
    entries: lore?.entries ?? [],
    message,
    recentExchanges: turns.map(([player, ...replies]) => ({
      playerText: player?.content ?? "",
      reply: replies.map((reply) => reply.content).join("\n"),
    })),
    scanDepth: lore?.scanDepth ?? 0,
    budgetTokens: Math.floor(budgetTokens * LORE_SHARE),
  });
  const alwaysOnLore = {
    game: loreInContext.alwaysOn.filter(({ entry }) => entry.source === "game").map(({ text }) => text),
    story: loreInContext.alwaysOn.filter(({ entry }) => entry.source === "story").map(({ text }) => text),
  };
  // Each block of lore costs its introduction and tags besides its lines.
  const loreBlocks = [alwaysOnLore.game, alwaysOnLore.story, loreInContext.triggered].filter((lines) => lines.length > 0).length;
  const loreTokens = loreInContext.tokens + loreBlocks * (estimateTokens(STORY_LORE_INTRODUCTION) + 4 * SEPARATOR_TOKENS);
  const memoryLimit = Math.floor(budgetTokens * MEMORY_SHARE);
  // Measured as the model reads it: as data, where "‹" costs more than the "<" the player wrote.
  const remembered = {
    summary: truncateToTokens(asPromptData(memory?.summary.trim() ?? ""), memoryLimit),
    pinnedFacts: truncateToTokens(asPromptData(memory?.pinnedFacts.trim() ?? ""), memoryLimit),
  };
  const authorNote = truncateToTokens(asPromptData(memory?.authorNote.trim() ?? ""), memoryLimit);
  const finalMessage = renderTurnMessage(
    withAuthorNote(message, authorNote),
    trackedState,
    loreInContext.triggered.map(({ text }) => text),
    check,
  );
  const summaryTokens = remembered.summary
    ? estimateTokens(STORY_SO_FAR_INTRODUCTION) + estimateTokens(remembered.summary) + 4 * SEPARATOR_TOKENS
    : 0;
  const pinnedFactsTokens = remembered.pinnedFacts
    ? estimateTokens(PINNED_FACTS_INTRODUCTION) + estimateTokens(remembered.pinnedFacts) + 8 * SEPARATOR_TOKENS
    : 0;
  const memoryTokens = summaryTokens + pinnedFactsTokens;
  const trackedStats = trackedState?.stats ?? [];
  const stateRulesTokens = trackedStats.length > 0 ? estimateTokens(renderStateRules(trackedStats)) + SEPARATOR_TOKENS : 0;
  const fixedTokens =
    estimateMessageTokens(finalMessage) +
    stateRulesTokens +
    estimateTokens(heading) +
    estimateTokens(OMITTED_TURNS_NOTE) +
    // The system prompt's two parts are messages of their own, and cost what a message does.
    2 * MESSAGE_OVERHEAD_TOKENS +
    3 * SEPARATOR_TOKENS +
    memoryTokens +
    loreTokens;
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

  const [opening, ...rest] = turns;
  const keptOpening = opening !== undefined && used + messagesTokens(opening) <= budgetTokens;
  if (keptOpening) used += messagesTokens(opening);
  let oldestFitting = rest.length;
  for (const turn of rest.toReversed()) {
    const cost = messagesTokens(turn);
    if (used + cost > budgetTokens) break;
    oldestFitting -= 1;
    used += cost;
  }
  const windowFull = conversation.hasGap || oldestFitting > 0;
  const firstKept = windowFull ? blockStart(rest, oldestFitting) : 0;
  const turnsOmitted = windowFull || (opening !== undefined && !keptOpening);

  const history = [...(keptOpening ? opening : []), ...rest.slice(firstKept).flat()];
  const system = renderSystemPrompt({ title: brief.title, prompt }, sections, {
    turnsOmitted,
    memory: remembered,
    trackedStats,
    lore: alwaysOnLore,
  });
  const messages = [...history, { role: "user" as const, content: finalMessage }];
  const keptRest = rest.slice(firstKept);
  const firstKeptExchange = keptRest[0] ? exchangeOf(keptRest[0], firstKept) : undefined;
  const lastExchange = rest.length > 0 ? exchangeOf(rest.at(-1) ?? [], rest.length - 1) : undefined;
  // Exchanges after the opening and before the first kept one (all of them, when none was kept) were left out for room.
  const leftOutBefore = windowFull ? (firstKeptExchange ?? (lastExchange ?? 1) + 1) : 0;
  const sectionsOf = (entries: typeof loreInContext.alwaysOn): ContextSection[] =>
    entries.map(({ entry, tokens, firing }) => ({
      kind: "lore",
      source: entry.source,
      id: entry.id,
      title: entry.title,
      placement: firing?.foundIn ?? "always",
      ...(firing ? { key: firing.key, words: firing.words } : {}),
      tokens,
    }));
  const gameLore = loreInContext.alwaysOn.filter(({ entry }) => entry.source === "game");
  const storyLore = loreInContext.alwaysOn.filter(({ entry }) => entry.source === "story");
  const counted = (kind: "story_so_far" | "pinned_facts" | "state" | "author_note" | "check", tokens: number): ContextSection[] =>
    tokens > 0 ? [{ kind, tokens }] : [];
  const textTokens = (text: string) => (text ? estimateTokens(text) + SEPARATOR_TOKENS : 0);
  const manifest: ContextManifest = {
    sections: [
      // The game's part with what frames it: the world's introduction, the system messages' own cost.
      {
        kind: "instructions",
        tokens:
          estimateTokens(heading) +
          estimateTokens(prompt) +
          stateRulesTokens +
          (sections.length > 0 ? estimateTokens(WORLD_INTRODUCTION) + SEPARATOR_TOKENS : 0) +
          2 * MESSAGE_OVERHEAD_TOKENS,
      },
      ...sections.map((section) => ({ kind: "world" as const, title: section.title, tokens: estimateTokens(renderWorldSection(section)) })),
      ...sectionsOf(gameLore),
      ...counted("story_so_far", summaryTokens),
      ...counted("pinned_facts", pinnedFactsTokens),
      ...sectionsOf(storyLore),
      {
        kind: "history",
        opening: keptOpening,
        kept: firstKeptExchange !== undefined && lastExchange !== undefined ? { from: firstKeptExchange, to: lastExchange } : null,
        leftOut: leftOutBefore > 2 ? { from: 2, to: leftOutBefore - 1 } : null,
        tokens: messagesTokens(history),
      },
      ...counted("state", textTokens(trackedState && trackedStats.length > 0 ? renderTrackedState(trackedState) : "")),
      ...sectionsOf(loreInContext.triggered),
      ...counted("check", textTokens(check ? renderCheck(check) : "")),
      ...counted("author_note", textTokens(authorNote)),
      // As the model reads it (withAuthorNote makes it data).
      { kind: "message", tokens: estimateMessageTokens(asPromptData(message)) },
    ],
    loreCut: loreInContext.cut.map(({ entry }) => ({ source: entry.source, id: entry.id, title: entry.title })),
    budgetTokens,
  };
  return { system, messages, keptTurns: rest.length - firstKept, lore: loreInContext, manifest };
}
