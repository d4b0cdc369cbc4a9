-- A game's enabled lorebook entries as a turn matches against them (story_lore.sql), in the order
-- they were written: read live for the game as it is, and kept whole in world_versions.lore when a
-- world is published (docs/decisions/065), so a story of that version reads them as they were.
-- [{"source": "game", "id", "title", "keys", "content", "alwaysOn", "priority", "enabled"}]
-- PL/pgSQL for the reason story_lore.sql is: its query planned once a connection, not once a call.
CREATE OR REPLACE FUNCTION game_lore(p_game_slug text) RETURNS jsonb AS $$
BEGIN
  RETURN (SELECT coalesce(jsonb_agg(jsonb_build_object('source', 'game', 'id', l.id, 'title', l.title, 'keys', l.keys, 'content', l.content,
      'alwaysOn', l.always_on, 'priority', l.priority, 'enabled', l.enabled) ORDER BY l.created_at, l.id), '[]'::jsonb)
    FROM game_lore_entries AS l WHERE l.game_slug = p_game_slug AND l.enabled);
END;
$$ LANGUAGE plpgsql STABLE;
