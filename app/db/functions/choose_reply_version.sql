-- Previous / Next version: the latest reply shows version p_version, with that version's state
-- (app/lib/tracked-stats.ts), and the story continues from it.
CREATE OR REPLACE FUNCTION choose_reply_version(p_story_id uuid, p_user_id text, p_exchange integer, p_version integer)
RETURNS TABLE (outcome text, revision integer) AS $$
#variable_conflict use_column
DECLARE
  locked record;
  story stories%ROWTYPE;
  reply game_messages%ROWTYPE;
  v_revision integer;
BEGIN
  SELECT * INTO locked FROM lock_idle_story(p_story_id, p_user_id);
  IF locked.outcome IS NOT NULL THEN
    RETURN QUERY SELECT locked.outcome, (locked.story).revision;
    RETURN;
  END IF;
  story := locked.story;
  IF p_exchange = story.exchanges THEN
    PERFORM unshare_latest_exchange(p_story_id);
  END IF;
  SELECT * INTO reply FROM game_messages
    WHERE story_id = p_story_id AND exchange = story.exchanges AND role = 'assistant' AND removed_at IS NULL;
  IF reply.id IS NULL OR p_exchange IS DISTINCT FROM story.exchanges THEN
    RETURN QUERY SELECT 'stale'::text, story.revision;
    RETURN;
  END IF;
  IF p_version < 1 OR p_version > reply.versions THEN
    RETURN QUERY SELECT 'no_version'::text, story.revision;
    RETURN;
  END IF;
  IF p_version <> reply.version THEN
    UPDATE game_messages AS m SET version = p_version, content = v.content, state = v.state,
        model_provider = v.model_provider, model = v.model
      FROM reply_versions AS v WHERE m.id = reply.id AND v.message_id = reply.id AND v.version = p_version;
  END IF;
  UPDATE stories SET revision = revision + 1, updated_at = now() WHERE id = p_story_id RETURNING revision INTO v_revision;
  PERFORM announce_story_change(p_user_id, p_story_id, v_revision);
  RETURN QUERY SELECT 'chosen'::text, v_revision;
END;
$$ LANGUAGE plpgsql;
