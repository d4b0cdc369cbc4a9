-- The end of a turn begun by begin_turn.sql. p_text is the reply to store (for 'continue', the
-- reply extended: app/lib/story-choices.ts's continuedReply), with p_state, the story's state the
-- reply left (NULL keeps the state as it was). Empty, the turn is undone and its credit refunded
-- under the reference it was paid with; p_restore_version is the version a failed retry returns
-- to. Only the turn still in flight is finished: a second finish of the same turn is 'settled'.
-- p_model_provider and p_model name the model that wrote p_text (AI_PROVIDER and its model's id),
-- stored with the reply. p_call is the model call that wrote it, or failed to (record_model_call.sql):
-- recorded here, with the reply or the refund, in the turn's last commit (issue 34). A turn settled
-- because its instance died has none: what its call used died with the instance. A stored reply
-- whose call carries a `roll` (a Check's first telling, docs/decisions/061) stores it with its
-- exchange's player message.
-- p_paid_turns_per_credit and p_creator_credits_per_day are the operator's rule for what a stored
-- paid turn earns the world's creator (credit_world_creator.sql); NULL or 0 earns nothing.
--
-- Turn leases (docs/decisions/030): a turn in flight belongs to the instance writing its reply,
-- which renews the lease of all its turns every few seconds; a turn whose lease ran out (its
-- instance died) is finished here by any instance's sweeper, by the next turn on its story, or by
-- a page that reads it. Finished so, a turn or an edit does not disappear as a failed turn does:
-- the player's message stays in the story, its reply is written 'interrupted' (its text died with
-- the instance), and the credit is refunded. A retry or a continue goes back to the reply as it was.
CREATE OR REPLACE FUNCTION finish_turn(
  p_story_id uuid, p_turn_id uuid, p_text text, p_restore_version integer, p_state jsonb,
  p_model_provider text DEFAULT NULL, p_model text DEFAULT NULL, p_call jsonb DEFAULT NULL,
  p_paid_turns_per_credit integer DEFAULT NULL, p_creator_credits_per_day integer DEFAULT NULL
)
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
    -- A new exchange's reply is written now, once (write_reply.sql); a retried or continued one was stored.
    IF reply.id IS NULL THEN
      reply := write_reply(story, p_text, 'complete', p_state, p_model_provider, p_model);
    ELSE
      UPDATE game_messages SET content = p_text, status = 'complete',
          state = coalesce(p_state, state), model_provider = p_model_provider, model = p_model
        WHERE id = reply.id RETURNING * INTO reply;
    END IF;
    IF reply.versions > 1 THEN
      UPDATE reply_versions SET content = reply.content, state = reply.state, model_provider = reply.model_provider, model = reply.model
        WHERE message_id = reply.id AND version = reply.version;
    END IF;
    IF p_call ? 'roll' THEN
      UPDATE game_messages SET roll = p_call -> 'roll'
        WHERE story_id = p_story_id AND exchange = reply.exchange AND role = 'user' AND removed_at IS NULL;
    END IF;
    v_outcome := 'stored';
    IF p_paid_turns_per_credit > 0 AND p_creator_credits_per_day > 0 THEN
      PERFORM credit_world_creator(story.user_id, story.game_slug, p_turn_id, p_paid_turns_per_credit, p_creator_credits_per_day);
    END IF;
  ELSE
    SELECT -delta INTO v_charged FROM credit_ledger WHERE reason = 'chat_message' AND reference = 'turn:' || p_turn_id;
    IF v_charged > 0 THEN
      PERFORM apply_credit_change(story.user_id, v_charged, 'refund', 'turn:' || p_turn_id);
      v_refunded := v_charged;
    END IF;
    v_outcome := 'reverted';
    IF story.active_turn_kind IN ('send', 'edit') AND story.active_turn_lease_until <= now() THEN
      -- Its instance died mid-reply: the player's message stays, and the reply says it was cut off.
      IF reply.id IS NULL THEN
        reply := write_reply(story, '', 'interrupted', NULL, NULL, NULL);
      ELSE
        UPDATE game_messages SET status = 'interrupted', content = '' WHERE id = reply.id;
      END IF;
      v_outcome := 'interrupted';
    ELSIF story.active_turn_kind IN ('send', 'edit') THEN
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
      UPDATE game_messages AS m SET versions = m.versions - 1, version = v_version, status = 'complete', content = v.content, state = v.state,
          model_provider = v.model_provider, model = v.model
        FROM reply_versions AS v WHERE m.id = reply.id AND v.message_id = reply.id AND v.version = v_version;
      IF reply.versions - 1 = 1 THEN
        DELETE FROM reply_versions WHERE message_id = reply.id;
      END IF;
    ELSE
      UPDATE game_messages SET status = 'complete' WHERE id = reply.id;
    END IF;
  END IF;

  IF p_call IS NOT NULL THEN
    -- A failed new exchange's reply was never written: its call names none.
    PERFORM record_model_call(p_story_id, story.game_slug, story.user_id,
      CASE WHEN reply.id IS NULL THEN p_call - 'replyId' - 'replyVersion' ELSE p_call END);
  END IF;

  UPDATE stories SET exchanges = v_exchanges, revision = revision + 1, active_turn_id = NULL, active_turn_kind = NULL,
      active_reply_id = NULL, active_turn_lease_until = NULL, updated_at = now()
    WHERE id = p_story_id RETURNING revision INTO v_revision;
  PERFORM announce_story_change(story.user_id, p_story_id, v_revision);
  RETURN QUERY SELECT v_outcome, v_refunded, v_revision;
END;
$$ LANGUAGE plpgsql;
