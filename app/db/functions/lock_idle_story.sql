-- A story control's first step (choose_reply_version.sql, undo_story_exchange.sql,
-- clear_story.sql): the player's story locked until the end of the transaction, with why it may
-- not change, if it may not: 'missing' (no such story of this player) or 'busy' (a turn is in
-- flight, begin_turn.sql); else outcome is NULL.
CREATE OR REPLACE FUNCTION lock_idle_story(p_story_id uuid, p_user_id text, OUT outcome text, OUT story stories)
AS $$
BEGIN
  SELECT * INTO story FROM stories AS s WHERE s.id = p_story_id AND s.user_id = p_user_id FOR UPDATE;
  IF NOT FOUND THEN
    outcome := 'missing';
  ELSIF story.active_turn_id IS NOT NULL THEN
    outcome := 'busy';
  END IF;
END;
$$ LANGUAGE plpgsql;
