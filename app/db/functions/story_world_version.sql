-- The world version a story begins with (docs/decisions/065): another player's story of a
-- published world plays its latest published version, until they choose Update to version N. The
-- site's games, and a creator's own stories of their world, play the game as it is (NULL). Asked
-- wherever a story is inserted (begin_turn.sql, New story in app/domain/story-library.server.ts).
CREATE OR REPLACE FUNCTION story_world_version(p_user_id text, p_game_slug text)
RETURNS integer AS $$
  SELECT g.published_version FROM games AS g
    WHERE g.slug = p_game_slug AND g.is_active AND g.creator_id IS NOT NULL AND g.creator_id <> p_user_id;
$$ LANGUAGE sql STABLE;
