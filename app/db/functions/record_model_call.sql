-- One model call recorded (issue 34, docs/decisions/056), priced by model_call_cost.sql as it is
-- written, and added to its day's totals (model_spend_days, docs/decisions/060) in the same
-- statement, under the part of the spend it belongs to (SPEND_PARTS in app/lib/model-calls.ts: a
-- summary's, an advisory rating's, else a turn's). Called by the statement that finishes what the
-- call was for (finish_turn.sql, a story's summary, a world's advisory rating), never in a commit of its own on a turn's way. p_call is the call as
-- app/domain/game-master/model-calls.server.ts describes it (ModelCall): kind, provider, model,
-- inputTokens, cachedInputTokens, cacheWriteTokens, outputTokens, reasoningTokens, estimated,
-- firstTokenMs, totalMs, outcome; and for a turn's call, replyId and replyVersion (the reply it
-- wrote) and context (what it was sent, as references and counts: docs/decisions/062). The day's
-- row is the connection's shard of it: calls finishing at once on other connections add to rows
-- of their own, never waiting on this one's lock. PL/pgSQL, so each connection plans the statement
-- once (an SQL function's body is planned on every call).
CREATE OR REPLACE FUNCTION record_model_call(p_story_id uuid, p_game_slug text, p_user_id text, p_call jsonb)
RETURNS void AS $$
BEGIN
  WITH recorded AS (
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
      AS price ON true
    RETURNING *
  )
  INSERT INTO model_spend_days AS totals (day, game_slug, provider, model, part, shard, calls, input_tokens, cached_input_tokens,
      output_tokens, spend, unpriced_calls)
  SELECT (r.created_at AT TIME ZONE 'UTC')::date, r.game_slug, r.provider, r.model,
      CASE r.kind WHEN 'summary' THEN 'summaries' WHEN 'advisory' THEN 'advisories' ELSE 'turns' END, pg_backend_pid() % 1024, 1,
      r.input_tokens, r.cached_input_tokens, r.output_tokens, CASE WHEN r.currency = 'USD' THEN r.cost ELSE 0 END,
      CASE WHEN r.cost IS NULL THEN 1 ELSE 0 END
  FROM recorded AS r
  ON CONFLICT (day, game_slug, provider, model, part, shard) DO UPDATE SET
    calls = totals.calls + 1,
    input_tokens = totals.input_tokens + excluded.input_tokens,
    cached_input_tokens = totals.cached_input_tokens + excluded.cached_input_tokens,
    output_tokens = totals.output_tokens + excluded.output_tokens,
    spend = totals.spend + excluded.spend,
    unpriced_calls = totals.unpriced_calls + excluded.unpriced_calls;
END;
$$ LANGUAGE plpgsql;
