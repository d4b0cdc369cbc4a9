-- Each instance keeps the public content version in memory and learns of each new one by this
-- notification, which PostgreSQL sends when the change commits (docs/decisions/026). On the
-- version row itself (the trigger public_content_version_notify), so a bump by hand is heard as
-- well as one by bump_public_content_version.sql.
CREATE OR REPLACE FUNCTION notify_public_content_version() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('public_content_version', NEW.version::text);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
