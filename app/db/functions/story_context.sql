-- What a model's context may draw on for a turn about exchange p_before: the opening exchange, and
-- the newest exchanges before p_before — at most p_max_exchanges, and only those the context could
-- still hold after the newer ones (fewer than p_max_characters in the newer messages). Each as one
-- JSON array of [exchange, role, content], in story order.
--
-- One query measures the messages in reach, newest first, by their stored length (the characters
-- column: a long reply left out is never read), and keeps those the newer ones leave room for
-- (docs/decisions/037). It reads by exchange range from the index on (story, exchange, role):
-- never a sort of the story, and no PL/pgSQL loop over rows (a few microseconds a row, which a
-- story of short exchanges paid on every row in reach). A branch's exchanges it shares with the
-- story it came from are read there (story_messages.sql, docs/decisions/063).
CREATE OR REPLACE FUNCTION story_context(p_story_id uuid, p_before integer, p_max_exchanges integer, p_max_characters integer)
RETURNS TABLE (opening text, recent text) AS $$
BEGIN
  IF p_before <= 1 THEN
    RETURN QUERY SELECT '[]'::text, '[]'::text;
    RETURN;
  END IF;
  RETURN QUERY SELECT
    (SELECT coalesce(json_agg(json_build_array(m.exchange, m.role, m.content) ORDER BY m.role DESC), '[]')::text
      FROM story_messages(p_story_id, 1, 1) AS m),
    (SELECT coalesce(json_agg(json_build_array(kept.exchange, kept.role, kept.content) ORDER BY kept.exchange, kept.role DESC), '[]')::text
      FROM (
        SELECT m.exchange, m.role, m.content,
          coalesce(sum(m.characters) OVER (ORDER BY m.exchange DESC, m.role ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS newer
        FROM story_messages(p_story_id, greatest(1, p_before - p_max_exchanges), p_before - 1) AS m
      ) AS kept
      WHERE kept.newer < p_max_characters);
END;
$$ LANGUAGE plpgsql STABLE;
