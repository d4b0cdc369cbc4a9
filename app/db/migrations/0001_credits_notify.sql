-- Every change of a balance is announced on the `credits_changed` channel, so each server
-- instance can push it to that player's open tabs (LISTEN/NOTIFY works on PGlite too).
-- The body this migration wrote is history (git has it); the function's live definition is
-- app/db/functions/notify_credits_changed.sql, applied after the migrations. Declared here so what follows can use it.
CREATE OR REPLACE FUNCTION notify_credits_changed() RETURNS trigger AS $$ BEGIN RETURN NULL; END; $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER profiles_credits_changed
AFTER INSERT OR UPDATE OF credits ON profiles
FOR EACH ROW EXECUTE FUNCTION notify_credits_changed();
