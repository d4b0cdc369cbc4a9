-- A Game Master call in one round trip (issue 18). Before, a call counted its rate limit, found or
-- began its story, settled an abandoned call, began the operation and read the story for the
-- model's context in four round trips and two commits; begin_turn does all of it in one statement,
-- one commit, and hands back what the context is built from. Its parts keep their own rules: the
-- counter is the one consumeRateLimit keeps (app/domain/rate-limit.server.ts), the operation is
-- begin_story_operation's (migration 0009), and an abandoned call is finished as
-- finish_story_operation finishes it.

-- One attempt counted under a rate limit's key, in a fixed window of p_window_ms that starts anew
-- once the stored one has passed: the same upsert as consumeRateLimit's.
CREATE OR REPLACE FUNCTION consume_rate_limit(p_key text, p_now bigint, p_window_ms integer)
RETURNS TABLE (count integer, window_started_at bigint) AS $$
  INSERT INTO rate_limit AS r (id, key, count, last_request) VALUES (gen_random_uuid()::text, p_key, 1, p_now)
  ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN r.last_request <= p_now - p_window_ms THEN 1 ELSE r.count + 1 END,
    last_request = CASE WHEN r.last_request <= p_now - p_window_ms THEN p_now ELSE r.last_request END
  RETURNING r.count, r.last_request;
$$ LANGUAGE sql;
--> statement-breakpoint

-- What a model's context may draw on for a call about exchange p_before: the opening exchange, and
-- the newest exchanges before p_before — at most p_max_exchanges, and only those the context could
-- still hold after the newer ones (fewer than p_max_characters in the newer messages). Each as one
-- JSON array of [exchange, role, content], in story order. Read newest first by exchange range from
-- the index on (story, exchange, role), and no further than the budget: never a sort of the story,
-- and a story of long replies reads only the rows the context can hold.
CREATE OR REPLACE FUNCTION story_context(p_story_id uuid, p_before integer, p_max_exchanges integer, p_max_characters integer)
RETURNS TABLE (opening text, recent text) AS $$
DECLARE
  message record;
  v_characters integer := 0;
  v_exchanges integer[] := '{}';
  v_roles text[] := '{}';
  v_contents text[] := '{}';
BEGIN
  IF p_before <= 1 THEN
    RETURN QUERY SELECT '[]'::text, '[]'::text;
    RETURN;
  END IF;
  FOR message IN
    SELECT m.exchange, m.role, m.content FROM game_messages AS m
    WHERE m.story_id = p_story_id AND m.removed_at IS NULL
      AND m.exchange >= greatest(1, p_before - p_max_exchanges) AND m.exchange < p_before
    ORDER BY m.exchange DESC, m.role
  LOOP
    EXIT WHEN v_characters >= p_max_characters;
    v_exchanges := v_exchanges || message.exchange;
    v_roles := v_roles || message.role;
    v_contents := v_contents || message.content;
    v_characters := v_characters + length(message.content);
  END LOOP;
  RETURN QUERY SELECT
    (SELECT coalesce(json_agg(json_build_array(m.exchange, m.role, m.content) ORDER BY m.role DESC), '[]')::text
      FROM game_messages AS m WHERE m.story_id = p_story_id AND m.removed_at IS NULL AND m.exchange = 1),
    (SELECT coalesce(json_agg(json_build_array(kept.exchange, kept.role, kept.content) ORDER BY kept.newest DESC), '[]')::text
      FROM unnest(v_exchanges, v_roles, v_contents) WITH ORDINALITY AS kept(exchange, role, content, newest));
END;
$$ LANGUAGE plpgsql STABLE;
--> statement-breakpoint

-- A call of the Game Master, from the rate limit to the context. p_story_id names the story (a
-- story control, or a turn that names it; with p_game_slug too, the story must be of that game);
-- without it, the player's latest story of p_game_slug, begun if there is none. Outcomes:
-- 'rate_limited' (p_chat_key over p_chat_limit in its window), 'game_missing' (no such active
-- game), 'missing' (no such story of this player), 'opening_limited' (the free reply that opens a
-- story, p_opening_key over p_opening_limit), then begin_story_operation's: 'busy', 'stale',
-- 'insufficient' or 'started'. A limit reports its counter (limit_count, limit_window_started_at);
-- a started call its story, its operation, its context (story_context's) and the state it starts
-- from: the previous exchange's, or for Continue the reply's own.
CREATE OR REPLACE FUNCTION begin_turn(
  p_user_id text, p_game_slug text, p_story_id uuid, p_turn_id uuid, p_kind text, p_exchange integer, p_message text,
  p_cost integer, p_lease_seconds integer,
  p_now bigint, p_window_ms integer, p_chat_key text, p_chat_limit integer, p_opening_key text, p_opening_limit integer,
  p_max_exchanges integer, p_max_characters integer
) RETURNS TABLE (
  outcome text, limit_count integer, limit_window_started_at bigint,
  story_id uuid, game_slug text, exchanges integer, pinned_facts text, author_note text, summary text, summary_through integer,
  message_id bigint, reply_id bigint, exchange integer, version integer, versions integer, previous_version integer,
  player_text text, reply_so_far text, opening text, recent text, state jsonb
) AS $$
#variable_conflict use_column
DECLARE
  story stories%ROWTYPE;
  counter record;
  begun record;
  context record;
  v_state jsonb;
  v_opens boolean;
BEGIN
  SELECT * INTO counter FROM consume_rate_limit(p_chat_key, p_now, p_window_ms);
  IF counter.count > p_chat_limit THEN
    outcome := 'rate_limited';
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

  v_opens := CASE WHEN p_kind = 'turn' THEN story.exchanges = 0 ELSE p_kind <> 'continue' AND story.exchanges = 1 END;
  IF v_opens THEN
    SELECT * INTO counter FROM consume_rate_limit(p_opening_key, p_now, p_window_ms);
    IF counter.count > p_opening_limit THEN
      outcome := 'opening_limited';
      limit_count := counter.count;
      limit_window_started_at := counter.window_started_at;
      RETURN NEXT;
      RETURN;
    END IF;
  END IF;

  SELECT * INTO begun FROM begin_story_operation(story.id, p_user_id, p_turn_id, p_kind, p_exchange, p_message, p_cost, p_lease_seconds);
  IF begun.outcome <> 'started' THEN
    outcome := begun.outcome;
    RETURN NEXT;
    RETURN;
  END IF;

  SELECT * INTO context FROM story_context(story.id, begun.exchange, p_max_exchanges, p_max_characters);
  SELECT m.state INTO v_state FROM game_messages AS m
    WHERE m.story_id = story.id AND m.removed_at IS NULL AND m.state IS NOT NULL AND m.role = 'assistant'
      AND m.exchange <= CASE WHEN p_kind = 'continue' THEN begun.exchange ELSE begun.exchange - 1 END
    ORDER BY m.exchange DESC LIMIT 1;
  RETURN QUERY SELECT 'started'::text, NULL::integer, NULL::bigint,
    story.id, story.game_slug, story.exchanges, story.pinned_facts, story.author_note, story.summary, story.summary_through,
    begun.message_id, begun.reply_id, begun.exchange, begun.version, begun.versions, begun.previous_version,
    begun.player_text, begun.reply_so_far, context.opening, context.recent, v_state;
END;
$$ LANGUAGE plpgsql;
