-- Undo: the latest exchange (p_exchange, as the player saw it) leaves the story. It is kept as
-- 'undone', and nothing is refunded. In a branch, the exchange it shares with the story it came
-- from is first copied into it (unshare_latest_exchange.sql): Undo at the fork point moves the
-- fork point back, and never changes the other story (docs/decisions/063).
CREATE OR REPLACE FUNCTION undo_story_exchange(p_story_id uuid, p_user_id text, p_exchange integer)
RETURNS TABLE (outcome text, revision integer) AS $$
#variable_conflict use_column
DECLARE
  locked record;
  story stories%ROWTYPE;
  v_revision integer;
BEGIN
  SELECT * INTO locked FROM lock_idle_story(p_story_id, p_user_id);
  IF locked.outcome IS NOT NULL THEN
    RETURN QUERY SELECT locked.outcome, (locked.story).revision;
    RETURN;
  END IF;
  story := locked.story;
  IF story.exchanges = 0 OR p_exchange IS DISTINCT FROM story.exchanges THEN
    RETURN QUERY SELECT 'stale'::text, story.revision;
    RETURN;
  END IF;
  PERFORM unshare_latest_exchange(p_story_id);
  UPDATE game_messages SET removed_at = now(), removal = 'undone'
    WHERE story_id = p_story_id AND exchange = story.exchanges AND removed_at IS NULL;
  UPDATE stories SET exchanges = exchanges - 1, revision = revision + 1, updated_at = now()
    WHERE id = p_story_id RETURNING revision INTO v_revision;
  PERFORM announce_story_change(p_user_id, p_story_id, v_revision);
  RETURN QUERY SELECT 'undone'::text, v_revision;
END;
$$ LANGUAGE plpgsql;
