-- The functions that begin a Game Master call refuse a player whose replies keep coming back with
-- nothing to read (app/db/functions/begin_turn.sql and begin_turn_for_session.sql define them anew
-- after the migrations, with the failed replies' limit): their old signatures go. IF EXISTS: those
-- signatures were made by the function files, never by a migration, so a database migrated from
-- empty reaches this line without them.
DROP FUNCTION IF EXISTS begin_turn_for_session(text, timestamptz, boolean, text, uuid, uuid, text, integer, text, integer, integer, bigint, integer, text, integer, integer, text, integer, integer, integer, integer, integer, integer);
--> statement-breakpoint
DROP FUNCTION IF EXISTS begin_turn(text, text, uuid, uuid, text, integer, text, integer, integer, bigint, integer, text, integer, integer, text, integer, integer, integer, integer, integer, integer);
