-- One name for one idea (docs/glossary.md): what was a "story operation" is a turn, and the kind
-- of turn that adds an exchange is 'send' (it was 'turn', the name of the whole idea). Turns in
-- flight keep their kind under its new name. begin_turn.sql now prices, pays for and stores the
-- turn itself, and finish_turn.sql ends it: the two old functions go. IF EXISTS: the 14-argument
-- begin_story_operation was made by its function file, never by a migration. begin_turn and
-- begin_turn_for_session take the number of stories a player may keep (issue 31): their old
-- signatures go too (made by their files, so IF EXISTS again).
ALTER TABLE "stories" DROP CONSTRAINT "stories_active_turn_kind_check";--> statement-breakpoint
UPDATE "stories" SET "active_turn_kind" = 'send' WHERE "active_turn_kind" = 'turn';--> statement-breakpoint
ALTER TABLE "stories" ADD CONSTRAINT "stories_active_turn_kind_check" CHECK ("active_turn_kind" IN ('send', 'retry', 'continue', 'edit'));--> statement-breakpoint
DROP FUNCTION IF EXISTS begin_story_operation(uuid, text, uuid, text, integer, text, integer, integer, integer, text, integer, integer, integer, integer);--> statement-breakpoint
DROP FUNCTION IF EXISTS finish_story_operation(uuid, uuid, text, integer, jsonb);
--> statement-breakpoint
DROP FUNCTION IF EXISTS begin_turn_for_session(text, timestamptz, boolean, text, uuid, uuid, text, integer, text, integer, integer, bigint, integer, text, integer, text, integer, integer, integer, text, integer, integer, integer, integer, integer, integer);--> statement-breakpoint
DROP FUNCTION IF EXISTS begin_turn(text, text, uuid, uuid, text, integer, text, integer, integer, bigint, integer, text, integer, text, integer, integer, integer, text, integer, integer, integer, integer, integer, integer);
