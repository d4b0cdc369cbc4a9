-- Every new user, however created (email and password, Google, a script), receives the starter
-- credits in the same statement that creates the user: a profile and a `signup_bonus` ledger row
-- keyed by the user id, so the grant exists exactly once. The amount is STARTER_CREDITS in
-- app/lib/constants.ts; a test keeps the two equal.
-- The body this migration wrote is history (git has it); the function's live definition is
-- app/db/functions/grant_signup_bonus.sql, applied after the migrations. Declared here so what follows can use it.
CREATE OR REPLACE FUNCTION grant_signup_bonus() RETURNS trigger AS $$ BEGIN RETURN NULL; END; $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER user_signup_bonus
AFTER INSERT ON "user"
FOR EACH ROW EXECUTE FUNCTION grant_signup_bonus();
