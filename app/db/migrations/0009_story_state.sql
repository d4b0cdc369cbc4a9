ALTER TABLE "game_messages" ADD COLUMN "state" jsonb;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "tracked_stats" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "reply_versions" ADD COLUMN "state" jsonb;--> statement-breakpoint
CREATE INDEX "game_messages_story_state_idx" ON "game_messages" USING btree ("story_id","exchange") WHERE "state" IS NOT NULL AND "removed_at" IS NULL;--> statement-breakpoint
-- The living state (app/lib/tracked-stats.ts): each reply stores the story's state after it, and
-- each version of a retried reply its own, so Undo, Retry and choosing a version bring back the
-- state of the story on screen. Migration 0006's functions, redefined to carry it:
-- begin_story_operation keeps the first version's state when a reply is first retried,
-- finish_story_operation stores the state the call's reply left (p_state; NULL keeps the state
-- as it was) and a failed retry's version brings its state back, and choose_reply_version shows
-- the chosen version's state with its text.
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
      INSERT INTO reply_versions (message_id, version, content, state) VALUES (reply.id, 1, reply.content, reply.state);
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
DROP FUNCTION finish_story_operation(uuid, uuid, text, integer);
--> statement-breakpoint
CREATE FUNCTION finish_story_operation(p_story_id uuid, p_turn_id uuid, p_text text, p_restore_version integer, p_state jsonb)
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
    UPDATE game_messages SET content = CASE WHEN story.active_turn_kind = 'continue' THEN content || p_text ELSE p_text END, status = 'complete',
        state = coalesce(p_state, state)
      WHERE id = reply.id RETURNING * INTO reply;
    IF reply.versions > 1 THEN
      UPDATE reply_versions SET content = reply.content, state = reply.state WHERE message_id = reply.id AND version = reply.version;
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
      UPDATE game_messages AS m SET versions = m.versions - 1, version = v_version, status = 'complete', content = v.content, state = v.state
        FROM reply_versions AS v WHERE m.id = reply.id AND v.message_id = reply.id AND v.version = v_version;
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
    UPDATE game_messages AS m SET version = p_version, content = v.content, state = v.state
      FROM reply_versions AS v WHERE m.id = reply.id AND v.message_id = reply.id AND v.version = p_version;
  END IF;
  UPDATE stories SET revision = revision + 1, updated_at = now() WHERE id = p_story_id RETURNING revision INTO v_revision;
  PERFORM announce_story_change(p_user_id, p_story_id, v_revision);
  RETURN QUERY SELECT 'chosen'::text, v_revision;
END;
$$ LANGUAGE plpgsql;
