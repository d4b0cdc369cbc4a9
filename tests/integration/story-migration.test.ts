import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows, upgradedDatabaseForFile } from "#tests/helpers/database.ts";

/**
 * Migration 0005 turns each player's messages in a game into one story of numbered exchanges,
 * on a database written before stories existed.
 */

const BEFORE_STORIES = 5;

// Rows as the releases before the migrations under test wrote them.
const database = upgradedDatabaseForFile(BEFORE_STORIES, async (db) => {
  await db.execute(
    sql`insert into "user" (id, name, email, email_verified) values ('old-player', 'Old', 'old@example.com', true), ('other', 'Other', 'other@example.com', true)`,
  );
  await db.execute(
    sql`insert into games (slug, title, tagline, description, prompt) values ('old-game', 'Old Game', '-', '-', '-'), ('second-game', 'Second', '-', '-', '-')`,
  );
  await db.execute(sql`insert into game_messages (user_id, game_slug, role, content) values
    ('old-player', 'old-game', 'user', 'move 1'), ('old-player', 'old-game', 'assistant', 'reply 1'),
    ('other', 'old-game', 'user', 'their move'), ('other', 'old-game', 'assistant', 'their reply'),
    ('old-player', 'old-game', 'user', 'move 2'), ('old-player', 'old-game', 'assistant', 'reply 2a'), ('old-player', 'old-game', 'assistant', 'reply 2b'),
    ('old-player', 'second-game', 'user', 'elsewhere'), ('old-player', 'second-game', 'assistant', 'elsewhere reply')`);
});

describe("migrating messages into stories", () => {
  it("makes one story per player and game, counting its exchanges", async () => {
    const rows = await queryRows<{ user_id: string; game_slug: string; exchanges: number }>(
      database.connection().db,
      sql`select user_id, game_slug, exchanges from stories order by user_id, game_slug`,
    );
    expect(rows).toEqual([
      { user_id: "old-player", game_slug: "old-game", exchanges: 2 },
      { user_id: "old-player", game_slug: "second-game", exchanges: 1 },
      { user_id: "other", game_slug: "old-game", exchanges: 1 },
    ]);
  });

  it("numbers each message with its exchange, and keeps a second reply to one message aside, the newest in the story", async () => {
    const rows = await queryRows<{ content: string; exchange: number; removal: string | null }>(
      database.connection().db,
      sql`select m.content, m.exchange, m.removal from game_messages m join stories s on s.id = m.story_id
          where s.user_id = 'old-player' and s.game_slug = 'old-game' order by m.id`,
    );
    expect(rows).toEqual([
      { content: "move 1", exchange: 1, removal: null },
      { content: "reply 1", exchange: 1, removal: null },
      { content: "move 2", exchange: 2, removal: null },
      { content: "reply 2a", exchange: 2, removal: "edited" },
      { content: "reply 2b", exchange: 2, removal: null },
    ]);
  });
});
