-- A turn is begun by one function whoever reads the caller's session (issue 32): begin_turn reads
-- it itself when given a session token instead of a user's id, and answers the session with its
-- row. begin_turn_for_session, which repeated begin_turn's answer column by column to wrap it, goes;
-- begin_turn's signature changes, so its old one goes too, and app/db/functions/begin_turn.sql
-- creates the new one after the migrations.
DROP FUNCTION IF EXISTS begin_turn_for_session(text, timestamptz, boolean, text, uuid, uuid, text, integer, text, integer, integer, bigint, integer, text, integer, text, integer, integer, integer, text, integer, integer, integer, integer, integer, integer, integer);
--> statement-breakpoint
DROP FUNCTION IF EXISTS begin_turn(text, text, uuid, uuid, text, integer, text, integer, integer, bigint, integer, text, integer, text, integer, integer, integer, text, integer, integer, integer, integer, integer, integer, integer);
