-- A story's live messages of exchanges p_first…p_last, wherever they are stored: its own, or a
-- parent's it shares as a branch (story_lineage.sql). Unordered: callers order by exchange and
-- role. Written to be inlined where it is called, so each story of the chain is read by its range
-- of the index on (story, exchange, role).
CREATE OR REPLACE FUNCTION story_messages(p_story_id uuid, p_first integer, p_last integer)
RETURNS SETOF game_messages AS $$
  SELECT m.* FROM story_lineage(p_story_id) AS lineage
    JOIN game_messages AS m ON m.story_id = lineage.story_id
  WHERE m.removed_at IS NULL
    AND m.exchange > lineage.after_exchange AND m.exchange <= lineage.through_exchange
    AND m.exchange >= p_first AND m.exchange <= p_last
$$ LANGUAGE sql STABLE;
