CREATE TABLE "public_content_version" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "public_content_version_single_row" CHECK ("public_content_version"."id")
);
--> statement-breakpoint
INSERT INTO "public_content_version" DEFAULT VALUES;
--> statement-breakpoint
-- Every statement that changes what visitors see bumps the version in its own transaction, so
-- the pages kept for visitors are stale the moment the change commits, on every instance.
-- The body this migration wrote is history (git has it); the function's live definition is
-- app/db/functions/bump_public_content_version.sql, applied after the migrations. Declared here so what follows can use it.
CREATE OR REPLACE FUNCTION bump_public_content_version() RETURNS trigger AS $$ BEGIN RETURN NULL; END; $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER games_public_content_version
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON games
FOR EACH STATEMENT EXECUTE FUNCTION bump_public_content_version();
--> statement-breakpoint
CREATE TRIGGER game_content_public_content_version
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON game_content
FOR EACH STATEMENT EXECUTE FUNCTION bump_public_content_version();
--> statement-breakpoint
CREATE TRIGGER guides_public_content_version
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON guides
FOR EACH STATEMENT EXECUTE FUNCTION bump_public_content_version();
