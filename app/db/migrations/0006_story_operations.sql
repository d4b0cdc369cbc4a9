-- Every change of a story is one call of one of these functions (app/domain/stories.server.ts):
-- one round trip, atomic, and serialised per story by a lock on its row. Each bumps the story's
-- revision and announces it on `story_changed` ({"userId","storyId","revision"}), delivered at
-- commit, so every tab of the player on every instance can catch up.
--
-- A story has at most one Game Master call in flight (stories.active_turn_*). It is begun with its
-- rows already stored (the player's message, and the reply that is being written) and finished
-- with the reply's text; a call that produced no text is undone, its credit refunded under the
-- reference it was paid with. A call whose lease ran out (its instance died) is finished the same
-- way by whoever finds it.

CREATE OR REPLACE FUNCTION announce_story_change(p_user_id text, p_story_id uuid, p_revision integer) RETURNS void AS $$
BEGIN
  PERFORM pg_notify('story_changed', json_build_object('userId', p_user_id, 'storyId', p_story_id, 'revision', p_revision)::text);
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint

-- p_kind: 'turn' (a new exchange with p_message), 'edit' (the latest exchange replaced by one with
-- p_message), 'retry' (a new version of the latest reply), 'continue' (the latest reply extended).
-- p_exchange is the latest exchange as the player saw it: anything else is 'stale'. The reply
-- that opens a story is free; everything else costs p_cost.
CREATE OR REPLACE FUNCTION begin_story_operation(
  p_story_id uuid, p_user_id text, p_turn_id uuid, p_kind text, p_exchange integer, p_message text, p_cost integer, p_lease_seconds integer
) RETURNS TABLE (
  outcome text, message_id bigint, reply_id bigint, exchange integer, version integer, versions integer,
  previous_version integer, player_text text, reply_so_far text, charged integer, revision integer
) AS $$
#variable_conflict use_column
DECLARE
  story stories%ROWTYPE;
  player_message game_messages%ROWTYPE;
  reply game_messages%ROWTYPE;
  v_exchange integer;
  v_cost integer;
  v_previous_version integer;
  v_outcome text;
  v_revision integer;
BEGIN
  SELECT * INTO story FROM stories WHERE id = p_story_id AND user_id = p_user_id FOR UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'missing'::text, NULL::bigint, NULL::bigint, NULL::integer, NULL::integer, NULL::integer, NULL::integer, NULL::text, NULL::text, 0, NULL::integer;
    RETURN;
  END IF;
  IF story.active_turn_id IS NOT NULL THEN
    RETURN QUERY SELECT 'busy'::text, NULL::bigint, NULL::bigint, NULL::integer, NULL::integer, NULL::integer, NULL::integer, NULL::text, NULL::text, 0, story.revision;
    RETURN;
  END IF;
  IF p_kind <> 'turn' THEN
    SELECT * INTO player_message FROM game_messages
      WHERE story_id = p_story_id AND exchange = story.exchanges AND role = 'user' AND removed_at IS NULL;
    SELECT * INTO reply FROM game_messages
      WHERE story_id = p_story_id AND exchange = story.exchanges AND role = 'assistant' AND removed_at IS NULL;
  END IF;
  IF (p_kind <> 'turn' AND (story.exchanges = 0 OR p_exchange IS DISTINCT FROM story.exchanges))
     OR (p_kind IN ('retry', 'continue') AND reply.id IS NULL)
     OR (p_kind = 'edit' AND player_message.id IS NULL) THEN
    RETURN QUERY SELECT 'stale'::text, NULL::bigint, NULL::bigint, NULL::integer, NULL::integer, NULL::integer, NULL::integer, NULL::text, NULL::text, 0, story.revision;
    RETURN;
  END IF;

  v_exchange := CASE WHEN p_kind = 'turn' THEN story.exchanges + 1 ELSE story.exchanges END;
  v_cost := CASE WHEN v_exchange = 1 AND p_kind <> 'continue' THEN 0 ELSE p_cost END;
  IF v_cost > 0 THEN
    SELECT c.outcome INTO v_outcome FROM apply_credit_change(p_user_id, -v_cost, 'chat_message', 'turn:' || p_turn_id) AS c;
    IF v_outcome = 'insufficient' THEN
      RETURN QUERY SELECT 'insufficient'::text, NULL::bigint, NULL::bigint, NULL::integer, NULL::integer, NULL::integer, NULL::integer, NULL::text, NULL::text, 0, story.revision;
      RETURN;
    END IF;
  END IF;

  IF p_kind IN ('turn', 'edit') THEN
    IF p_kind = 'edit' THEN
      UPDATE game_messages SET removed_at = now(), removal = 'edited', removed_by_turn = p_turn_id
        WHERE story_id = p_story_id AND exchange = v_exchange AND removed_at IS NULL;
    END IF;
    INSERT INTO game_messages (user_id, game_slug, story_id, exchange, role, content)
      VALUES (p_user_id, story.game_slug, p_story_id, v_exchange, 'user', p_message)
      RETURNING * INTO player_message;
    INSERT INTO game_messages (user_id, game_slug, story_id, exchange, role, content, status)
      VALUES (p_user_id, story.game_slug, p_story_id, v_exchange, 'assistant', '', 'streaming')
      RETURNING * INTO reply;
  ELSIF p_kind = 'retry' THEN
    v_previous_version := reply.version;
    IF reply.versions = 1 THEN
      INSERT INTO reply_versions (message_id, version, content) VALUES (reply.id, 1, reply.content);
    END IF;
    INSERT INTO reply_versions (message_id, version, content) VALUES (reply.id, reply.versions + 1, '');
    UPDATE game_messages SET versions = versions + 1, version = versions + 1, content = '', status = 'streaming'
      WHERE id = reply.id RETURNING * INTO reply;
  ELSE
    UPDATE game_messages SET status = 'streaming' WHERE id = reply.id RETURNING * INTO reply;
  END IF;

  UPDATE stories SET exchanges = v_exchange, revision = revision + 1, active_turn_id = p_turn_id, active_turn_kind = p_kind,
      active_reply_id = reply.id, active_turn_lease_until = now() + make_interval(secs => p_lease_seconds), updated_at = now()
    WHERE id = p_story_id RETURNING revision INTO v_revision;
  PERFORM announce_story_change(p_user_id, p_story_id, v_revision);
  RETURN QUERY SELECT 'started'::text, player_message.id, reply.id, v_exchange, reply.version, reply.versions,
    v_previous_version, player_message.content, reply.content, v_cost, v_revision;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint

-- p_text is what the Game Master wrote: stored as the reply (appended, for 'continue'). Empty, the
-- call is undone and refunded. p_restore_version is the version a failed retry returns to. Only
-- the call still in flight is finished: a second finish of the same call is 'settled'.
CREATE OR REPLACE FUNCTION finish_story_operation(p_story_id uuid, p_turn_id uuid, p_text text, p_restore_version integer)
RETURNS TABLE (outcome text, refunded integer, revision integer) AS $$
#variable_conflict use_column
DECLARE
  story stories%ROWTYPE;
  reply game_messages%ROWTYPE;
  v_exchanges integer;
  v_charged integer;
  v_refunded integer := 0;
  v_version integer;
  v_outcome text;
  v_revision integer;
BEGIN
  SELECT * INTO story FROM stories WHERE id = p_story_id FOR UPDATE;
  IF NOT FOUND OR story.active_turn_id IS DISTINCT FROM p_turn_id THEN
    RETURN QUERY SELECT 'settled'::text, 0, story.revision;
    RETURN;
  END IF;
  SELECT * INTO reply FROM game_messages WHERE id = story.active_reply_id;
  v_exchanges := story.exchanges;

  IF p_text <> '' THEN
    UPDATE game_messages SET content = CASE WHEN story.active_turn_kind = 'continue' THEN content || p_text ELSE p_text END, status = 'complete'
      WHERE id = reply.id RETURNING * INTO reply;
    IF reply.versions > 1 THEN
      UPDATE reply_versions SET content = reply.content WHERE message_id = reply.id AND version = reply.version;
    END IF;
    v_outcome := 'stored';
  ELSE
    SELECT -delta INTO v_charged FROM credit_ledger WHERE reason = 'chat_message' AND reference = 'turn:' || p_turn_id;
    IF v_charged > 0 THEN
      PERFORM apply_credit_change(story.user_id, v_charged, 'refund', 'turn:' || p_turn_id);
      v_refunded := v_charged;
    END IF;
    IF story.active_turn_kind IN ('turn', 'edit') THEN
      UPDATE game_messages SET removed_at = now(), removal = 'failed', removed_by_turn = p_turn_id
        WHERE story_id = p_story_id AND exchange = story.exchanges AND removed_at IS NULL;
      IF story.active_turn_kind = 'edit' THEN
        UPDATE game_messages SET removed_at = NULL, removal = NULL, removed_by_turn = NULL
          WHERE story_id = p_story_id AND removed_by_turn = p_turn_id AND removal = 'edited';
      ELSE
        v_exchanges := story.exchanges - 1;
      END IF;
    ELSIF story.active_turn_kind = 'retry' THEN
      DELETE FROM reply_versions WHERE message_id = reply.id AND version = reply.versions;
      v_version := least(greatest(coalesce(p_restore_version, reply.versions - 1), 1), reply.versions - 1);
      UPDATE game_messages SET versions = versions - 1, version = v_version, status = 'complete',
          content = (SELECT content FROM reply_versions WHERE message_id = reply.id AND version = v_version)
        WHERE id = reply.id;
      IF reply.versions - 1 = 1 THEN
        DELETE FROM reply_versions WHERE message_id = reply.id;
      END IF;
    ELSE
      UPDATE game_messages SET status = 'complete' WHERE id = reply.id;
    END IF;
    v_outcome := 'reverted';
  END IF;

  UPDATE stories SET exchanges = v_exchanges, revision = revision + 1, active_turn_id = NULL, active_turn_kind = NULL,
      active_reply_id = NULL, active_turn_lease_until = NULL, updated_at = now()
    WHERE id = p_story_id RETURNING revision INTO v_revision;
  PERFORM announce_story_change(story.user_id, p_story_id, v_revision);
  RETURN QUERY SELECT v_outcome, v_refunded, v_revision;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint

-- Undo: the latest exchange (p_exchange, as the player saw it) leaves the story. It is kept as
-- 'undone', and nothing is refunded.
CREATE OR REPLACE FUNCTION undo_story_exchange(p_story_id uuid, p_user_id text, p_exchange integer)
RETURNS TABLE (outcome text, revision integer) AS $$
#variable_conflict use_column
DECLARE
  story stories%ROWTYPE;
  v_revision integer;
BEGIN
  SELECT * INTO story FROM stories WHERE id = p_story_id AND user_id = p_user_id FOR UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'missing'::text, NULL::integer;
    RETURN;
  END IF;
  IF story.active_turn_id IS NOT NULL THEN
    RETURN QUERY SELECT 'busy'::text, story.revision;
    RETURN;
  END IF;
  IF story.exchanges = 0 OR p_exchange IS DISTINCT FROM story.exchanges THEN
    RETURN QUERY SELECT 'stale'::text, story.revision;
    RETURN;
  END IF;
  UPDATE game_messages SET removed_at = now(), removal = 'undone'
    WHERE story_id = p_story_id AND exchange = story.exchanges AND removed_at IS NULL;
  UPDATE stories SET exchanges = exchanges - 1, revision = revision + 1, updated_at = now()
    WHERE id = p_story_id RETURNING revision INTO v_revision;
  PERFORM announce_story_change(p_user_id, p_story_id, v_revision);
  RETURN QUERY SELECT 'undone'::text, v_revision;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint

-- Previous / Next version: the latest reply shows version p_version, which the story continues from.
CREATE OR REPLACE FUNCTION choose_reply_version(p_story_id uuid, p_user_id text, p_exchange integer, p_version integer)
RETURNS TABLE (outcome text, revision integer) AS $$
#variable_conflict use_column
DECLARE
  story stories%ROWTYPE;
  reply game_messages%ROWTYPE;
  v_revision integer;
BEGIN
  SELECT * INTO story FROM stories WHERE id = p_story_id AND user_id = p_user_id FOR UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'missing'::text, NULL::integer;
    RETURN;
  END IF;
  IF story.active_turn_id IS NOT NULL THEN
    RETURN QUERY SELECT 'busy'::text, story.revision;
    RETURN;
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
    UPDATE game_messages SET version = p_version,
        content = (SELECT content FROM reply_versions WHERE message_id = reply.id AND version = p_version)
      WHERE id = reply.id;
  END IF;
  UPDATE stories SET revision = revision + 1, updated_at = now() WHERE id = p_story_id RETURNING revision INTO v_revision;
  PERFORM announce_story_change(p_user_id, p_story_id, v_revision);
  RETURN QUERY SELECT 'chosen'::text, v_revision;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint

-- Start Over: the story's messages are deleted (docs/spec.md §8) and it begins again.
CREATE OR REPLACE FUNCTION clear_story(p_story_id uuid, p_user_id text)
RETURNS TABLE (outcome text, deleted integer, revision integer) AS $$
#variable_conflict use_column
DECLARE
  story stories%ROWTYPE;
  v_deleted integer;
  v_revision integer;
BEGIN
  SELECT * INTO story FROM stories WHERE id = p_story_id AND user_id = p_user_id FOR UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'missing'::text, 0, NULL::integer;
    RETURN;
  END IF;
  IF story.active_turn_id IS NOT NULL THEN
    RETURN QUERY SELECT 'busy'::text, 0, story.revision;
    RETURN;
  END IF;
  DELETE FROM game_messages WHERE story_id = p_story_id AND removed_at IS NULL;
  GET DIAGNOSTICS v_deleted = ROW_COUNT;
  DELETE FROM game_messages WHERE story_id = p_story_id;
  UPDATE stories SET exchanges = 0, revision = revision + 1, updated_at = now() WHERE id = p_story_id RETURNING revision INTO v_revision;
  PERFORM announce_story_change(p_user_id, p_story_id, v_revision);
  RETURN QUERY SELECT 'cleared'::text, v_deleted, v_revision;
END;
$$ LANGUAGE plpgsql;
