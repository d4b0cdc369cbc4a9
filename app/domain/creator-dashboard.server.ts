import { and, desc, eq, sql } from "drizzle-orm";
import { db } from "../db/database.server.ts";
import { games, worldEarnings } from "../db/schema.ts";
import { env } from "../env.server.ts";
import { likeCount, playCount } from "./community.server.ts";

/**
 * A creator's dashboard (issue 36, docs/decisions/065): each of their worlds with its plays, likes,
 * the paid turns other players took in it and the credits those earned (world_earnings, written
 * by credit_world_creator.sql), and what they earned today against the operator's daily cap.
 */

const earned = (column: typeof worldEarnings.paidTurns | typeof worldEarnings.credits) =>
  sql<number>`(select coalesce(sum(${column}), 0)::int from ${worldEarnings} where ${worldEarnings.gameId} = ${games.id})`;

export async function creatorDashboard(userId: string) {
  const worlds = await db()
    .select({
      id: games.id,
      slug: games.slug,
      title: games.title,
      status: games.status,
      plays: playCount,
      likes: likeCount,
      paidTurns: earned(worldEarnings.paidTurns),
      credits: earned(worldEarnings.credits),
    })
    .from(games)
    .where(eq(games.creatorId, userId))
    .orderBy(desc(games.updatedAt));
  const [today] = await db()
    .select({ credits: sql<number>`coalesce(sum(${worldEarnings.credits}), 0)::int` })
    .from(worldEarnings)
    .where(and(eq(worldEarnings.creatorId, userId), eq(worldEarnings.day, sql`(now() at time zone 'UTC')::date`)));
  const { CREATOR_PAID_TURNS_PER_CREDIT, CREATOR_CREDITS_PER_DAY } = env();
  return {
    worlds,
    totalCredits: worlds.reduce((sum, world) => sum + world.credits, 0),
    creditsToday: today?.credits ?? 0,
    rule: { paidTurnsPerCredit: CREATOR_PAID_TURNS_PER_CREDIT, creditsPerDay: CREATOR_CREDITS_PER_DAY },
  };
}
