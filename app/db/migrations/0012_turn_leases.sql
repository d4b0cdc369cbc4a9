ALTER TABLE "game_messages" DROP CONSTRAINT "game_messages_status_check";--> statement-breakpoint
CREATE INDEX "stories_turn_lease_idx" ON "stories" USING btree ("active_turn_lease_until") WHERE "active_turn_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "game_messages" ADD CONSTRAINT "game_messages_status_check" CHECK ("status" IN ('streaming', 'complete', 'interrupted'));
--> statement-breakpoint
-- Turn leases (docs/decisions/030). A turn in flight belongs to the instance writing its reply,
-- which renews the lease of all its turns in one statement every few seconds; a turn whose lease
-- ran out (its instance died) is settled by any instance's sweeper, by the next call on its story,
-- or by a page that reads it. Settled so, a turn or an edit no longer disappears as a failed call
-- does: the player's message stays in the story, its reply is marked 'interrupted' (its text died
-- with the instance), and the credit is refunded. A retry or a continue goes back to the reply as
-- it was, as before. finish_story_operation as migration 0009 defined it, but for that branch.
-- The body this migration wrote is history (git has it); the function's live definition is
-- app/db/functions/finish_story_operation.sql, applied after the migrations. Declared here so what follows can use it.
CREATE OR REPLACE FUNCTION finish_story_operation(p_story_id uuid, p_turn_id uuid, p_text text, p_restore_version integer, p_state jsonb)
RETURNS TABLE (outcome text, refunded integer, revision integer) AS $$ BEGIN END; $$ LANGUAGE plpgsql;
