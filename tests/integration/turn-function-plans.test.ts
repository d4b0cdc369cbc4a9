import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { games, profiles, user } from "#app/db/schema.ts";
import { queryRows, testDatabaseForFile } from "#tests/helpers/database.ts";
import { OPENING_EXCHANGE, seedStory } from "#tests/helpers/stories.ts";
import { beginTurnStatement, drizzleSql, finishTurnStatement } from "#tests/helpers/turn-statements.ts";

/**
 * Every function a turn calls has its queries planned once a connection. PostgreSQL inlines an SQL
 * function that is one SELECT into the query that calls it; any other SQL function (one that
 * answers a value from a FROM, or writes) has its body planned again on every call, on every turn.
 * PL/pgSQL keeps its plans. With track_functions = 'all' PostgreSQL counts the calls of every
 * function it did not inline, so a turn's list must hold no SQL function.
 */

const testDatabase = testDatabaseForFile();

describe("the functions a turn calls", () => {
  it("are all planned once a connection: none is an SQL function run apart from its caller", async () => {
    const { db } = testDatabase.connection();
    const userId = randomUUID();
    await db.insert(games).values({ slug: "plans-game", title: "Plans game", description: "A game.", prompt: "Narrate." });
    await db.insert(user).values({ id: userId, name: "Planner", email: "planner@example.com", emailVerified: true });
    await db
      .insert(profiles)
      .values({ userId, credits: 10 })
      .onConflictDoUpdate({ target: profiles.userId, set: { credits: 10 } });
    const storyId = await seedStory(db, { userId, gameSlug: "plans-game", exchanges: [OPENING_EXCHANGE, OPENING_EXCHANGE] });

    const called = await db.transaction(async (tx) => {
      await tx.execute(sql`set local track_functions = 'all'`);
      const turnId = randomUUID();
      const [begun] = await queryRows<{ outcome: string; reply_id: number }>(
        tx,
        drizzleSql(beginTurnStatement({ userId, gameSlug: "plans-game", storyId, turnId, message: "I open the door." })),
      );
      expect(begun?.outcome).toBe("started");
      const [finished] = await queryRows<{ outcome: string }>(
        tx,
        drizzleSql(finishTurnStatement({ storyId, turnId, reply: "The door opens.", replyId: begun!.reply_id })),
      );
      expect(finished?.outcome).toBe("stored");
      return queryRows<{ name: string; language: string }>(
        tx,
        sql`select f.funcname as name, l.lanname as language from pg_stat_xact_user_functions as f
          join pg_proc as p on p.oid = f.funcid join pg_language as l on l.oid = p.prolang order by f.funcname`,
      );
    });

    // The list can be read at all, and holds what a turn is known to call.
    expect(called.map((row) => row.name)).toEqual(
      expect.arrayContaining(["begin_turn", "consume_rate_limit", "finish_turn", "game_lore", "record_model_call", "story_context", "story_lore"]),
    );
    expect(called.filter((row) => row.language === "sql")).toEqual([]);
  });
});
