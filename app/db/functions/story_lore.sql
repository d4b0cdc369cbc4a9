-- The lorebooks a turn of this story matches against (docs/decisions/054), read by begin_turn.sql
-- in the statement that begins the turn: the game's enabled entries, then the story's, each in the
-- order they were written, and how many exchanges the game's keys are looked for in.
-- {"scanDepth": n, "entries": [{"source", "id", "title", "keys", "content", "alwaysOn", "priority", "enabled"}]}
-- (the id names the entry in what the Game Master saw, docs/decisions/062, whatever it is renamed to)
CREATE OR REPLACE FUNCTION story_lore(p_story_id uuid, p_game_slug text) RETURNS jsonb AS $$
  SELECT jsonb_build_object(
    'scanDepth', (SELECT g.lore_scan_depth FROM games AS g WHERE g.slug = p_game_slug),
    'entries', coalesce((
      SELECT jsonb_agg(jsonb_build_object('source', e.source, 'id', e.id, 'title', e.title, 'keys', e.keys, 'content', e.content,
          'alwaysOn', e.always_on, 'priority', e.priority, 'enabled', e.enabled) ORDER BY e.source_order, e.created_at, e.id)
        FROM (
          SELECT 'game' AS source, 0 AS source_order, l.id, l.title, l.keys, l.content, l.always_on, l.priority, l.enabled, l.created_at
            FROM game_lore_entries AS l WHERE l.game_slug = p_game_slug AND l.enabled
          UNION ALL
          SELECT 'story', 1, l.id, l.title, l.keys, l.content, l.always_on, l.priority, l.enabled, l.created_at
            FROM story_lore_entries AS l WHERE l.story_id = p_story_id AND l.enabled
        ) AS e
    ), '[]'::jsonb)
  );
$$ LANGUAGE sql STABLE;
