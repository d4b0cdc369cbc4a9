-- begin_turn and begin_turn_for_session answer the story's lorebooks too (a `lore` column,
-- story_lore.sql), so the turn still reads everything before its model call in one round trip. A
-- function's result columns cannot change in place: the old ones go, and app/db/functions/
-- creates them anew after the migrations.
DROP FUNCTION IF EXISTS begin_turn_for_session(text, timestamptz, boolean, text, uuid, uuid, text, integer, text, integer, integer, bigint, integer, text, integer, text, integer, integer, integer, text, integer, integer, integer, integer, integer, integer, integer);--> statement-breakpoint
DROP FUNCTION IF EXISTS begin_turn(text, text, uuid, uuid, text, integer, text, integer, integer, bigint, integer, text, integer, text, integer, integer, integer, text, integer, integer, integer, integer, integer, integer, integer);
