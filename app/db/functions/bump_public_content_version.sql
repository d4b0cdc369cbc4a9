-- Every statement that changes what visitors see (games, game_content, guides: their triggers are
-- in the migrations) bumps the version in its own transaction, so the pages kept for visitors are
-- stale the moment the change commits, on every instance.
CREATE OR REPLACE FUNCTION bump_public_content_version() RETURNS trigger AS $$
BEGIN
  UPDATE public_content_version SET version = version + 1;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
