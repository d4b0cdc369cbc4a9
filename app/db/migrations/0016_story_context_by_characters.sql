ALTER TABLE "game_messages" ADD COLUMN "characters" integer GENERATED ALWAYS AS (length("content")) STORED NOT NULL;--> statement-breakpoint
-- story_context (migration 0011) without its loop (issue 18). The loop read the newest messages
-- one by one and stopped where the character budget was spent: a few microseconds of PL/pgSQL a
-- row, which a story of short exchanges paid on every one of the up to 2 × p_max_exchanges rows
-- in reach (1.9 ms of a turn's 5 in the bench). Now one query measures the messages in reach,
-- newest first, by their stored length (the characters column: a long reply left out is never
-- read), and keeps those the newer ones leave room for — the same messages, in the same order.
CREATE OR REPLACE FUNCTION story_context(p_story_id uuid, p_before integer, p_max_exchanges integer, p_max_characters integer)
RETURNS TABLE (opening text, recent text) AS $$
BEGIN
  IF p_before <= 1 THEN
    RETURN QUERY SELECT '[]'::text, '[]'::text;
    RETURN;
  END IF;
  RETURN QUERY SELECT
    (SELECT coalesce(json_agg(json_build_array(m.exchange, m.role, m.content) ORDER BY m.role DESC), '[]')::text
      FROM game_messages AS m WHERE m.story_id = p_story_id AND m.removed_at IS NULL AND m.exchange = 1),
    (SELECT coalesce(json_agg(json_build_array(kept.exchange, kept.role, kept.content) ORDER BY kept.exchange, kept.role DESC), '[]')::text
      FROM (
        SELECT m.exchange, m.role, m.content,
          coalesce(sum(m.characters) OVER (ORDER BY m.exchange DESC, m.role ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS newer
        FROM game_messages AS m
        WHERE m.story_id = p_story_id AND m.removed_at IS NULL
          AND m.exchange >= greatest(1, p_before - p_max_exchanges) AND m.exchange < p_before
      ) AS kept
      WHERE kept.newer < p_max_characters);
END;
$$ LANGUAGE plpgsql STABLE;
