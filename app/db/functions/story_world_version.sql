-- Trigger (BEFORE INSERT ON stories, migration 0027): a story another player begins in a published
-- world plays the world's latest published version from then on, until they choose Update to
-- version N (docs/decisions/065). The site's games, drafts, and a creator's own stories of their
-- world play the game as it is (world_version stays null).
CREATE OR REPLACE FUNCTION story_world_version() RETURNS trigger AS $$
BEGIN
  IF NEW.world_version IS NULL THEN
    SELECT g.published_version INTO NEW.world_version FROM games AS g
      WHERE g.slug = NEW.game_slug AND g.creator_id IS NOT NULL AND g.creator_id <> NEW.user_id AND g.is_active;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
