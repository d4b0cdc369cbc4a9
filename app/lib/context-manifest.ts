import type { StatCheck } from "./stat-checks.ts";

/**
 * What the Game Master saw on one call (issue 35, docs/decisions/062): every part of the context in
 * the order the model read it, each by reference and token count — never a copy of its text. Made
 * by buildModelContext, stored with the call's row in model_calls (record_model_call.sql), read by
 * GET /api/stories/{id}/replies/{replyId}/versions/{version}/context and shown by the play screen.
 */
export type ContextSection =
  /** The game's heading, prompt and (in a game with stats) the state's rules. */
  | { kind: "instructions"; tokens: number }
  | { kind: "world"; title: string; tokens: number }
  | {
      kind: "lore";
      source: "game" | "story";
      /**
       * The entry's row in game_lore_entries or story_lore_entries, which names it whatever it is
       * renamed to; the title is the one it had then. Manifests written before ids were kept have none.
       */
      id?: string;
      title: string;
      /** Always on, or fired this turn by `key` on `words` (as written) in the message or earlier exchanges. */
      placement: "always" | "message" | "recent exchanges";
      key?: string;
      words?: string[];
      tokens: number;
    }
  | { kind: "story_so_far"; tokens: number }
  | { kind: "pinned_facts"; tokens: number }
  | {
      kind: "history";
      /** Whether the story's opening exchange was kept. */
      opening: boolean;
      /** The newest exchanges kept, first to last (none: null). */
      kept: { from: number; to: number } | null;
      /** Exchanges between the opening and the kept ones, left out for room (none: null). */
      leftOut: { from: number; to: number } | null;
      tokens: number;
    }
  | { kind: "state"; tokens: number }
  | { kind: "author_note"; tokens: number }
  | { kind: "check"; tokens: number }
  | { kind: "message"; tokens: number };

export type ContextSectionKind = ContextSection["kind"];

export interface ContextManifest {
  sections: ContextSection[];
  /** Lore that would have entered but did not fit its share. */
  loreCut: { source: "game" | "story"; id?: string; title: string }[];
  /** AI_CONTEXT_TOKENS when the call was made. */
  budgetTokens: number;
}

/** One call to the model, as it was recorded: what it used and cost. */
export interface ContextCall {
  kind: string;
  provider: string;
  model: string;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  estimated: boolean;
  /** How the call ended (ModelCallOutcome): a Continue that failed is a call all the same. */
  outcome: string;
  /** Null: the model had no price. */
  cost: number | null;
  currency: string | null;
  createdAt: string;
}

/**
 * What GET …/context answers: every call that wrote the reply's version, first to last (the reply,
 * then each Continue), each with its own manifest, usage and cost; and what the viewer may read.
 */
export interface ContextView {
  calls: { manifest: ContextManifest; call: ContextCall }[];
  /** The game's instructions as they are now, to its admins only; players see their count. */
  instructions: string | null;
  check: StatCheck | null;
}

export function manifestTokens(manifest: ContextManifest) {
  return manifest.sections.reduce((sum, section) => sum + section.tokens, 0);
}
