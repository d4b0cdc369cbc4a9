-- A world's lorebook lives where a game's does (docs/decisions/065): the entries an imported
-- character card kept in games.lorebook become game_lore_entries rows, so turns, "What the Game
-- Master sees" and published versions read them. Each row's `extra` keeps the card entry's fields
-- besides content, constant and enabled as they were (its keys and insertion_order too), so the
-- card is written again as it came (app/domain/character-cards.server.ts reads them the same way).
ALTER TABLE "game_lore_entries" ADD COLUMN "extra" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
INSERT INTO "game_lore_entries" ("game_slug", "title", "keys", "content", "always_on", "priority", "enabled", "extra", "created_at", "updated_at")
SELECT g."slug",
  left(coalesce(
    (SELECT btrim(t.value #>> '{}') FROM jsonb_array_elements(
        jsonb_build_array(e.value -> 'extra' -> 'name', e.value -> 'extra' -> 'comment') || coalesce(e.value -> 'keys', '[]'::jsonb)
      ) WITH ORDINALITY AS t(value, n)
      WHERE jsonb_typeof(t.value) = 'string' AND btrim(t.value #>> '{}') <> '' ORDER BY t.n LIMIT 1),
    'Untitled entry'), 100),
  coalesce((SELECT string_agg(btrim(k.value), ', ' ORDER BY k.n) FROM jsonb_array_elements_text(coalesce(e.value -> 'keys', '[]'::jsonb))
      WITH ORDINALITY AS k(value, n) WHERE btrim(k.value) <> ''), ''),
  coalesce(e.value ->> 'content', ''),
  coalesce((e.value ->> 'constant')::boolean, false),
  greatest(-1000, least(1000, round(coalesce((e.value ->> 'order')::numeric, 0))))::integer,
  coalesce((e.value ->> 'enabled')::boolean, true),
  coalesce(e.value -> 'extra', '{}'::jsonb)
    || jsonb_build_object('keys', coalesce(e.value -> 'keys', '[]'::jsonb), 'insertion_order', coalesce(e.value -> 'order', '0'::jsonb)),
  now() + e.n * interval '1 millisecond',
  now()
FROM "games" AS g, jsonb_array_elements(g."lorebook") WITH ORDINALITY AS e(value, n)
WHERE jsonb_typeof(g."lorebook") = 'array';--> statement-breakpoint
ALTER TABLE "games" DROP COLUMN "lorebook";
