-- The newest p_count states stored with a story's replies up to exchange p_through, newest first,
-- across the stories a branch shares its exchanges with (story_lineage.sql): each story of the
-- chain read backwards by the index of states, at most p_count rows each, never the whole story.
CREATE OR REPLACE FUNCTION story_states(p_story_id uuid, p_through integer, p_count integer)
RETURNS TABLE (exchange integer, state jsonb) AS $$
  SELECT newest.exchange, newest.state FROM story_lineage(p_story_id) AS lineage
    CROSS JOIN LATERAL (
      SELECT m.exchange, m.state FROM game_messages AS m
        WHERE m.story_id = lineage.story_id AND m.removed_at IS NULL AND m.state IS NOT NULL AND m.role = 'assistant'
          AND m.exchange > lineage.after_exchange AND m.exchange <= least(lineage.through_exchange, p_through)
        ORDER BY m.exchange DESC LIMIT p_count
    ) AS newest
  ORDER BY newest.exchange DESC LIMIT p_count
$$ LANGUAGE sql STABLE;
