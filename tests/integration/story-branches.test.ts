import { and, eq, isNull, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { gameMessages, stories } from "#app/db/schema.ts";
import type { StoryBranch } from "#app/domain/story-branches.server.ts";
import type { ContextView } from "#app/lib/context-manifest.ts";
import { STORY_REFUSALS } from "#app/lib/play-texts.ts";
import type { StoryView } from "#app/lib/story-view.ts";
import { apiRequest, signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { postChat, readTurn, TEST_GAME, withStoryTestServer } from "#tests/helpers/game-chat.ts";
import type { TestServer } from "#tests/helpers/server.ts";
import { beginStory, storyOf } from "#tests/helpers/stories.ts";
import type { FakeModelServer } from "#tests/fakes/streaming-model.ts";

/**
 * Branches (issue 35, docs/decisions/063) against a real server and a local OpenAI-compatible
 * model: a branch's context is its parent's up to the fork, shared exchanges are never copied,
 * and Undo, Retry, Start Over and Delete on either side never change what the other reads.
 */

let model: FakeModelServer;
let server: TestServer;
withStoryTestServer((started) => ({ model, server } = started));

async function play(player: TestAccount, storyId: string, message: string) {
  const turn = await readTurn(await postChat(server, player, { message, game_slug: TEST_GAME.slug, story_id: storyId }));
  expect(turn.done).toBe(true);
  return model.requests.at(-1)!.body.messages;
}

async function branch(player: TestAccount, storyId: string, exchange: number) {
  const response = await apiRequest(server, player, `/api/stories/${storyId}/branches`, { body: { exchange } });
  expect(response.status).toBe(200);
  const answer = (await response.json()) as { id: string; exchanges: number; url: string };
  expect(answer.url).toBe(`/play/${TEST_GAME.slug}/${answer.id}`);
  return answer.id;
}

function control(player: TestAccount, storyId: string, path: string, exchange: number) {
  return apiRequest(server, player, `/api/stories/${storyId}/${path}`, { body: { exchange } });
}

/** What a story's page shows of it: each message's exchange, role and text. */
function shown(view: StoryView) {
  return view.messages.map(({ exchange, role, content }) => ({ exchange, role, content }));
}

/** A player with a story of an opening and `turns` played exchanges, memory and a lore entry. */
async function playedStory(turns: number) {
  const player = await signUp(server);
  const storyId = await beginStory(server, player, TEST_GAME.slug);
  const memory = { pinned_facts: "Ilse owes me a debt.", author_note: "Keep it tense.", summary: "" };
  expect((await apiRequest(server, player, `/api/stories/${storyId}/memory`, { method: "PUT", body: memory })).status).toBe(200);
  const lore = { title: "The dragon", keys: "dragon", content: "Vask sleeps under the lighthouse.", alwaysOn: true, priority: 5, enabled: true };
  expect((await apiRequest(server, player, `/api/stories/${storyId}/lore`, { body: lore })).status).toBe(200);
  const contexts: unknown[] = [];
  for (let turn = 2; turn <= turns + 1; turn += 1) contexts[turn] = await play(player, storyId, `Action ${turn}`);
  return { player, storyId, contexts };
}

/** Start Over (app/db/functions/clear_story.sql), as the play screen's More menu asks for it. */
async function startOver(player: TestAccount, storyId: string) {
  const [result] = await server.connection.db
    .select({ outcome: sql<string>`outcome`, deleted: sql<number>`deleted` })
    .from(sql`clear_story(${storyId}::uuid, ${player.userId})`);
  return result;
}

async function ownMessages(storyId: string) {
  return server.connection.db.$count(gameMessages, eq(gameMessages.storyId, storyId));
}

describe("Branch from here", () => {
  it("gives the model the same context in the branch as the parent had up to the fork, without copying an exchange", async () => {
    const { player, storyId, contexts } = await playedStory(5);
    const branchId = await branch(player, storyId, 3);
    expect(await ownMessages(branchId)).toBe(0);
    expect(shown(await storyOf(server, player, branchId))).toEqual(
      shown(await storyOf(server, player, storyId)).filter((message) => message.exchange <= 3),
    );

    // The branch's next turn is the parent's fourth, word for word: history, memory, lore and state as they stood.
    expect(await play(player, branchId, "Action 4")).toEqual(contexts[4]);
    // A branch of the branch, from a turn both share, reads through both.
    const twigId = await branch(player, branchId, 2);
    expect(await play(player, twigId, "Action 3")).toEqual(contexts[3]);
    expect(await ownMessages(twigId)).toBe(2);

    // The parent went on as it was.
    expect((await storyOf(server, player, storyId)).exchanges).toBe(6);
  });

  it("shows What the Game Master sees for a reply the branch shares, and for its own copy of one", async () => {
    const { player, storyId } = await playedStory(3);
    const branchId = await branch(player, storyId, 4);
    const replyOf = async (id: string) =>
      (await storyOf(server, player, id)).messages.find((message) => message.exchange === 4 && message.role === "assistant")!;
    const seen = async (id: string) => {
      const reply = await replyOf(id);
      const response = await apiRequest(server, player, `/api/stories/${id}/replies/${reply.id}/versions/${reply.version}/context`);
      expect(response.status).toBe(200);
      return ((await response.json()) as ContextView).calls.map((call) => call.manifest);
    };
    const parentView = await seen(storyId);
    expect(await seen(branchId)).toEqual(parentView);
    // A Retry in the parent at the fork point gives the branch a copy of that exchange: its call is still the original's.
    expect((await readTurn(await control(player, storyId, "retry", 4))).done).toBe(true);
    expect((await replyOf(branchId)).id).not.toBe((await replyOf(storyId)).id);
    expect(await seen(branchId)).toEqual(parentView);
  });

  it("refuses a turn the story no longer has, with a sentence", async () => {
    const { player, storyId } = await playedStory(1);
    const refused = await apiRequest(server, player, `/api/stories/${storyId}/branches`, { body: { exchange: 3 } });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toMatch(/not in this story any more/);
  });

  it("shows the family as a tree from its root, with fork points and latest lines", async () => {
    const { player, storyId } = await playedStory(3);
    const first = await branch(player, storyId, 2);
    const second = await branch(player, storyId, 4);
    const twig = await branch(player, first, 1);
    const response = await apiRequest(server, player, `/api/stories/${twig}/branches`);
    expect(response.status).toBe(200);
    const { root } = (await response.json()) as { root: StoryBranch };
    expect(root.id).toBe(storyId);
    expect(root.branches.map((child) => [child.id, child.forkExchange])).toEqual([
      [first, 2],
      [second, 4],
    ]);
    expect(root.branches[0]!.branches.map((child) => [child.id, child.forkExchange])).toEqual([[twig, 1]]);
    expect(root.branches[1]!.latestLines).toBe(root.latestLines);
  });
});

describe("changes on either side of a fork", () => {
  it("Undo in a branch at its fork point moves the fork point back and never touches the parent", async () => {
    const { player, storyId } = await playedStory(3);
    const before = shown(await storyOf(server, player, storyId));
    const branchId = await branch(player, storyId, 3);
    expect((await control(player, branchId, "undo", 3)).status).toBe(200);
    expect((await control(player, branchId, "undo", 2)).status).toBe(200);
    const undone = await storyOf(server, player, branchId);
    expect(undone.exchanges).toBe(1);
    expect(shown(undone)).toEqual(before.filter((message) => message.exchange === 1));
    expect(shown(await storyOf(server, player, storyId))).toEqual(before);
    const [row] = await server.connection.db.select({ fork: stories.forkExchange }).from(stories).where(eq(stories.id, branchId));
    expect(row!.fork).toBe(1);

    // The branch plays on from there; the parent still has all four.
    await play(player, branchId, "Another way");
    expect((await storyOf(server, player, branchId)).messages.at(-2)!.content).toBe("Another way");
    expect(shown(await storyOf(server, player, storyId))).toEqual(before);
  });

  it("Undo, Retry and Send again in the parent at a branch's fork point leave the branch reading what it shared", async () => {
    const { player, storyId } = await playedStory(3);
    const branchId = await branch(player, storyId, 4);
    const shared = shown(await storyOf(server, player, branchId));

    const retried = await readTurn(await control(player, storyId, "retry", 4));
    expect(retried.done).toBe(true);
    expect(shown(await storyOf(server, player, branchId))).toEqual(shared);
    expect(shown(await storyOf(server, player, storyId)).at(-1)!.content).not.toBe(shared.at(-1)!.content);

    expect((await control(player, storyId, "undo", 4)).status).toBe(200);
    const edited = await apiRequest(server, player, `/api/stories/${storyId}/edit`, { body: { exchange: 3, message: "Something else" } });
    expect((await readTurn(edited)).done).toBe(true);
    expect(shown(await storyOf(server, player, branchId))).toEqual(shared);
    // Only what changed under the branch was copied into it: two exchanges, two messages each,
    // each marked as a copy (the same turn: the admin overview counts it once).
    expect(await ownMessages(branchId)).toBe(4);
    expect(await server.connection.db.$count(gameMessages, and(eq(gameMessages.storyId, branchId), isNull(gameMessages.copiedFrom)))).toBe(0);
  });

  it("keeps a parent with branches: Delete and Start Over refuse with a sentence; a branch deleted leaves the parent whole", async () => {
    const { player, storyId } = await playedStory(2);
    const before = shown(await storyOf(server, player, storyId));
    const branchId = await branch(player, storyId, 2);

    const refused = await apiRequest(server, player, `/api/stories/${storyId}`, { method: "DELETE" });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: STORY_REFUSALS.branched, code: "conflict" });
    expect(await startOver(player, storyId)).toMatchObject({ outcome: "branched" });
    expect(shown(await storyOf(server, player, branchId))).toEqual(before.filter((message) => message.exchange <= 2));

    expect((await apiRequest(server, player, `/api/stories/${branchId}`, { method: "DELETE" })).status).toBe(200);
    expect(shown(await storyOf(server, player, storyId))).toEqual(before);
    expect((await apiRequest(server, player, `/api/stories/${storyId}`, { method: "DELETE" })).status).toBe(200);
  });

  it("lets a branch start over alone: it keeps nothing of the parent, which stays whole", async () => {
    const { player, storyId } = await playedStory(2);
    const before = shown(await storyOf(server, player, storyId));
    const branchId = await branch(player, storyId, 3);
    await play(player, branchId, "My own way");
    expect(await startOver(player, branchId)).toMatchObject({ outcome: "cleared", deleted: 8 });
    expect((await storyOf(server, player, branchId)).messages).toEqual([]);
    expect(shown(await storyOf(server, player, storyId))).toEqual(before);
    expect((await apiRequest(server, player, `/api/stories/${storyId}`, { method: "DELETE" })).status).toBe(200);
  });
});
