-- A published version keeps its lorebook and world content sections too (docs/decisions/065). The
-- versions published before this keep what the game holds now: the nearest record there is.
ALTER TABLE "world_versions" ADD COLUMN "lore" jsonb;--> statement-breakpoint
ALTER TABLE "world_versions" ADD COLUMN "sections" jsonb;--> statement-breakpoint
UPDATE world_versions AS v SET
  lore = coalesce((
    SELECT jsonb_agg(jsonb_build_object('source', 'game', 'title', l.title, 'keys', l.keys, 'content', l.content,
        'alwaysOn', l.always_on, 'priority', l.priority, 'enabled', l.enabled) ORDER BY l.created_at, l.id)
      FROM game_lore_entries AS l WHERE l.game_slug = g.slug AND l.enabled
  ), '[]'::jsonb),
  sections = coalesce((
    SELECT jsonb_agg(jsonb_build_array(c.content_type, c.title, c.content) ORDER BY c.section_order, c.created_at)
      FROM game_content AS c
      WHERE c.game_slug = g.slug AND c.is_published AND c.content_type IN ('story_background', 'world_setting',
        'character_development', 'dialogue_system', 'combat_mechanics', 'character_progression', 'introduction')
  ), '[]'::jsonb)
FROM games AS g WHERE g.id = v.game_id;--> statement-breakpoint
ALTER TABLE "world_versions" ALTER COLUMN "lore" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "world_versions" ALTER COLUMN "sections" SET NOT NULL;--> statement-breakpoint
-- story_lore reads the story's world version too: the old signature goes, and app/db/functions/
-- creates the new one after the migrations.
DROP FUNCTION IF EXISTS story_lore(uuid, text);
