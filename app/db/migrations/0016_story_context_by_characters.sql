ALTER TABLE "game_messages" ADD COLUMN "characters" integer GENERATED ALWAYS AS (length("content")) STORED NOT NULL;--> statement-breakpoint
-- story_context (migration 0011) without its loop (issue 18). The loop read the newest messages
-- one by one and stopped where the character budget was spent: a few microseconds of PL/pgSQL a
-- row, which a story of short exchanges paid on every one of the up to 2 × p_max_exchanges rows
-- in reach (1.9 ms of a turn's 5 in the bench). Now one query measures the messages in reach,
-- newest first, by their stored length (the characters column: a long reply left out is never
-- read), and keeps those the newer ones leave room for — the same messages, in the same order.
-- The body this migration wrote is history (git has it); the function's live definition is
-- app/db/functions/story_context.sql, applied after the migrations. Declared here so what follows can use it.
CREATE OR REPLACE FUNCTION story_context(p_story_id uuid, p_before integer, p_max_exchanges integer, p_max_characters integer)
RETURNS TABLE (opening text, recent text) AS $$ BEGIN END; $$ LANGUAGE plpgsql STABLE;
