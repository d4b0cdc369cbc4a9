-- begin_turn_for_session answers whose turn it is (the user, the session and its expiry), so that
-- the turn's stream ends with its session. Its result columns cannot change in place: the old
-- function goes, and app/db/functions/ creates it anew after the migrations.
DROP FUNCTION IF EXISTS begin_turn_for_session(text, timestamptz, boolean, text, uuid, uuid, text, integer, text, integer, integer, bigint, integer, text, integer, text, integer, integer, integer, text, integer, integer, integer, integer, integer, integer, integer);
