-- A call of the Game Master in one round trip (issue 18), from the rate limit to the context: the
-- player's rate limit counted (consume_rate_limit.sql), their story found or begun, an abandoned
-- call in it finished (finish_story_operation.sql), the operation begun and priced under the
-- story's lock (begin_story_operation.sql) and what the model's context is built from read
-- (story_context.sql), in one statement and one commit.
--
-- p_story_id names the story (a story control, or a turn that names it; with p_game_slug too, the
-- story must be of that game); without it, the player's latest story of p_game_slug, begun if
-- there is none. Outcomes: 'rate_limited' (p_chat_key over p_chat_limit in its window, reported
-- with its counter: limit_count, limit_window_started_at), 'failed_replies_limited' (the player's
-- replies that came back with nothing to read, counted under p_failed_reply_key when refunded,
-- reached p_failed_reply_limit in their window: read here, never counted on the way to the model),
-- 'game_missing' (no such active game),
-- 'missing' (no such story of this player), then begin_story_operation's: 'busy', 'stale',
-- 'lost', 'insufficient' (with the free openings' allowance used up, if any) or 'started'. A
-- started call answers its story, its operation, what it was charged, its context (story_context's)
-- and the state it starts from: the previous exchange's, or for Continue the reply's own.
CREATE OR REPLACE FUNCTION begin_turn(
  p_user_id text, p_game_slug text, p_story_id uuid, p_turn_id uuid, p_kind text, p_exchange integer, p_message text,
  p_cost integer, p_lease_seconds integer,
  p_now bigint, p_window_ms integer, p_chat_key text, p_chat_limit integer,
  p_failed_reply_key text, p_failed_reply_limit integer, p_failed_reply_window_ms integer,
  p_free_opening_cost integer, p_client_address text,
  p_free_openings_per_minute integer, p_free_openings_per_day integer, p_free_openings_per_address_per_day integer,
  p_free_openings_before_confirmation integer,
  p_max_exchanges integer, p_max_characters integer
) RETURNS TABLE (
  outcome text, limit_count integer, limit_window_started_at bigint, free_openings_used_up text, free_openings_retry_at timestamptz,
  story_id uuid, game_slug text, exchanges integer, pinned_facts text, author_note text, summary text, summary_through integer,
  message_id bigint, reply_id bigint, exchange integer, version integer, versions integer, previous_version integer, charged integer,
  player_text text, reply_so_far text, opening text, recent text, state jsonb
) AS $$
#variable_conflict use_column
DECLARE
  story stories%ROWTYPE;
  counter record;
  begun record;
  context record;
  v_state jsonb;
BEGIN
  SELECT * INTO counter FROM consume_rate_limit(p_chat_key, p_now, p_window_ms);
  IF counter.count > p_chat_limit THEN
    outcome := 'rate_limited';
    limit_count := counter.count;
    limit_window_started_at := counter.window_started_at;
    RETURN NEXT;
    RETURN;
  END IF;
  SELECT r.count, r.last_request AS window_started_at INTO counter FROM rate_limit AS r
    WHERE r.key = p_failed_reply_key AND r.last_request > p_now - p_failed_reply_window_ms;
  IF FOUND AND counter.count >= p_failed_reply_limit THEN
    outcome := 'failed_replies_limited';
    limit_count := counter.count;
    limit_window_started_at := counter.window_started_at;
    RETURN NEXT;
    RETURN;
  END IF;

  IF p_story_id IS NOT NULL THEN
    SELECT * INTO story FROM stories AS s WHERE s.id = p_story_id AND s.user_id = p_user_id;
    IF NOT FOUND OR story.game_slug IS DISTINCT FROM coalesce(p_game_slug, story.game_slug) THEN
      outcome := 'missing';
      RETURN NEXT;
      RETURN;
    END IF;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM games AS g WHERE g.slug = coalesce(story.game_slug, p_game_slug) AND g.is_active) THEN
    outcome := 'game_missing';
    RETURN NEXT;
    RETURN;
  END IF;
  IF p_story_id IS NULL THEN
    SELECT * INTO story FROM stories AS s WHERE s.user_id = p_user_id AND s.game_slug = p_game_slug
      ORDER BY s.updated_at DESC, s.created_at DESC LIMIT 1;
    IF NOT FOUND THEN
      -- One story per player and game, even when two tabs begin it at once.
      PERFORM pg_advisory_xact_lock(hashtextextended('story:' || p_user_id || ':' || p_game_slug, 0));
      SELECT * INTO story FROM stories AS s WHERE s.user_id = p_user_id AND s.game_slug = p_game_slug LIMIT 1;
      IF NOT FOUND THEN
        INSERT INTO stories (user_id, game_slug) VALUES (p_user_id, p_game_slug) RETURNING * INTO story;
      END IF;
    END IF;
  END IF;

  -- A call whose instance stopped renewing its lease is finished (and refunded) first.
  IF story.active_turn_id IS NOT NULL AND story.active_turn_lease_until <= now() THEN
    PERFORM finish_story_operation(story.id, story.active_turn_id, '', NULL, NULL);
    SELECT * INTO story FROM stories AS s WHERE s.id = story.id;
  END IF;

  -- Whether the call opens the story, and so what it costs, is decided under the story's lock.
  SELECT * INTO begun FROM begin_story_operation(story.id, p_user_id, p_turn_id, p_kind, p_exchange, p_message, p_cost, p_lease_seconds,
    p_free_opening_cost, p_client_address, p_free_openings_per_minute, p_free_openings_per_day, p_free_openings_per_address_per_day,
    p_free_openings_before_confirmation);
  IF begun.outcome <> 'started' THEN
    outcome := begun.outcome;
    free_openings_used_up := begun.free_openings_used_up;
    free_openings_retry_at := begun.free_openings_retry_at;
    RETURN NEXT;
    RETURN;
  END IF;

  SELECT * INTO context FROM story_context(story.id, begun.exchange, p_max_exchanges, p_max_characters);
  SELECT m.state INTO v_state FROM game_messages AS m
    WHERE m.story_id = story.id AND m.removed_at IS NULL AND m.state IS NOT NULL AND m.role = 'assistant'
      AND m.exchange <= CASE WHEN p_kind = 'continue' THEN begun.exchange ELSE begun.exchange - 1 END
    ORDER BY m.exchange DESC LIMIT 1;
  RETURN QUERY SELECT 'started'::text, NULL::integer, NULL::bigint, begun.free_openings_used_up, begun.free_openings_retry_at,
    story.id, story.game_slug, story.exchanges, story.pinned_facts, story.author_note, story.summary, story.summary_through,
    begun.message_id, begun.reply_id, begun.exchange, begun.version, begun.versions, begun.previous_version, begun.charged,
    begun.player_text, begun.reply_so_far, context.opening, context.recent, v_state;
END;
$$ LANGUAGE plpgsql;
