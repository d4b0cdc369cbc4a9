import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart, LanguageModelV4Usage } from "@ai-sdk/provider";
import { parseSystemPrompt } from "../story-brief.server.ts";
import { type TurnCheck } from "../turn-message.server.ts";
import { estimateTokens, truncateToTokens } from "../tokens.server.ts";
import { narrateTurn } from "./narrator.server.ts";
import { OUTCOMES } from "./phrases.server.ts";
import { promptText, readPrompt } from "./prompt.server.ts";
import { escapeRegExp } from "./text.server.ts";
import { readWorld, type World } from "./world.server.ts";

/**
 * The embedded Game Master: a language model that needs no network. It reads the same prompt a
 * real model gets (the game's prompt and world content in the system message, the story as
 * messages), narrates deterministically, and streams its reply word by word.
 */

/** Worlds read from recent system prompts: a game's prompt is the same turn after turn, so it is read once. */
const worlds = new Map<string, World>();
const WORLDS_KEPT = 32;

function worldOf(system: string): World {
  let world = worlds.get(system);
  if (!world) {
    world = readWorld(parseSystemPrompt(system));
    if (worlds.size >= WORLDS_KEPT) worlds.delete(worlds.keys().next().value ?? "");
    worlds.set(system, world);
  }
  return world;
}

/** Each outcome phrase as its filled sentences read: its slots hold the game's names. */
const OUTCOME_PATTERNS = OUTCOMES.map(
  (template) =>
    new RegExp(
      template
        .split(/\{[^}]+\}/)
        .map(escapeRegExp)
        .join("[^.;]+?"),
    ),
);

/** The narration's own outcome ("It works, mostly; Madam Lin is not pleased."), as filled in this reply. */
export function outcomeIn(narration: string) {
  return OUTCOME_PATTERNS.map((pattern) => pattern.exec(narration)?.[0]).find((found) => found !== undefined);
}

/**
 * A Check's outcome, told first: a failed check reads as failure, a passed one as success. The
 * narration's own outcome (a sentence of OUTCOMES, which may say "It works") gives way to it.
 */
function withCheckOutcome(narration: string, check: TurnCheck | undefined) {
  if (!check) return narration;
  const told = check.success
    ? `Your ${check.stat} carries you through (${check.total} against ${check.target}): it works.`
    : `Your ${check.stat} fails you (${check.total} against ${check.target}): it does not work.`;
  const ownOutcome = outcomeIn(narration);
  const rest = ownOutcome ? narration.replace(` ${ownOutcome}`, "").replace(ownOutcome, "") : narration;
  return `${told}\n\n${rest}`;
}

function compose(options: LanguageModelV4CallOptions) {
  const read = readPrompt(options.prompt);
  const { extending } = read;
  const narration = narrateTurn({
    world: worldOf(read.system),
    action: read.action,
    previousActions: read.previousActions,
    previousReplies: read.previousReplies,
    variant: options.seed,
    extending,
    trackedState: read.trackedState,
    lore: read.lore,
    memory: { pinnedFacts: read.pinnedFacts, storySoFar: read.storySoFar },
  });
  const text = extending ? `\n\n${narration}` : withCheckOutcome(narration, read.check);

  const cap = options.maxOutputTokens;
  const capped = cap !== undefined && estimateTokens(text) > cap;
  return {
    text: capped ? truncateToTokens(text, cap) : text,
    truncated: capped,
    inputTokens: estimateTokens(promptText(options.prompt)),
  };
}

function usage(inputTokens: number, text: string): LanguageModelV4Usage {
  const outputTokens = estimateTokens(text);
  return {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: undefined },
  };
}

function pause(milliseconds: number, signal: AbortSignal | undefined) {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, milliseconds);
    function onAbort() {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    }
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export function createOfflineStoryteller({ wordDelayMs }: { wordDelayMs: number }): LanguageModelV4 {
  return {
    specificationVersion: "v4",
    provider: "offline",
    modelId: "offline-storyteller",
    supportedUrls: {},

    async doGenerate(options) {
      const { text, truncated, inputTokens } = compose(options);
      return {
        content: [{ type: "text", text }],
        finishReason: { unified: truncated ? "length" : "stop", raw: truncated ? "length" : "stop" },
        usage: usage(inputTokens, text),
        warnings: [],
      };
    },

    async doStream(options) {
      const { text, truncated, inputTokens } = compose(options);
      // Words with the spaces after them, so the pieces join back into the exact text.
      const words = text.match(/\s*\S+\s*/g) ?? [];
      const signal = options.abortSignal;
      let index = 0;
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          controller.enqueue({ type: "stream-start", warnings: [] });
          controller.enqueue({ type: "text-start", id: "reply" });
        },
        async pull(controller) {
          if (index > 0 && wordDelayMs > 0) {
            try {
              await pause(wordDelayMs, signal);
            } catch (error) {
              controller.error(error);
              return;
            }
          } else if (signal?.aborted) {
            controller.error(signal.reason);
            return;
          }
          const word = words[index];
          if (word !== undefined) {
            controller.enqueue({ type: "text-delta", id: "reply", delta: word });
            index += 1;
            return;
          }
          controller.enqueue({ type: "text-end", id: "reply" });
          controller.enqueue({
            type: "finish",
            usage: usage(inputTokens, text),
            finishReason: { unified: truncated ? "length" : "stop", raw: truncated ? "length" : "stop" },
          });
          controller.close();
        },
      });
      return { stream };
    },
  };
}
