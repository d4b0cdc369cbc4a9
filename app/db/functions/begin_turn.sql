-- A turn (docs/glossary.md) begun in one round trip (issue 18), from the rate limit to the
-- context, in one statement and one commit: the player's rate limit counted
-- (consume_rate_limit.sql), their story found or begun, an abandoned turn in it finished
-- (finish_turn.sql), the turn priced and paid for under the story's lock, its rows written, and
-- what the model's context is built from read (story_context.sql). A new exchange's reply (send,
-- edit) is not written here, only its id reserved (the story's active_reply_id): finish_turn.sql
-- writes it once, with its text (docs/decisions/068).
--
-- Who takes the turn: p_user_id, a user whose session the caller read; or, without it, the
-- session p_token names, read here in the same statement (docs/decisions/037) as lookUpSession
-- reads it (app/domain/session-lookup.server.ts: the token, of a user who is not disabled). Its
-- outcomes come first: 'no_session' (no such session, or its user disabled); 'session_renewal'
-- (the session expires at or before p_renew_at: due for better-auth's daily renewal, or expired,
-- which better-auth must write; the caller reads it through better-auth and begins the turn with
-- the user's id); 'email_not_confirmed' (p_require_verified and the address is not). A session
-- read here is answered with every row (caller_id, caller_session_id, caller_session_expires_at):
-- the turn's own stream ends with it (realtime.server.ts, docs/decisions/045). The limits' keys
-- are p_chat_limit_name and p_failed_reply_limit_name with the user's id, as rateLimitKey makes
-- them.
--
-- p_story_id names the story (a story control, or a turn that names it; with p_game_slug too, the
-- story must be of that game); without it, the player's latest story of p_game_slug, begun if
-- there is none. p_kind: 'send' (a new exchange with p_message), 'edit' (the latest exchange
-- replaced by one with p_message), 'retry' (a new version of the latest reply), 'continue' (the
-- latest reply extended). p_exchange is the latest exchange as the player saw it: anything else is
-- 'stale'. A reply lost with its instance (status 'interrupted', no text) can be sent again (an
-- edit) or undone, but a Retry or a Continue on it is refused ('lost'), before anything is debited.
--
-- The price is decided here, from the story as the lock holds it, by the one pricing rule's answers
-- (turnPrices in app/lib/turn-cost.ts, docs/decisions/041): p_free_opening_cost for the reply that
-- opens the story (exchange 1) while the player has a free opening left, p_cost for anything else.
-- Whether one is left is free_opening_allowance.sql's answer, asked only when the turn lands on the
-- opening and the free price is lower; a free opening given is recorded in free_openings. The
-- credit is debited here (apply_credit_change.sql, reference 'turn:<id>'); charged is what was.
--
-- Outcomes: 'rate_limited' (the chat limit's key over p_chat_limit in its window, reported with its counter:
-- limit_count, limit_window_started_at), 'failed_replies_limited' (the player's replies that came
-- back with nothing to read, counted under the failed replies' key when refunded, reached
-- p_failed_reply_limit in their window: read here, never counted on the way to the model),
-- 'game_missing' (no such active game, nor a draft of the player's), 'stories_limited' (a story to begin, and the player keeps
-- p_max_stories already), 'missing' (no such story of this player), 'busy' (a turn
-- is in flight), 'stale', 'lost', 'insufficient' (with the free openings' allowance used up, if
-- that is why it was not free: free_openings_used_up, _retry_at) or 'started'. A started turn
-- answers its story, its exchange, what it was charged, its context (story_context's, within the
-- game's context budget when it has one, else p_max_exchanges and p_max_characters), the
-- state it starts from (the previous exchange's, or for Continue the reply's own) and the
-- lorebooks its context matches against (story_lore.sql), and the Check rolled for the exchange's
-- player message, if it was sent as one (player_roll; stored by finish_turn.sql with the first
-- reply, kept by an edit: docs/decisions/061); and the world version the story plays
-- (world_version: NULL plays the game as it is; story_world_version.sql).
CREATE OR REPLACE FUNCTION begin_turn(
  p_user_id text, p_token text, p_renew_at timestamptz, p_require_verified boolean,
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
#variable_conflict use_column
DECLARE
  caller record;
  story stories%ROWTYPE;
  counter record;
  context record;
  v_state jsonb;
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
  IF p_user_id IS NULL THEN
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
    p_user_id := caller.id;
    caller_id := caller.id;
    caller_session_id := caller.session_id;
    caller_session_expires_at := caller.expires_at;
  END IF;
  SELECT * INTO counter FROM consume_rate_limit(p_chat_limit_name || ':' || p_user_id, p_now, p_window_ms);
  IF counter.count > p_chat_limit THEN
    outcome := 'rate_limited';
    limit_count := counter.count;
    limit_window_started_at := counter.window_started_at;
    RETURN NEXT;
    RETURN;
  END IF;
  SELECT r.count, r.last_request AS window_started_at INTO counter FROM rate_limit AS r
    WHERE r.key = p_failed_reply_limit_name || ':' || p_user_id AND r.last_request > p_now - p_failed_reply_window_ms;
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
  -- A draft world (inactive) is played by its creator alone (docs/decisions/053).
  IF NOT EXISTS (SELECT 1 FROM games AS g WHERE g.slug = coalesce(story.game_slug, p_game_slug) AND (g.is_active OR g.creator_id = p_user_id)) THEN
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
        -- The stories a player keeps are bounded here as New story bounds them, under the same lock
        -- (beginNewStory in app/domain/story-library.server.ts).
        PERFORM pg_advisory_xact_lock(hashtextextended('stories:' || p_user_id, 0));
        IF (SELECT count(*) FROM stories AS s WHERE s.user_id = p_user_id) >= p_max_stories THEN
          outcome := 'stories_limited';
          RETURN NEXT;
          RETURN;
        END IF;
        INSERT INTO stories (user_id, game_slug, world_version)
          VALUES (p_user_id, p_game_slug, story_world_version(p_user_id, p_game_slug)) RETURNING * INTO story;
      END IF;
    END IF;
  END IF;

  -- A turn whose instance stopped renewing its lease is finished (and refunded) first.
  IF story.active_turn_id IS NOT NULL AND story.active_turn_lease_until <= now() THEN
    PERFORM finish_turn(story.id, story.active_turn_id, '', NULL, NULL);
  END IF;

  -- Whether the turn opens the story, and so what it costs, is decided under the story's lock.
  SELECT * INTO story FROM stories AS s WHERE s.id = story.id AND s.user_id = p_user_id FOR UPDATE;
  IF NOT FOUND THEN
    outcome := 'missing';
    RETURN NEXT;
    RETURN;
  END IF;
  IF story.active_turn_id IS NOT NULL THEN
    outcome := 'busy';
    RETURN NEXT;
    RETURN;
  END IF;
  IF p_kind <> 'send' THEN
    -- The latest exchange is about to change: no branch may be reading it in place (docs/decisions/063).
    IF p_exchange = story.exchanges THEN
      PERFORM unshare_latest_exchange(story.id);
    END IF;
    SELECT * INTO player_message FROM game_messages AS m
      WHERE m.story_id = story.id AND m.exchange = story.exchanges AND m.role = 'user' AND m.removed_at IS NULL;
    SELECT * INTO reply FROM game_messages AS m
      WHERE m.story_id = story.id AND m.exchange = story.exchanges AND m.role = 'assistant' AND m.removed_at IS NULL;
  END IF;
  IF (p_kind <> 'send' AND (story.exchanges = 0 OR p_exchange IS DISTINCT FROM story.exchanges))
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

  v_exchange := CASE WHEN p_kind = 'send' THEN story.exchanges + 1 ELSE story.exchanges END;
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

  IF p_kind IN ('send', 'edit') THEN
    IF p_kind = 'edit' THEN
      UPDATE game_messages AS m SET removed_at = now(), removal = 'edited', removed_by_turn = p_turn_id
        WHERE m.story_id = story.id AND m.exchange = v_exchange AND m.removed_at IS NULL;
    END IF;
    -- An edit keeps the exchange's roll: rewording an action does not roll its dice again.
    INSERT INTO game_messages (user_id, game_slug, story_id, exchange, role, content, roll)
      VALUES (p_user_id, story.game_slug, story.id, v_exchange, 'user', p_message, CASE WHEN p_kind = 'edit' THEN player_message.roll END)
      RETURNING * INTO player_message;
    -- The reply is written once, with its text, by finish_turn: here its id is only reserved.
    reply.id := nextval('game_messages_id_seq');
    reply.version := 1;
    reply.versions := 1;
    reply.content := '';
  ELSIF p_kind = 'retry' THEN
    v_previous_version := reply.version;
    IF reply.versions = 1 THEN
      INSERT INTO reply_versions (message_id, version, content, state, model_provider, model)
        VALUES (reply.id, 1, reply.content, reply.state, reply.model_provider, reply.model);
    END IF;
    INSERT INTO reply_versions (message_id, version, content) VALUES (reply.id, reply.versions + 1, '');
    UPDATE game_messages AS m SET versions = m.versions + 1, version = m.versions + 1, content = '', status = 'streaming'
      WHERE m.id = reply.id RETURNING * INTO reply;
  ELSE
    UPDATE game_messages AS m SET status = 'streaming' WHERE m.id = reply.id RETURNING * INTO reply;
  END IF;

  UPDATE stories AS s SET exchanges = v_exchange, revision = s.revision + 1, active_turn_id = p_turn_id, active_turn_kind = p_kind,
      active_reply_id = reply.id, active_turn_lease_until = now() + make_interval(secs => p_lease_seconds), updated_at = now()
    WHERE s.id = story.id RETURNING s.revision INTO v_revision;
  PERFORM announce_story_change(p_user_id, story.id, v_revision);

  -- A game with a context budget of its own (games.context_tokens) is read by it; the others by the site's (p_max_*).
  SELECT c.* INTO context FROM games AS g CROSS JOIN LATERAL story_read_limits(g.context_tokens) AS own
    CROSS JOIN LATERAL story_context(story.id, v_exchange, coalesce(own.max_exchanges, p_max_exchanges),
      coalesce(own.max_characters, p_max_characters)) AS c
    WHERE g.slug = story.game_slug;
  SELECT newest.state INTO v_state FROM story_states(story.id, CASE WHEN p_kind = 'continue' THEN v_exchange ELSE v_exchange - 1 END, 1) AS newest;
  RETURN QUERY SELECT 'started'::text, NULL::integer, NULL::bigint, free_openings_used_up, free_openings_retry_at,
    story.id, story.game_slug, story.exchanges, story.pinned_facts, story.author_note, story.summary, story.summary_through,
    player_message.id, reply.id, v_exchange, reply.version, reply.versions, v_previous_version, v_cost,
    player_message.content, reply.content, context.opening, context.recent, v_state, story_lore(story.id, story.game_slug, story.world_version),
    player_message.roll, story.world_version, caller_id, caller_session_id, caller_session_expires_at;
END;
$$ LANGUAGE plpgsql;
