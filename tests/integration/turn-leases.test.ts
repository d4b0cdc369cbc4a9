import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { gameMessages, games, replyVersions, stories } from "#app/db/schema.ts";
import { TURN_SWEEP_MS } from "#app/domain/game-master/turn-leases.server.ts";
import { PLAY_TEXTS, PLAY_TOASTS, STORY_REFUSALS } from "#app/lib/play-texts.ts";
import { apiRequest, signUp, type ApiInit, type TestAccount } from "#tests/helpers/accounts.ts";
import { balanceAndLedger, createTestGame, eventually, postChat, readTurn, withStoryTestServer, TEST_GAME } from "#tests/helpers/game-chat.ts";
import type { TestServer } from "#tests/helpers/server.ts";
import { beginStory, playingStory, storyOf } from "#tests/helpers/stories.ts";
import type { FakeModelServer } from "#tests/fakes/streaming-model.ts";

/**
 * Turns that outlive their page (issue 16) against a real server and a local OpenAI-compatible
 * model: stored when they start, attached to by a returning page, settled by whoever finds them
 * after their instance stopped renewing the lease, and announced to the player's other tabs.
 */

let model: FakeModelServer;
let server: TestServer;
withStoryTestServer((started) => ({ model, server } = started));

const api = (account: TestAccount | null, path: string, init?: ApiInit) => apiRequest(server, account, path, init);

