import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { characterCardV3 } from "#app/domain/character-cards.server.ts";
import { DEFAULT_SCAN_DEPTH, type LoreEntryInput } from "#app/lib/lorebook.ts";
import type { JsonObject } from "#app/lib/worlds.ts";
import { v3Card } from "#tests/helpers/character-cards.ts";
import { queryRows, upgradedDatabaseForFile } from "#tests/helpers/database.ts";

/**
 * Migration 0037 on a database written before it: the lorebook an imported card kept in
 * games.lorebook becomes the game's lorebook entries (docs/decisions/065), in the card's order,
 * and the card is written from them as it came.
 */

const BEFORE_WORLD_LORE_ROWS = 37;

/** games.lorebook as 0022 stored v3Card's: keys, content, constant, enabled, order, and the rest in extra. */
const OLD_LOREBOOK = [
  {
    keys: ["eunuch", "Gao"],
    content: "Gao Lishi controls who reaches the throne.",
    constant: false,
    enabled: true,
    order: 10,
    extra: {
      extensions: { depth: 2 },
      use_regex: false,
      priority: 5,
      id: 1,
      comment: "The gatekeeper",
      selective: true,
      secondary_keys: ["palace"],
      position: "after_char",
    },
  },
  { keys: [], content: "The year is 690.", constant: true, enabled: false, order: 0, extra: { extensions: {}, use_regex: false } },
  { keys: [" storm ", "rain"], content: "It rains.", constant: false, enabled: true, order: 2500, extra: { name: "  " } },
];

// Rows as the releases before the migrations under test wrote them.
const database = upgradedDatabaseForFile(BEFORE_WORLD_LORE_ROWS, async (db) => {
  await db.execute(sql`insert into "user" (id, name, email, email_verified) values ('maker', 'Maker', 'maker@example.com', true)`);
  await db.execute(sql`insert into games (slug, title, description, prompt, creator_id, status, is_active, lorebook) values
    ('carded', 'Carded', '-', '-', 'maker', 'draft', false, ${JSON.stringify(OLD_LOREBOOK)}::jsonb),
    ('bare', 'Bare', '-', '-', 'maker', 'draft', false, '[]'::jsonb)`);
  await db.execute(sql`insert into game_lore_entries (game_slug, title, keys, content) values ('bare', 'Kept', 'k', 'An entry from before.')`);
});

type Row = LoreEntryInput & { slug: string; extra: JsonObject };

function rows() {
  return queryRows<Row>(
    database.connection().db,
    sql`select game_slug as slug, title, keys, content, always_on as "alwaysOn", priority, enabled, extra
      from game_lore_entries order by game_slug, created_at, id`,
  );
}

describe("moving worlds' card lorebooks into lorebook entries", () => {
  it("makes each card entry a row, its unused fields and original keys and order kept in extra", async () => {
    expect(await rows()).toEqual([
      { slug: "bare", title: "Kept", keys: "k", content: "An entry from before.", alwaysOn: false, priority: 0, enabled: true, extra: {} },
      {
        slug: "carded",
        title: "The gatekeeper",
        keys: "eunuch, Gao",
        content: "Gao Lishi controls who reaches the throne.",
        alwaysOn: false,
        priority: 10,
        enabled: true,
        extra: { ...OLD_LOREBOOK[0]!.extra, keys: ["eunuch", "Gao"], insertion_order: 10 },
      },
      {
        slug: "carded",
        title: "Untitled entry",
        keys: "",
        content: "The year is 690.",
        alwaysOn: true,
        priority: 0,
        enabled: false,
        extra: { extensions: {}, use_regex: false, keys: [], insertion_order: 0 },
      },
      {
        slug: "carded",
        title: "storm",
        keys: "storm, rain",
        content: "It rains.",
        alwaysOn: false,
        priority: 1000,
        enabled: true,
        extra: { name: "  ", keys: [" storm ", "rain"], insertion_order: 2500 },
      },
    ]);
  });

  it("drops games.lorebook", async () => {
    const columns = await queryRows<{ name: string }>(
      database.connection().db,
      sql`select column_name as name from information_schema.columns where table_name = 'games' and column_name = 'lorebook'`,
    );
    expect(columns).toEqual([]);
  });

  it("writes the migrated entries back as the card had them", async () => {
    const entries = (await rows()).filter((row) => row.slug === "carded").slice(0, 2);
    const card = characterCardV3({
      title: v3Card.data.name,
      instructions: "-",
      description: "-",
      opening: "",
      alternativeOpenings: [],
      tags: [],
      creatorNotes: "",
      lorebook: entries.map(({ slug: _slug, ...entry }) => entry),
      scanDepth: DEFAULT_SCAN_DEPTH,
      extra: { data: {} },
    });
    expect((card.data as { character_book: { entries: unknown[] } }).character_book.entries).toEqual(v3Card.data.character_book.entries);
  });
});
