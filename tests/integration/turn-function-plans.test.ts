import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { games, profiles, user } from "#app/db/schema.ts";
import { queryRows, testDatabaseForFile } from "#tests/helpers/database.ts";
import { OPENING_EXCHANGE, seedStory } from "#tests/helpers/stories.ts";

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
        sql`select outcome, reply_id from begin_turn(${userId}, null, null, false, 'plans-game', ${storyId}::uuid, ${turnId}::uuid,
          'send', null, 'I open the door.', 1, 60, ${Date.now()}::bigint, 60000, 'chat', 100, 'failed-replies', 10, 600000, 0, 'test',
          100, 100, 100, 100, 40, 28000, 10)`,
      );
      expect(begun?.outcome).toBe("started");
      const call = {
        kind: "send",
        provider: "openai-compatible",
        model: "planner",
        inputTokens: 100,
        cachedInputTokens: 0,
        cacheWriteTokens: 0,
        outputTokens: 5,
        reasoningTokens: 0,
        estimated: false,
        firstTokenMs: 1,
        totalMs: 2,
        outcome: "ok",
        replyId: begun!.reply_id,
        replyVersion: 1,
        context: { sections: [], loreCut: [], budgetTokens: 8000 },
      };
      const [finished] = await queryRows<{ outcome: string }>(
        tx,
        sql`select outcome from finish_turn(${storyId}::uuid, ${turnId}::uuid, 'The door opens.', null, null, 'openai-compatible',
          'planner', ${JSON.stringify(call)}::jsonb, 20, 50)`,
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
