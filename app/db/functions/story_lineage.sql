-- Where a story's live exchanges are (docs/decisions/063): a story branched from another shares
-- the parent's exchanges up to its fork point without copying them. One row per story of the
-- chain that holds some of them: its own exchanges after after_exchange up to through_exchange
-- (the story itself, to the end; its parent, to the fork; the grandparent, to the parent's
-- fork…). A story that is no branch is one row, (itself, 0, the largest integer). Every read of a
-- story's exchanges goes through here (story_messages.sql, story_states.sql), each range from the
-- index on (story, exchange, role).
CREATE OR REPLACE FUNCTION story_lineage(p_story_id uuid)
RETURNS TABLE (story_id uuid, after_exchange integer, through_exchange integer) AS $$
  WITH RECURSIVE chain AS (
    SELECT s.id, s.parent_story_id, s.fork_exchange, 2147483647 AS through_exchange, 1 AS depth
      FROM stories AS s WHERE s.id = p_story_id
    UNION ALL
    SELECT parent.id, parent.parent_story_id, parent.fork_exchange, least(child.through_exchange, child.fork_exchange), child.depth + 1
      FROM chain AS child JOIN stories AS parent ON parent.id = child.parent_story_id
      WHERE child.fork_exchange > 0
  )
  SELECT chain.id, chain.fork_exchange, chain.through_exchange FROM chain WHERE chain.through_exchange > chain.fork_exchange
$$ LANGUAGE sql STABLE;