describe("a turn that outlives its page", () => {
  it("is stored when it starts: the story shows the message at once, and a returning page attaches to the reply", async () => {
    const { player, storyId } = await playingStory(server);
    const tokens = Array.from({ length: 20 }, (_, index) => `w${index} `);
    model.script(() => ({ tokens, tokenDelayMs: 25 }));
    const controller = new AbortController();
    const sending = await server.fetch("/api/game-chat", {
      method: "POST",
      headers: { Authorization: `Bearer ${player.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ message: "I leave mid-reply.", game_slug: TEST_GAME.slug }),
      signal: controller.signal,
    });
    const reader = sending.body!.getReader();
    let received = "";
    while (!received.includes("w2 ")) received += new TextDecoder().decode((await reader.read()).value);
    controller.abort(); // The tab is closed.

    const mid = await storyOf(server, player, storyId);
    expect(mid.busy).toBe(true);
    expect(mid.messages.at(-2)).toMatchObject({ role: "user", content: "I leave mid-reply." });
    expect(mid.messages.at(-1)).toMatchObject({ role: "assistant", status: "streaming" });
    // The page comes back: the reply so far at once, then the rest.
    const attached = await readTurn(await api(player, `/api/stories/${storyId}/reply`));
    expect(attached.done).toBe(true);
    expect(attached.text).toBe(tokens.join(""));
    expect(attached.pieces[0]!.length).toBeGreaterThan(3);

    const after = await storyOf(server, player, storyId);
    expect(after.busy).toBe(false);
    expect(after.messages.at(-1)).toMatchObject({ content: tokens.join(""), status: "complete" });
    // A second turn cannot start while one is in flight; once settled, the next one can.
    expect((await api(player, `/api/stories/${storyId}/reply`)).status).toBe(204);
  });

  it("is settled, refunded, by whoever finds it after its instance stopped renewing its lease; the player's message stays", async () => {
    const { player, storyId } = await playingStory(server);
    model.script(() => ({ hang: true }));
    const hanging = postChat(server, player, { message: "Into the void.", game_slug: TEST_GAME.slug });
    await eventually(async () => ((await storyOf(server, player, storyId)).busy ? true : undefined));
    // The instance holding the turn "dies": its lease runs out without a heartbeat.
    await server.connection.db
      .update(stories)
      .set({ activeTurnLeaseUntil: sql`now() - interval '1 second'` })
      .where(eq(stories.id, storyId));
    const settled = await storyOf(server, player, storyId);
    expect(settled.busy).toBe(false);
    expect(settled.messages.slice(-2)).toMatchObject([
      { role: "user", content: "Into the void.", status: "complete" },
      { role: "assistant", content: "", status: "interrupted" },
    ]);
    // An export says what became of the reply.
    const exported = await (await api(player, `/api/stories/${storyId}/export?format=markdown`)).text();
    expect(exported).toContain(`**You:**\n\nInto the void.\n\n**Game Master:**\n\n*${PLAY_TEXTS.interruptedReply}*`);
    await hanging.then(readTurn);
    expect(await balanceAndLedger(player)).toEqual({ balance: 19, ledger: 19 });
  });

  it("is settled by an instance's sweeper, with no page read or turn to find it", async () => {
    const { player, storyId } = await playingStory(server);
    // A turn begun by an instance that died at once: no one holds it, and its lease has run out.
    await server.connection.db.execute(
      sql`SELECT * FROM begin_turn(${player.userId}, NULL, NULL, false, NULL, ${storyId}::uuid, gen_random_uuid(), 'send', NULL, 'Lost with its server.', 1, 0, (extract(epoch FROM now()) * 1000)::bigint, 60000, 'test-chat', 1000, 'test-failed', 1000, 60000, 1, 'test', 0, 0, 0, 0, 10, 100000, 1000)`,
    );
    expect(await balanceAndLedger(player)).toEqual({ balance: 18, ledger: 18 });
    // Read without settling: the sweeper (every TURN_SWEEP_MS) is what must find it.
    const activeTurn = async () =>
      (await server.connection.db.select({ turn: stories.activeTurnId }).from(stories).where(eq(stories.id, storyId)))[0]?.turn;
    await eventually(async () => ((await activeTurn()) === null ? true : undefined), 2 * TURN_SWEEP_MS);
    const replies = await server.connection.db
      .select({ content: gameMessages.content, status: gameMessages.status })
      .from(gameMessages)
      .where(and(eq(gameMessages.storyId, storyId), eq(gameMessages.exchange, 3)));
    expect(replies).toEqual(
      expect.arrayContaining([
        { content: "Lost with its server.", status: "complete" },
        { content: "", status: "interrupted" },
      ]),
    );
    expect(await balanceAndLedger(player)).toEqual({ balance: 19, ledger: 19 });
  });

  it("refuses Retry and Continue on a lost reply, spending nothing; Send again answers it", async () => {
    const { player, storyId } = await playingStory(server);
    await server.connection.db.execute(
      sql`SELECT * FROM begin_turn(${player.userId}, NULL, NULL, false, NULL, ${storyId}::uuid, gen_random_uuid(), 'send', NULL, 'Lost with its server.', 1, 0, (extract(epoch FROM now()) * 1000)::bigint, 60000, 'test-chat', 1000, 'test-failed', 1000, 60000, 1, 'test', 0, 0, 0, 0, 10, 100000, 1000)`,
    );
    expect((await storyOf(server, player, storyId)).messages.at(-1)).toMatchObject({ content: "", status: "interrupted" });
    const before = { story: await storyOf(server, player, storyId), credits: await balanceAndLedger(player) };

    for (const control of ["retry", "continue"]) {
      const refused = await api(player, `/api/stories/${storyId}/${control}`, { body: { exchange: 3 } });
      expect({ control, status: refused.status, body: await refused.json() }).toEqual({
        control,
        status: 409,
        body: { code: "story_changed", error: STORY_REFUSALS.lost },
      });
    }
    expect(await storyOf(server, player, storyId)).toEqual(before.story);
    expect(await balanceAndLedger(player)).toEqual(before.credits);
    const lostReply = before.story.messages.at(-1)!.id;
    expect(await server.connection.db.select().from(replyVersions).where(eq(replyVersions.messageId, lostReply))).toEqual([]);

    model.script(() => ({ tokens: ["Found ", "again."] }));
    const sentAgain = await readTurn(
      await api(player, `/api/stories/${storyId}/edit`, { body: { exchange: 3, message: "Lost with its server." } }),
    );
    expect(sentAgain).toMatchObject({ text: "Found again.", done: true });
    expect((await storyOf(server, player, storyId)).messages.slice(-2)).toMatchObject([
      { role: "user", content: "Lost with its server.", status: "complete" },
      { role: "assistant", content: "Found again.", status: "complete" },
    ]);
    expect(await balanceAndLedger(player)).toEqual({ balance: before.credits.balance - 1, ledger: before.credits.ledger - 1 });
  });

  it("is settled by the next turn itself, which then begins in its place", async () => {
    const { player, storyId } = await playingStory(server);
    model.script(() => ({ hang: true }));
    const hanging = postChat(server, player, { message: "Into the void.", game_slug: TEST_GAME.slug });
    await eventually(async () => ((await storyOf(server, player, storyId)).busy ? true : undefined));
    await server.connection.db
      .update(stories)
      .set({ activeTurnLeaseUntil: sql`now() - interval '1 second'` })
      .where(eq(stories.id, storyId));
    // No page read settles it first: the next turn finds the call abandoned, refunds it and begins.
    model.script(() => ({ tokens: ["The ", "lamp ", "relit."] }));
    const next = await readTurn(await postChat(server, player, { message: "I light the lamp again.", game_slug: TEST_GAME.slug }));
    expect(next).toMatchObject({ text: "The lamp relit.", done: true });
    await hanging.then(readTurn);
    const contents = (await storyOf(server, player, storyId)).messages.map((message) => message.content);
    expect(contents.slice(-4)).toEqual(["Into the void.", "", "I light the lamp again.", "The lamp relit."]);
    // The model is not shown the exchange it never answered.
    expect(JSON.stringify(model.requests.at(-1)!.body.messages)).not.toContain("Into the void.");
    // 20 − the first turn − the abandoned one (refunded) − this one.
    expect(await balanceAndLedger(player)).toEqual({ balance: 18, ledger: 18 });
  });

  it("refuses a control on a story whose game was retired, spending nothing", async () => {
    const slug = await createTestGame(server, { slug: "retired-harbor" });
    const player = await signUp(server);
    const storyId = await beginStory(server, player, slug);
    model.script(() => ({ tokens: ["Never ", "written."] }));
    expect((await readTurn(await postChat(server, player, { message: "I sail in.", game_slug: slug }))).done).toBe(true);
    await server.connection.db.update(games).set({ isActive: false }).where(eq(games.slug, slug));
    const refused = await api(player, `/api/stories/${storyId}/retry`, { body: { exchange: 2 } });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ code: "not_found", error: PLAY_TOASTS.gameNotFound.description });
    expect(await balanceAndLedger(player)).toEqual({ balance: 19, ledger: 19 });
  });

  it("tells the player's other tabs about every change on the live channel", async () => {
    const { player, storyId } = await playingStory(server);
    const controller = new AbortController();
    const live = await server.fetch("/api/credits/events", { headers: { Authorization: `Bearer ${player.token}` }, signal: controller.signal });
    const reader = live.body!.getReader();
    let received = "";
    const untilStoryEvent = async () => {
      while (!/event: story\ndata: \{"storyId":"[^"]+","gameSlug":"[^"]+","revision":\d+\}/.test(received))
        received += new TextDecoder().decode((await reader.read()).value);
    };
    await api(player, `/api/stories/${storyId}/undo`, { body: { exchange: 2 } });
    await untilStoryEvent();
    expect(received).toContain(`"storyId":"${storyId}","gameSlug":"${TEST_GAME.slug}"`);
    controller.abort();
  });
});
