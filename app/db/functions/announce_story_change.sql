-- Every change of a story is one call of a function of this folder (app/domain/stories.server.ts):
-- one round trip, atomic, and serialised per story by a lock on its row. Each bumps the story's
-- revision and announces it here, on `story_changed` ({"userId","storyId","gameSlug","revision"}),
-- delivered at commit, so every tab of the player on every instance can catch up
-- (app/domain/realtime.server.ts). The game lets a tab whose story has not begun yet follow the
-- one another tab begins in that game.
CREATE OR REPLACE FUNCTION announce_story_change(p_user_id text, p_story_id uuid, p_revision integer) RETURNS void AS $$
BEGIN
  PERFORM pg_notify('story_changed', json_build_object('userId', p_user_id, 'storyId', p_story_id,
    'gameSlug', (SELECT game_slug FROM stories WHERE id = p_story_id), 'revision', p_revision)::text);
END;
$$ LANGUAGE plpgsql;
