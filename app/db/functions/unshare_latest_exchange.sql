-- Before a story's latest exchange changes (Undo, Send again, Retry, Continue, another version),
-- no other story may be reading it in place (docs/decisions/063). The stories that read it from
-- here — the story itself when it shares it with the story it was branched from, and its branches
-- whose fork point it is — each take their own copy of it (its two messages and the reply's
-- versions) and share one exchange fewer. The story it came from is never changed, and no more
-- than one exchange is ever copied. Called under the story's lock (FOR UPDATE); the branches are
-- locked here, always after their parent, so two stories never wait on each other.
CREATE OR REPLACE FUNCTION unshare_latest_exchange(p_story_id uuid) RETURNS void AS $$
DECLARE
  v_latest integer;
  v_user_id text;
  v_readers uuid[];
  v_reader uuid;
  v_copy bigint;
  v_revision integer;
  message game_messages%ROWTYPE;
BEGIN
  SELECT s.exchanges, s.user_id INTO v_latest, v_user_id FROM stories AS s WHERE s.id = p_story_id;
  IF NOT FOUND OR v_latest = 0 THEN
    RETURN;
  END IF;
  v_readers := ARRAY(
    SELECT s.id FROM stories AS s
      WHERE (s.id = p_story_id AND s.parent_story_id IS NOT NULL AND s.fork_exchange = v_latest)
         OR (s.parent_story_id = p_story_id AND s.fork_exchange = v_latest)
      ORDER BY s.id FOR UPDATE);
  IF cardinality(v_readers) = 0 THEN
    RETURN;
  END IF;
  -- Read as the story reads it now, before any reader's fork point moves.
  FOR message IN SELECT * FROM story_messages(p_story_id, v_latest, v_latest) ORDER BY role DESC LOOP
    FOREACH v_reader IN ARRAY v_readers LOOP
      INSERT INTO game_messages (user_id, game_slug, story_id, exchange, role, content, status, version, versions, state,
          model_provider, model, created_at)
        VALUES (message.user_id, message.game_slug, v_reader, message.exchange, message.role, message.content, message.status,
          message.version, message.versions, message.state, message.model_provider, message.model, message.created_at)
        RETURNING id INTO v_copy;
      INSERT INTO reply_versions (message_id, version, content, state, model_provider, model, created_at)
        SELECT v_copy, v.version, v.content, v.state, v.model_provider, v.model, v.created_at
          FROM reply_versions AS v WHERE v.message_id = message.id;
    END LOOP;
  END LOOP;
  UPDATE stories AS s SET fork_exchange = s.fork_exchange - 1 WHERE s.id = p_story_id AND s.id = ANY (v_readers);
  -- A branch's screen names its messages by id: the copies are new ones, so its tabs read it again.
  FOR v_reader, v_revision IN
    UPDATE stories AS s SET fork_exchange = s.fork_exchange - 1, revision = s.revision + 1
      WHERE s.id = ANY (v_readers) AND s.id <> p_story_id RETURNING s.id, s.revision
  LOOP
    PERFORM announce_story_change(v_user_id, v_reader, v_revision);
  END LOOP;
END;
$$ LANGUAGE plpgsql;
