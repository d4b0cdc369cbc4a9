ALTER TABLE "game_messages" ADD COLUMN "state" jsonb;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "tracked_stats" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "reply_versions" ADD COLUMN "state" jsonb;--> statement-breakpoint
CREATE INDEX "game_messages_story_state_idx" ON "game_messages" USING btree ("story_id","exchange") WHERE "state" IS NOT NULL AND "removed_at" IS NULL;--> statement-breakpoint
-- The living state (app/lib/tracked-stats.ts): each reply stores the story's state after it, and
-- each version of a retried reply its own, so Undo, Retry and choosing a version bring back the
-- state of the story on screen. Migration 0006's functions, redefined to carry it:
-- begin_story_operation keeps the first version's state when a reply is first retried,
-- finish_story_operation stores the state the call's reply left (p_state; NULL keeps the state
-- as it was) and a failed retry's version brings its state back, and choose_reply_version shows
-- the chosen version's state with its text.
-- The body this migration wrote is history (git has it); the function's live definition is
-- app/db/functions/begin_story_operation.sql, applied after the migrations. Declared here so what follows can use it.
CREATE OR REPLACE FUNCTION begin_story_operation(
  p_story_id uuid, p_user_id text, p_turn_id uuid, p_kind text, p_exchange integer, p_message text, p_cost integer, p_lease_seconds integer
) RETURNS TABLE (
  outcome text, message_id bigint, reply_id bigint, exchange integer, version integer, versions integer,
  previous_version integer, player_text text, reply_so_far text, charged integer, revision integer
) AS $$ BEGIN END; $$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP FUNCTION finish_story_operation(uuid, uuid, text, integer);
--> statement-breakpoint
-- The body this migration wrote is history (git has it); the function's live definition is
-- app/db/functions/finish_story_operation.sql, applied after the migrations. Declared here so what follows can use it.
CREATE FUNCTION finish_story_operation(p_story_id uuid, p_turn_id uuid, p_text text, p_restore_version integer, p_state jsonb)
RETURNS TABLE (outcome text, refunded integer, revision integer) AS $$ BEGIN END; $$ LANGUAGE plpgsql;
--> statement-breakpoint
-- The body this migration wrote is history (git has it); the function's live definition is
-- app/db/functions/choose_reply_version.sql, applied after the migrations. Declared here so what follows can use it.
CREATE OR REPLACE FUNCTION choose_reply_version(p_story_id uuid, p_user_id text, p_exchange integer, p_version integer)
RETURNS TABLE (outcome text, revision integer) AS $$ BEGIN END; $$ LANGUAGE plpgsql;
