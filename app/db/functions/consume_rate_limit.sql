-- One attempt counted under a rate limit's key, in a fixed window of p_window_ms that starts anew
-- once the stored one has passed: the same upsert as consumeRateLimit's
-- (app/domain/rate-limit.server.ts), for begin_turn.sql to count in its own statement. PL/pgSQL
-- for the reason story_lore.sql is: an SQL function's INSERT is planned on every call.
CREATE OR REPLACE FUNCTION consume_rate_limit(p_key text, p_now bigint, p_window_ms integer)
RETURNS TABLE (count integer, window_started_at bigint) AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY INSERT INTO rate_limit AS r (id, key, count, last_request) VALUES (gen_random_uuid()::text, p_key, 1, p_now)
  ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN r.last_request <= p_now - p_window_ms THEN 1 ELSE r.count + 1 END,
    last_request = CASE WHEN r.last_request <= p_now - p_window_ms THEN p_now ELSE r.last_request END
  RETURNING r.count, r.last_request;
END;
$$ LANGUAGE plpgsql;
