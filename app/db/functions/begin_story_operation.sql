-- The start of a Game Master call on a story, under the lock on the story's row (begin_turn.sql
-- calls it). A story has at most one call in flight (stories.active_turn_*): it is begun with its
-- rows already stored (the player's message, and the reply that is being written) and finished by
-- finish_story_operation.sql.
--
-- p_kind: 'turn' (a new exchange with p_message), 'edit' (the latest exchange replaced by one with
-- p_message), 'retry' (a new version of the latest reply), 'continue' (the latest reply extended).
-- p_exchange is the latest exchange as the player saw it: anything else is 'stale'. A reply lost
-- with its instance (status 'interrupted', no text) can be sent again (an edit) or undone, but a
-- Retry or a Continue on it is refused ('lost'), before anything is debited or written.
--
-- The price is decided here, from the story as the lock holds it, by the one pricing rule's answers
-- (turnPrices in app/lib/turn-cost.ts, docs/decisions/041): p_free_opening_cost for the reply that
-- opens the story (exchange 1) while the player has a free opening left, p_cost for anything else.
-- Whether one is left is free_opening_allowance.sql's answer, asked only when the call lands on the
-- opening and the free price is lower; a free opening given is recorded in free_openings. charged
-- is what was debited. A call the player cannot pay for is 'insufficient', with the free openings'
-- allowance that was used up, if that is why it was not free (free_openings_used_up, _retry_at).
CREATE OR REPLACE FUNCTION begin_story_operation(
  p_story_id uuid, p_user_id text, p_turn_id uuid, p_kind text, p_exchange integer, p_message text, p_cost integer, p_lease_seconds integer,
  p_free_opening_cost integer, p_client_address text,
  p_free_openings_per_minute integer, p_free_openings_per_day integer, p_free_openings_per_address_per_day integer,
  p_free_openings_before_confirmation integer
) RETURNS TABLE (
  outcome text, message_id bigint, reply_id bigint, exchange integer, version integer, versions integer,
  previous_version integer, player_text text, reply_so_far text, charged integer, revision integer,
  free_openings_used_up text, free_openings_retry_at timestamptz
) AS $$
#variable_conflict use_column
DECLARE
  story stories%ROWTYPE;
  player_message game_messages%ROWTYPE;
  reply game_messages%ROWTYPE;
  v_exchange integer;
  v_cost integer;
  v_free_opening boolean := false;
  v_previous_version integer;
  v_outcome text;
  v_revision integer;
BEGIN
  charged := 0;
  SELECT * INTO story FROM stories WHERE id = p_story_id AND user_id = p_user_id FOR UPDATE;
  IF NOT FOUND THEN
    outcome := 'missing';
    RETURN NEXT;
    RETURN;
  END IF;
  revision := story.revision;
  IF story.active_turn_id IS NOT NULL THEN
    outcome := 'busy';
    RETURN NEXT;
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
    outcome := 'stale';
    RETURN NEXT;
    RETURN;
  END IF;
  IF p_kind IN ('retry', 'continue') AND reply.status = 'interrupted' THEN
    outcome := 'lost';
    RETURN NEXT;
    RETURN;
  END IF;

  v_exchange := CASE WHEN p_kind = 'turn' THEN story.exchanges + 1 ELSE story.exchanges END;
  v_cost := p_cost;
  IF v_exchange = 1 AND p_free_opening_cost < p_cost THEN
    SELECT a.used_up, a.retry_at INTO free_openings_used_up, free_openings_retry_at
      FROM free_opening_allowance(p_user_id, p_client_address, p_free_openings_per_minute, p_free_openings_per_day,
        p_free_openings_per_address_per_day, p_free_openings_before_confirmation) AS a;
    v_free_opening := free_openings_used_up IS NULL;
    IF v_free_opening THEN
      v_cost := p_free_opening_cost;
    END IF;
  END IF;
  IF v_cost > 0 THEN
    SELECT c.outcome INTO v_outcome FROM apply_credit_change(p_user_id, -v_cost, 'chat_message', 'turn:' || p_turn_id) AS c;
    IF v_outcome = 'insufficient' THEN
      outcome := 'insufficient';
      RETURN NEXT;
      RETURN;
    END IF;
  END IF;
  IF v_free_opening THEN
    INSERT INTO free_openings (user_id, client_address) VALUES (p_user_id, p_client_address);
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
      INSERT INTO reply_versions (message_id, version, content, state, model_provider, model)
        VALUES (reply.id, 1, reply.content, reply.state, reply.model_provider, reply.model);
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
    v_previous_version, player_message.content, reply.content, v_cost, v_revision, free_openings_used_up, free_openings_retry_at;
END;
$$ LANGUAGE plpgsql;
