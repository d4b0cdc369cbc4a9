import { and, eq, sql } from "drizzle-orm";
import { stories } from "../db/schema.ts";
import { STORY_REFUSALS } from "../lib/play-texts.ts";
import { DomainError, NotFoundError } from "./errors.server.ts";
import type { Story } from "./stories.server.ts";
import { createStoryWithinLimits, listStories, type StorySummary } from "./story-library.server.ts";

/**
 * Branches (docs/decisions/063): Branch from here makes a new story that shares everything up to
 * one exchange of another — its exchanges read where they are stored, never copied; its memory,
 * author's note and lorebook copied as they are (they are a few rows) — and the Branches view
 * shows a story's family as a tree.
 */

export const BRANCH_REFUSALS = {
  noSuchExchange: "That turn is not in this story any more. The page now shows the latest version; try again.",
  writing: "The Game Master is still writing this reply. Branch from it once it is finished.",
} as const;

/**
 * Branch from here: a new story of the player's that shares `storyId`'s exchanges 1…`exchange`
 * and goes on from there. Free; counted against the player's story limits like New story. The
 * story so far is kept when it tells no further than the fork point, and otherwise left to be
 * written again from the branch's own exchanges (the summary keeps no history to cut it back).
 */
export function branchStory(userId: string, storyId: string, exchange: number): Promise<Story> {
  return createStoryWithinLimits(userId, async (tx) => {
    const [source] = await tx
      .select()
      .from(stories)
      .where(and(eq(stories.id, storyId), eq(stories.userId, userId)))
      .for("update");
    if (!source) throw new NotFoundError(STORY_REFUSALS.missing);
    if (exchange > source.exchanges) throw new DomainError("story_changed", BRANCH_REFUSALS.noSuchExchange);
    if (source.activeTurnId && exchange === source.exchanges) throw new DomainError("story_busy", BRANCH_REFUSALS.writing);
    const summaryHolds = source.summaryThrough <= exchange;
    const [branch] = await tx
      .insert(stories)
      .values({
        userId,
        gameSlug: source.gameSlug,
        parentStoryId: source.id,
        forkExchange: exchange,
        exchanges: exchange,
        pinnedFacts: source.pinnedFacts,
        authorNote: source.authorNote,
        summary: summaryHolds ? source.summary : "",
        summaryThrough: summaryHolds ? source.summaryThrough : 0,
        // A branch plays the world version its story played up to the fork (docs/decisions/065).
        worldVersion: source.worldVersion,
      })
      .returning({ id: stories.id });
    if (!branch) throw new Error("A branch was not stored.");
    await tx.execute(sql`insert into story_lore_entries (story_id, title, keys, content, always_on, priority, enabled, created_at)
      select ${branch.id}::uuid, title, keys, content, always_on, priority, enabled, created_at
        from story_lore_entries where story_id = ${source.id}::uuid`);
    return branch;
  });
}

/** A story of a family in the Branches view, with the branches made from it. */
export interface StoryBranch extends StorySummary {
  branches: StoryBranch[];
}

/**
 * The family of one of the player's stories as a tree: the story every branch of it began from
 * (its root), each story with the branches made from it, in order of their fork points.
 */
export async function storyFamily(userId: string, storyId: string): Promise<StoryBranch> {
  const tree = familyTrees(await listStories(userId));
  const member = tree.get(storyId);
  if (!member) throw new NotFoundError(STORY_REFUSALS.missing);
  let root = member;
  while (root.parentStoryId) {
    const parent = tree.get(root.parentStoryId);
    if (!parent) break;
    root = parent;
  }
  return root;
}

/** Every listed story by id, each with its branches (in order of their fork points, then of making). */
export function familyTrees(summaries: StorySummary[]): Map<string, StoryBranch> {
  const tree = new Map(summaries.map((summary) => [summary.id, { ...summary, branches: [] as StoryBranch[] }]));
  const byFork = [...tree.values()].toSorted((a, b) => a.forkExchange - b.forkExchange || a.createdAt.getTime() - b.createdAt.getTime());
  for (const branch of byFork) {
    if (branch.parentStoryId) tree.get(branch.parentStoryId)?.branches.push(branch);
  }
  return tree;
}

/** A family of stories for My Stories: the root, and every branch below it, depth first in order of fork points. */
export interface StoryFamily {
  root: StorySummary;
  branches: (StorySummary & { depth: number })[];
}

/**
 * The player's stories (listStories' order: most recently played first) grouped under the story
 * each family began from, the family played most recently first.
 */
export function storyFamilies(summaries: StorySummary[]): StoryFamily[] {
  const tree = familyTrees(summaries);
  const rootOf = (branch: StoryBranch): StoryBranch => {
    const parent = branch.parentStoryId ? tree.get(branch.parentStoryId) : undefined;
    return parent ? rootOf(parent) : branch;
  };
  const families = new Map<string, StoryFamily>();
  for (const member of tree.values()) {
    const root = rootOf(member);
    if (families.has(root.id)) continue;
    const branches: StoryFamily["branches"] = [];
    const descend = (branch: StoryBranch, depth: number) => {
      for (const child of branch.branches) {
        branches.push({ ...withoutBranches(child), depth });
        descend(child, depth + 1);
      }
    };
    descend(root, 1);
    families.set(root.id, { root: withoutBranches(root), branches });
  }
  return [...families.values()];
}

function withoutBranches({ branches: _branches, ...summary }: StoryBranch): StorySummary {
  return summary;
}
