-- Each instance keeps the public content version in memory and learns of each new one by this
-- notification, which PostgreSQL sends when the change commits (docs/decisions/026). On the
-- version row itself, so a bump by hand is heard as well as one by the content triggers.
-- The body this migration wrote is history (git has it); the function's live definition is
-- app/db/functions/notify_public_content_version.sql, applied after the migrations. Declared here so what follows can use it.
CREATE OR REPLACE FUNCTION notify_public_content_version() RETURNS trigger AS $$ BEGIN RETURN NULL; END; $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER public_content_version_notify
AFTER UPDATE ON public_content_version
FOR EACH ROW EXECUTE FUNCTION notify_public_content_version();
