-- A story's live messages of exchanges p_first…p_last, wherever they are stored: its own, or a
-- parent's it shares as a branch (story_lineage.sql). Unordered: callers order by exchange and
-- role. Written to be inlined where it is called. Each story of the chain is read by its own range
-- of the index on (story, exchange, role), whatever the table's statistics say: the lateral
-- subquery, kept apart by OFFSET 0, is run for each story of the chain with its id bound. Joined
-- plainly, a planner with no statistics (PGlite, which never analyzes, or a table that grew since
-- it was last analyzed) read the exchange range of every story and hashed it on the story's id: a
-- turn read every player's messages.
CREATE OR REPLACE FUNCTION story_messages(p_story_id uuid, p_first integer, p_last integer)
RETURNS SETOF game_messages AS $$
  SELECT own.* FROM story_lineage(p_story_id) AS lineage
    CROSS JOIN LATERAL (
      SELECT * FROM game_messages AS m
      WHERE m.story_id = lineage.story_id AND m.removed_at IS NULL
        AND m.exchange > lineage.after_exchange AND m.exchange <= lineage.through_exchange
        AND m.exchange >= p_first AND m.exchange <= p_last
      OFFSET 0
    ) AS own
$$ LANGUAGE sql STABLE;
