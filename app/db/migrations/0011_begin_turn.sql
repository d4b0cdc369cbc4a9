-- A Game Master call in one round trip (issue 18). Before, a call counted its rate limit, found or
-- began its story, settled an abandoned call, began the operation and read the story for the
-- model's context in four round trips and two commits; begin_turn does all of it in one statement,
-- one commit, and hands back what the context is built from. Its parts keep their own rules: the
-- counter is the one consumeRateLimit keeps (app/domain/rate-limit.server.ts), the operation is
-- begin_story_operation's (migration 0009), and an abandoned call is finished as
-- finish_story_operation finishes it.

-- One attempt counted under a rate limit's key, in a fixed window of p_window_ms that starts anew
-- once the stored one has passed: the same upsert as consumeRateLimit's.
-- The body this migration wrote is history (git has it); the function's live definition is
-- app/db/functions/consume_rate_limit.sql, applied after the migrations. Declared here so what follows can use it.
CREATE OR REPLACE FUNCTION consume_rate_limit(p_key text, p_now bigint, p_window_ms integer)
RETURNS TABLE (count integer, window_started_at bigint) AS $$ BEGIN END; $$ LANGUAGE plpgsql;
--> statement-breakpoint

-- What a model's context may draw on for a call about exchange p_before: the opening exchange, and
-- the newest exchanges before p_before — at most p_max_exchanges, and only those the context could
-- still hold after the newer ones (fewer than p_max_characters in the newer messages). Each as one
-- JSON array of [exchange, role, content], in story order. Read newest first by exchange range from
-- the index on (story, exchange, role), and no further than the budget: never a sort of the story,
-- and a story of long replies reads only the rows the context can hold.
-- The body this migration wrote is history (git has it); the function's live definition is
-- app/db/functions/story_context.sql, applied after the migrations. Declared here so what follows can use it.
CREATE OR REPLACE FUNCTION story_context(p_story_id uuid, p_before integer, p_max_exchanges integer, p_max_characters integer)
RETURNS TABLE (opening text, recent text) AS $$ BEGIN END; $$ LANGUAGE plpgsql STABLE;
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
-- The body this migration wrote is history (git has it); the function's live definition is
-- app/db/functions/begin_turn.sql, applied after the migrations. Declared here so what follows can use it.
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
) AS $$ BEGIN END; $$ LANGUAGE plpgsql;
