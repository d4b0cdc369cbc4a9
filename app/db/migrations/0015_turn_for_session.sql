-- A Game Master call that reads its caller's session in its own statement (issue 18): before, a
-- call looked up the session in one round trip and began the turn in a second, so every turn
-- waited on the database twice before the model was called. begin_turn_for_session reads the
-- session as lookUpSession reads it (app/domain/session-lookup.server.ts: the token, of a user who
-- is not disabled), then begins the turn as begin_turn does, for that user, answering as it does.
-- Outcomes before begin_turn's: 'no_session' (no such session, or its user disabled);
-- 'session_renewal' (the session expires at or before p_renew_at: due for better-auth's daily
-- renewal, or expired, which better-auth must write; the caller reads it through better-auth and
-- calls begin_turn itself); 'email_not_confirmed' (p_require_verified and the address is not).
-- The rate limits' keys are p_chat_limit_name and p_opening_limit_name with the user's id, as
-- rateLimitKey makes them.
-- The body this migration wrote is history (git has it); the function's live definition is
-- app/db/functions/begin_turn_for_session.sql, applied after the migrations. Declared here so what follows can use it.
CREATE FUNCTION begin_turn_for_session(
  p_token text, p_renew_at timestamptz, p_require_verified boolean,
  p_game_slug text, p_story_id uuid, p_turn_id uuid, p_kind text, p_exchange integer, p_message text,
  p_cost integer, p_lease_seconds integer,
  p_now bigint, p_window_ms integer, p_chat_limit_name text, p_chat_limit integer, p_opening_limit_name text, p_opening_limit integer,
  p_max_exchanges integer, p_max_characters integer
) RETURNS TABLE (
  outcome text, limit_count integer, limit_window_started_at bigint,
  story_id uuid, game_slug text, exchanges integer, pinned_facts text, author_note text, summary text, summary_through integer,
  message_id bigint, reply_id bigint, exchange integer, version integer, versions integer, previous_version integer,
  player_text text, reply_so_far text, opening text, recent text, state jsonb
) AS $$ BEGIN END; $$ LANGUAGE plpgsql;
