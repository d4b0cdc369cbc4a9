-- A reply lost with its instance (migration 0012: status 'interrupted', no text) can be sent again
-- (an edit with the same message) or undone, as the play screen offers; a Retry or a Continue
-- called on it directly kept the lost reply as an empty first version, or charged a credit to
-- continue nothing. Both are refused now ('lost'), before anything is debited or written.
-- begin_story_operation as migration 0009 defined it, but for that refusal.
-- The body this migration wrote is history (git has it); the function's live definition is
-- app/db/functions/begin_story_operation.sql, applied after the migrations. Declared here so what follows can use it.
CREATE OR REPLACE FUNCTION begin_story_operation(
  p_story_id uuid, p_user_id text, p_turn_id uuid, p_kind text, p_exchange integer, p_message text, p_cost integer, p_lease_seconds integer
) RETURNS TABLE (
  outcome text, message_id bigint, reply_id bigint, exchange integer, version integer, versions integer,
  previous_version integer, player_text text, reply_so_far text, charged integer, revision integer
) AS $$ BEGIN END; $$ LANGUAGE plpgsql;
