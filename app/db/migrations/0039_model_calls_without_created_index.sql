-- Every recorded model call wrote an index entry no query reads (issue 34): model_calls is read by
-- its reply (what the Game Master saw) and by game and time (the game editor's estimate), and the
-- overview reads the day totals (model_spend_days), never the calls by time alone.
DROP INDEX "model_calls_created_idx";
