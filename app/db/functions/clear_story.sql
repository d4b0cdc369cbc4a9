-- Start Over: the story's messages are deleted (docs/spec.md §8) and it begins again. Not while
-- other stories branched from it share its exchanges ('branched'); a branch starting over keeps
-- nothing of the story it came from and stands alone (docs/decisions/063).
CREATE OR REPLACE FUNCTION clear_story(p_story_id uuid, p_user_id text)
RETURNS TABLE (outcome text, deleted integer, revision integer) AS $$
#variable_conflict use_column
DECLARE
  locked record;
  story stories%ROWTYPE;
  v_deleted integer;
  v_revision integer;
BEGIN
  SELECT * INTO locked FROM lock_idle_story(p_story_id, p_user_id);
  IF locked.outcome IS NOT NULL THEN
    RETURN QUERY SELECT locked.outcome, 0, (locked.story).revision;
    RETURN;
  END IF;
  story := locked.story;
  IF EXISTS (SELECT 1 FROM stories WHERE parent_story_id = p_story_id) THEN
    RETURN QUERY SELECT 'branched'::text, 0, story.revision;
    RETURN;
  END IF;
  SELECT count(*) INTO v_deleted FROM story_messages(p_story_id, 1, story.exchanges);
  DELETE FROM game_messages WHERE story_id = p_story_id;
  UPDATE stories SET exchanges = 0, parent_story_id = NULL, fork_exchange = 0, revision = revision + 1, updated_at = now() WHERE id = p_story_id RETURNING revision INTO v_revision;
  PERFORM announce_story_change(p_user_id, p_story_id, v_revision);
  RETURN QUERY SELECT 'cleared'::text, v_deleted, v_revision;
END;
$$ LANGUAGE plpgsql;
