import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows, upgradedDatabaseForFile } from "#tests/helpers/database.ts";

/**
 * Migrations 0034 and 0035 on a database written before them: the world versions published
 * already are given the lorebook and world content their game holds (docs/decisions/065), and the
 * days of spend already counted keep their part (docs/decisions/066).
 */

const BEFORE_WHOLE_VERSIONS = 34;

// Rows as the releases before the migrations under test wrote them.
const database = upgradedDatabaseForFile(BEFORE_WHOLE_VERSIONS, async (db) => {
  await db.execute(sql`insert into "user" (id, name, email, email_verified) values ('maker', 'Maker', 'maker@example.com', true)`);
  await db.execute(sql`insert into games (id, slug, title, description, prompt, creator_id, status, published_version) values
    ('00000000-0000-4000-8000-000000000001', 'old-world', 'Old World', '-', '-', 'maker', 'public', 1),
    ('00000000-0000-4000-8000-000000000002', 'bare-world', 'Bare World', '-', '-', 'maker', 'public', 1)`);
  await db.execute(sql`insert into world_versions (game_id, version, fields) values
    ('00000000-0000-4000-8000-000000000001', 1, '{"title": "Old World"}'),
    ('00000000-0000-4000-8000-000000000002', 1, '{"title": "Bare World"}')`);
  await db.execute(sql`insert into game_lore_entries (game_slug, title, keys, content, always_on, enabled) values
    ('old-world', 'The queen', 'queen', 'She is blind.', true, true), ('old-world', 'Switched off', 'off', 'Never sent.', false, false)`);
  await db.execute(sql`insert into game_content (game_slug, content_type, title, content, section_order) values
    ('old-world', 'world_setting', 'The court', 'Lanterns.', 1), ('old-world', 'pro_tips', 'Tips', 'For players only.', 0)`);
  await db.execute(sql`insert into model_spend_days (day, game_slug, provider, model, summaries, shard, calls, input_tokens,
      cached_input_tokens, output_tokens, spend, unpriced_calls) values
    ('2026-11-01', 'old-world', 'openai', 'model-a', false, 1, 3, 300, 0, 30, 0.5, 0),
    ('2026-11-01', 'old-world', 'openai', 'model-a', true, 1, 1, 100, 0, 10, 0.1, 0)`);
});

describe("migrating world versions whole, and spend into parts", () => {
  it("gives each version its game's enabled lorebook entries and world content sections", async () => {
    const rows = await queryRows<{ slug: string; lore: unknown; sections: unknown }>(
      database.connection().db,
      sql`select g.slug, v.lore, v.sections from world_versions v join games g on g.id = v.game_id order by g.slug`,
    );
    expect(rows).toEqual([
      { slug: "bare-world", lore: [], sections: [] },
      {
        slug: "old-world",
        lore: [{ source: "game", title: "The queen", keys: "queen", content: "She is blind.", alwaysOn: true, priority: 0, enabled: true }],
        sections: [["world_setting", "The court", "Lanterns."]],
      },
    ]);
  });

  it("keeps each day's turns and summaries apart as parts", async () => {
    const rows = await queryRows<{ part: string; calls: number }>(
      database.connection().db,
      sql`select part, calls from model_spend_days order by part`,
    );
    expect(rows).toEqual([
      { part: "summaries", calls: 1 },
      { part: "turns", calls: 3 },
    ]);
  });
});
