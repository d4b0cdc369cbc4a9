import { sql, type SQL } from "drizzle-orm";
import { storyReadLimits } from "#app/domain/game-master/tokens.server.ts";

/**
 * A turn's two statements as the database sees them, for what measures or inspects them without the
 * site around them (turn-sql.bench.ts, turn-function-plans.test.ts): begin_turn as turn.server.ts
 * calls it for a signed-in player's new message, at the site's default context (8,000 tokens) and
 * limits too high to count, and finish_turn as reply-writer.server.ts stores the reply with its
 * model call recorded and the creators' earnings at their defaults. Positional ($1…), so a client
 * can prepare them by name.
 */
export interface Statement {
  text: string;
  values: unknown[];
}

/** What a turn reads of its story at the site's default context (AI_CONTEXT_TOKENS 8,000): the relay reads as much. */
export const DEFAULT_WINDOW = storyReadLimits(8000);

export function beginTurnStatement(turn: { userId: string; gameSlug: string; storyId: string; turnId: string; message: string }): Statement {
  return {
    text: `SELECT outcome, reply_id FROM begin_turn($1, NULL, NULL, false, $2, $3::uuid, $4::uuid, 'send', NULL, $5, 1, 60,
      $6::bigint, 60000, 'chat', 1000000, 'failed-replies', 10, 600000, 0, 'test', 100, 100, 100, 100, $7::int, $8::int, 10)`,
    values: [
      turn.userId,
      turn.gameSlug,
      turn.storyId,
      turn.turnId,
      turn.message,
      Date.now(),
      DEFAULT_WINDOW.maxExchanges,
      DEFAULT_WINDOW.maxCharacters,
    ],
  };
}

export function finishTurnStatement(turn: { storyId: string; turnId: string; reply: string; replyId: number }): Statement {
  const call = {
    kind: "send",
    provider: "openai-compatible",
    model: "test-model",
    inputTokens: 2400,
    cachedInputTokens: 1800,
    cacheWriteTokens: 0,
    outputTokens: 100,
    reasoningTokens: 0,
    estimated: false,
    firstTokenMs: 2,
    totalMs: 5,
    outcome: "ok",
    replyId: turn.replyId,
    replyVersion: 1,
    context: { sections: [], loreCut: [], budgetTokens: 8000 },
  };
  return {
    text: "SELECT outcome FROM finish_turn($1::uuid, $2::uuid, $3, NULL, NULL, 'openai-compatible', 'test-model', $4::jsonb, 20, 50)",
    values: [turn.storyId, turn.turnId, turn.reply, JSON.stringify(call)],
  };
}

/** The statement as Drizzle's SQL, each $n bound to its value, to run through the app's connection. */
export function drizzleSql({ text, values }: Statement): SQL {
  const parts = text.split(/\$(\d+)/);
  return sql.join(
    parts.map((part, index) => (index % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1]}`)),
    sql.raw(""),
  );
}
