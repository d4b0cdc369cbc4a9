-- The lorebooks a turn of this story matches against (docs/decisions/054), read by begin_turn.sql
-- in the statement that begins the turn: the game's enabled entries (game_lore.sql), then the
-- story's, each in the order they were written, and how many exchanges the game's keys are looked
-- for in. A story that plays a published version of a world (p_world_version, docs/decisions/065)
-- reads that version's entries and scan depth as world_versions keeps them; NULL, the game's own.
-- {"scanDepth": n, "entries": [{"source", "id", "title", "keys", "content", "alwaysOn", "priority", "enabled"}]}
-- (the id names the entry in what the Game Master saw, docs/decisions/062, whatever it is renamed
-- to; a version published before ids were kept has none). PL/pgSQL, so each connection plans the
-- query once: an SQL function that is not inlined (one with a FROM that answers a value) is planned
-- on every call, and every turn calls this one.
CREATE OR REPLACE FUNCTION story_lore(p_story_id uuid, p_game_slug text, p_world_version integer) RETURNS jsonb AS $$
BEGIN
  RETURN (SELECT jsonb_build_object(
    'scanDepth', coalesce((v.fields ->> 'loreScanDepth')::integer, g.lore_scan_depth),
    -- (coalesce reads the live entries only for a story without a version.)
    'entries', coalesce(v.lore, game_lore(p_game_slug)) || coalesce((
      SELECT jsonb_agg(jsonb_build_object('source', 'story', 'id', l.id, 'title', l.title, 'keys', l.keys, 'content', l.content,
          'alwaysOn', l.always_on, 'priority', l.priority, 'enabled', l.enabled) ORDER BY l.created_at, l.id)
        FROM story_lore_entries AS l WHERE l.story_id = p_story_id AND l.enabled
    ), '[]'::jsonb)
  )
  FROM games AS g LEFT JOIN world_versions AS v ON v.game_id = g.id AND v.version = p_world_version
  WHERE g.slug = p_game_slug);
END;
$$ LANGUAGE plpgsql STABLE;
