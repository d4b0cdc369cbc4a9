-- A turn begun by a caller known by its session token, read in the same statement (issue 18,
-- docs/decisions/037): the session as lookUpSession reads it (app/domain/session-lookup.server.ts:
-- the token, of a user who is not disabled), then the turn begun as begin_turn.sql begins it, for
-- that user, answering as it does. Outcomes before begin_turn's: 'no_session' (no such session,
-- or its user disabled); 'session_renewal' (the session expires at or before p_renew_at: due for
-- better-auth's daily renewal, or expired, which better-auth must write; the caller reads it
-- through better-auth and calls begin_turn itself); 'email_not_confirmed' (p_require_verified and
-- the address is not). The chat limit's key is p_chat_limit_name with the user's id, as
-- rateLimitKey makes it, and the failed replies' p_failed_reply_limit_name with it. Whose the turn
-- is — the user and the session, with its expiry — is answered too: the turn's own stream ends
-- with that session (realtime.server.ts, docs/decisions/045).
CREATE OR REPLACE FUNCTION begin_turn_for_session(
  p_token text, p_renew_at timestamptz, p_require_verified boolean,
  p_game_slug text, p_story_id uuid, p_turn_id uuid, p_kind text, p_exchange integer, p_message text,
  p_cost integer, p_lease_seconds integer,
  p_now bigint, p_window_ms integer, p_chat_limit_name text, p_chat_limit integer,
  p_failed_reply_limit_name text, p_failed_reply_limit integer, p_failed_reply_window_ms integer,
  p_free_opening_cost integer, p_client_address text,
  p_free_openings_per_minute integer, p_free_openings_per_day integer, p_free_openings_per_address_per_day integer,
  p_free_openings_before_confirmation integer,
  p_max_exchanges integer, p_max_characters integer, p_max_stories integer
) RETURNS TABLE (
  outcome text, limit_count integer, limit_window_started_at bigint, free_openings_used_up text, free_openings_retry_at timestamptz,
  story_id uuid, game_slug text, exchanges integer, pinned_facts text, author_note text, summary text, summary_through integer,
  message_id bigint, reply_id bigint, exchange integer, version integer, versions integer, previous_version integer, charged integer,
  player_text text, reply_so_far text, opening text, recent text, state jsonb, lore jsonb, player_roll jsonb, world_version integer,
  caller_id text, caller_session_id text, caller_session_expires_at timestamptz
) AS $$
DECLARE
  caller record;
BEGIN
  SELECT u.id, u.email_verified, s.id AS session_id, s.expires_at INTO caller
    FROM session AS s JOIN "user" AS u ON u.id = s.user_id
    WHERE s.token = p_token AND u.disabled_at IS NULL;
  IF NOT FOUND THEN
    outcome := 'no_session';
    RETURN NEXT;
    RETURN;
  END IF;
  IF caller.expires_at <= p_renew_at THEN
    outcome := 'session_renewal';
    RETURN NEXT;
    RETURN;
  END IF;
  IF p_require_verified AND NOT caller.email_verified THEN
    outcome := 'email_not_confirmed';
    RETURN NEXT;
    RETURN;
  END IF;
  RETURN QUERY SELECT turn.*, caller.id, caller.session_id, caller.expires_at FROM begin_turn(caller.id, p_game_slug, p_story_id, p_turn_id, p_kind, p_exchange, p_message, p_cost, p_lease_seconds,
      p_now, p_window_ms, p_chat_limit_name || ':' || caller.id, p_chat_limit,
      p_failed_reply_limit_name || ':' || caller.id, p_failed_reply_limit, p_failed_reply_window_ms,
      p_free_opening_cost, p_client_address, p_free_openings_per_minute, p_free_openings_per_day, p_free_openings_per_address_per_day,
      p_free_openings_before_confirmation, p_max_exchanges, p_max_characters, p_max_stories) AS turn;
END;
$$ LANGUAGE plpgsql;
