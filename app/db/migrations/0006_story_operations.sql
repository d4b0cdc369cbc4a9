-- Every change of a story is one call of one of these functions (app/domain/stories.server.ts):
-- one round trip, atomic, and serialised per story by a lock on its row. Each bumps the story's
-- revision and announces it on `story_changed` ({"userId","storyId","revision"}), delivered at
-- commit, so every tab of the player on every instance can catch up.
--
-- A story has at most one Game Master call in flight (stories.active_turn_*). It is begun with its
-- rows already stored (the player's message, and the reply that is being written) and finished
-- with the reply's text; a call that produced no text is undone, its credit refunded under the
-- reference it was paid with. A call whose lease ran out (its instance died) is finished the same
-- way by whoever finds it.

-- The body this migration wrote is history (git has it); the function's live definition is
-- app/db/functions/announce_story_change.sql, applied after the migrations. Declared here so what follows can use it.
CREATE OR REPLACE FUNCTION announce_story_change(p_user_id text, p_story_id uuid, p_revision integer) RETURNS void AS $$ BEGIN END; $$ LANGUAGE plpgsql;
--> statement-breakpoint

-- p_kind: 'turn' (a new exchange with p_message), 'edit' (the latest exchange replaced by one with
-- p_message), 'retry' (a new version of the latest reply), 'continue' (the latest reply extended).
-- p_exchange is the latest exchange as the player saw it: anything else is 'stale'. The reply
-- that opens a story is free; everything else costs p_cost.
-- The body this migration wrote is history (git has it); the function's live definition is
-- app/db/functions/begin_story_operation.sql, applied after the migrations. Declared here so what follows can use it.
CREATE OR REPLACE FUNCTION begin_story_operation(
  p_story_id uuid, p_user_id text, p_turn_id uuid, p_kind text, p_exchange integer, p_message text, p_cost integer, p_lease_seconds integer
) RETURNS TABLE (
  outcome text, message_id bigint, reply_id bigint, exchange integer, version integer, versions integer,
  previous_version integer, player_text text, reply_so_far text, charged integer, revision integer
) AS $$ BEGIN END; $$ LANGUAGE plpgsql;
--> statement-breakpoint

-- p_text is what the Game Master wrote: stored as the reply (appended, for 'continue'). Empty, the
-- call is undone and refunded. p_restore_version is the version a failed retry returns to. Only
-- the call still in flight is finished: a second finish of the same call is 'settled'.
-- The body this migration wrote is history (git has it); the function's live definition is
-- app/db/functions/finish_story_operation.sql, applied after the migrations. Declared here so what follows can use it.
CREATE OR REPLACE FUNCTION finish_story_operation(p_story_id uuid, p_turn_id uuid, p_text text, p_restore_version integer)
RETURNS TABLE (outcome text, refunded integer, revision integer) AS $$ BEGIN END; $$ LANGUAGE plpgsql;
--> statement-breakpoint

-- Undo: the latest exchange (p_exchange, as the player saw it) leaves the story. It is kept as
-- 'undone', and nothing is refunded.
-- The body this migration wrote is history (git has it); the function's live definition is
-- app/db/functions/undo_story_exchange.sql, applied after the migrations. Declared here so what follows can use it.
CREATE OR REPLACE FUNCTION undo_story_exchange(p_story_id uuid, p_user_id text, p_exchange integer)
RETURNS TABLE (outcome text, revision integer) AS $$ BEGIN END; $$ LANGUAGE plpgsql;
--> statement-breakpoint

-- Previous / Next version: the latest reply shows version p_version, which the story continues from.
-- The body this migration wrote is history (git has it); the function's live definition is
-- app/db/functions/choose_reply_version.sql, applied after the migrations. Declared here so what follows can use it.
CREATE OR REPLACE FUNCTION choose_reply_version(p_story_id uuid, p_user_id text, p_exchange integer, p_version integer)
RETURNS TABLE (outcome text, revision integer) AS $$ BEGIN END; $$ LANGUAGE plpgsql;
--> statement-breakpoint

-- Start Over: the story's messages are deleted (docs/spec.md §8) and it begins again.
-- The body this migration wrote is history (git has it); the function's live definition is
-- app/db/functions/clear_story.sql, applied after the migrations. Declared here so what follows can use it.
CREATE OR REPLACE FUNCTION clear_story(p_story_id uuid, p_user_id text)
RETURNS TABLE (outcome text, deleted integer, revision integer) AS $$ BEGIN END; $$ LANGUAGE plpgsql;
