-- One model call recorded (issue 34, docs/decisions/056), priced by model_call_cost.sql as it is
-- written. Called by the statement that finishes what the call was for (finish_turn.sql, a story's
-- summary), never in a commit of its own on a turn's way. p_call is the call as
-- app/domain/game-master/model-calls.server.ts describes it (ModelCall): kind, provider, model,
-- inputTokens, cachedInputTokens, cacheWriteTokens, outputTokens, reasoningTokens, estimated,
-- firstTokenMs, totalMs, outcome; and for a turn's call, replyId and replyVersion (the reply it
-- wrote) and context (what it was sent, as references and counts: docs/decisions/062).
CREATE OR REPLACE FUNCTION record_model_call(p_story_id uuid, p_game_slug text, p_user_id text, p_call jsonb)
RETURNS void AS $$
  INSERT INTO model_calls (kind, story_id, game_slug, user_id, provider, model, input_tokens, cached_input_tokens,
      cache_write_tokens, output_tokens, reasoning_tokens, estimated, first_token_ms, total_ms, outcome, cost, currency,
      reply_id, reply_version, context)
  SELECT c.kind, p_story_id, p_game_slug, p_user_id, c.provider, c.model, c."inputTokens", c."cachedInputTokens",
      c."cacheWriteTokens", c."outputTokens", c."reasoningTokens", c.estimated, c."firstTokenMs", c."totalMs", c.outcome,
      price.cost, price.currency, c."replyId", c."replyVersion", c.context
  FROM jsonb_to_record(p_call) AS c(kind text, provider text, model text, "inputTokens" integer, "cachedInputTokens" integer,
      "cacheWriteTokens" integer, "outputTokens" integer, "reasoningTokens" integer, estimated boolean, "firstTokenMs" integer,
      "totalMs" integer, outcome text, "replyId" bigint, "replyVersion" integer, context jsonb)
  LEFT JOIN LATERAL model_call_cost(c.provider, c.model, c."inputTokens", c."cachedInputTokens", c."cacheWriteTokens", c."outputTokens")
    AS price ON true;
$$ LANGUAGE sql;
