import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { games, user } from "#app/db/schema.ts";
import { queryRows, testDatabaseForFile } from "#tests/helpers/database.ts";
import { seedStory } from "#tests/helpers/stories.ts";

/**
 * A turn reads its own story's messages, never other players' (app/db/functions/story_messages.sql).
 * The database here has no statistics, as PGlite's never has and PostgreSQL's has not before it
 * analyzes a table that grew. A plain join of the story's chain to the messages was planned there
 * as a read of the exchange range of every story, hashed on the story's id.
 */

const testDatabase = testDatabaseForFile();
const STORIES = 12;
const EXCHANGES = 60;

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  Plans?: PlanNode[];
}

/** Rows read from game_messages by every scan of it in the plan. */
function messageRowsRead(node: PlanNode): number {
  const own = node["Relation Name"] === "game_messages" ? node["Actual Rows"] * node["Actual Loops"] : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + messageRowsRead(child), 0);
}

async function planOf(query: ReturnType<typeof sql>) {
  const [row] = await queryRows<{ "QUERY PLAN": [{ Plan: PlanNode }] | string }>(
    testDatabase.connection().db,
    sql`explain (analyze, format json) ${query}`,
  );
  const plan = row!["QUERY PLAN"];
  return (typeof plan === "string" ? (JSON.parse(plan) as [{ Plan: PlanNode }]) : plan)[0].Plan;
}

describe("a story's messages", () => {
  it("are read from that story's range of the index, however many stories share the exchange numbers", async () => {
    const { db } = testDatabase.connection();
    await db.insert(games).values({ slug: "plan-game", title: "Plan game", description: "A game.", prompt: "Narrate." });
    const storyIds: string[] = [];
    for (let index = 0; index < STORIES; index += 1) {
      const userId = `plan-player-${index}`;
      await db.insert(user).values({ id: userId, name: userId, email: `${userId}@example.com` });
      const exchanges = Array.from({ length: EXCHANGES }, (_, exchange) => ({ message: `Act ${exchange}`, reply: `Reply ${exchange}` }));
      storyIds.push(await seedStory(db, { userId, gameSlug: "plan-game", exchanges }));
    }
    const storyId = storyIds[5]!;

    const window = await planOf(sql`select * from story_messages(${storyId}::uuid, 11, 50)`);
    expect(messageRowsRead(window)).toBe(80);
    const opening = await planOf(sql`select * from story_messages(${storyId}::uuid, 1, 1)`);
    expect(messageRowsRead(opening)).toBe(2);

    const [read] = await queryRows<{ count: number; stories: number }>(
      db,
      sql`select count(*)::int as count, count(distinct story_id)::int as stories from story_messages(${storyId}::uuid, 11, 50)`,
    );
    expect(read).toEqual({ count: 80, stories: 1 });
  });
});
