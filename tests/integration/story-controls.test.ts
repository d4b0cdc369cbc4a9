import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { gameMessages, replyVersions, user } from "#app/db/schema.ts";
import { signUp, type TestAccount, apiRequest, type ApiInit } from "#tests/helpers/accounts.ts";
import {
  balanceAndLedger,
  ledgerRows,
  postChat,
  readTurn,
  setBalance,
  withStoryTestServer,
  storedMessages,
  TEST_GAME,
} from "#tests/helpers/game-chat.ts";
import type { TestServer } from "#tests/helpers/server.ts";
import { beginStory, OPENING_EXCHANGE, playingStory, storyOf } from "#tests/helpers/stories.ts";
import type { FakeModelServer, RecordedRequest } from "#tests/fakes/streaming-model.ts";

/**
 * The story controls of issue 16 against a real server and a local OpenAI-compatible model:
 * Retry (versions), Continue, Edit, Undo, the free opening and Save Chat (turns that outlive their
 * page: turn-leases.test.ts).
 */

let model: FakeModelServer;
let server: TestServer;
withStoryTestServer((started) => ({ model, server } = started));

const api = (account: TestAccount | null, path: string, init?: ApiInit) => apiRequest(server, account, path, init);

function lastMessageSent(request: RecordedRequest) {
  return (request.body.messages as { role: string; content: string }[]).at(-1)?.content;
}

describe("Retry", () => {
  it("adds a version of the latest reply for 1 credit, keeps the earlier ones, and the story continues from the one on screen", async () => {
    const { player, storyId } = await playingStory(server);
    const first = (await storedMessages(server, player)).at(-1)!.content;
    const retried = await readTurn(await api(player, `/api/stories/${storyId}/retry`, { body: { exchange: 2 } }));
    expect(retried.done).toBe(true);
    expect(retried.text).not.toBe(first);
    expect(await balanceAndLedger(player)).toEqual({ balance: 18, ledger: 18 });

    let view = await storyOf(server, player, storyId);
    expect(view.messages.at(-1)).toMatchObject({ role: "assistant", content: retried.text, version: 2, versions: 2, status: "complete" });

    // Previous version: the first reply is back on screen, and it is what the model sees next.
    expect((await api(player, `/api/stories/${storyId}/version`, { body: { exchange: 2, version: 1 } })).status).toBe(200);
    view = await storyOf(server, player, storyId);
    expect(view.messages.at(-1)).toMatchObject({ content: first, version: 1, versions: 2 });
    await readTurn(await postChat(server, player, { message: "Action 2", game_slug: TEST_GAME.slug }));
    const request = model.requests.findLast((entry) => lastMessageSent(entry) === "Action 2")!;
    const sent = JSON.stringify(request.body.messages);
    expect(sent).toContain(first);
    expect(sent).not.toContain(retried.text);
    // Version switching is free.
    expect(await balanceAndLedger(player)).toEqual({ balance: 17, ledger: 17 });
  });

  it("of two Retry at once on one reply, one is played and the other refused with 409, spending nothing", async () => {
    const { player, storyId } = await playingStory(server);
    model.script(() => ({ tokens: ["A ", "slow ", "retry."], tokenDelayMs: 30 }));
    const [a, b] = await Promise.all([
      api(player, `/api/stories/${storyId}/retry`, { body: { exchange: 2 } }),
      api(player, `/api/stories/${storyId}/retry`, { body: { exchange: 2 } }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const refused = a.status === 409 ? a : b;
    expect(await refused.json()).toMatchObject({ code: "story_busy" });
    await readTurn(a.status === 200 ? a : b);
    expect(await balanceAndLedger(player)).toEqual({ balance: 18, ledger: 18 });
    const view = await storyOf(server, player, storyId);
    expect(view.messages.at(-1)).toMatchObject({ content: "A slow retry.", version: 2, versions: 2 });
  });

  it("refunds and returns to the version on screen when the model fails before any text", async () => {
    const { player, storyId } = await playingStory(server);
    await readTurn(await api(player, `/api/stories/${storyId}/retry`, { body: { exchange: 2 } }));
    await api(player, `/api/stories/${storyId}/version`, { body: { exchange: 2, version: 1 } });
    const before = await storyOf(server, player, storyId);
    model.script(() => ({ status: 500 }));
    const failed = await readTurn(await api(player, `/api/stories/${storyId}/retry`, { body: { exchange: 2 } }));
    expect(failed.error).toMatch(/refunded/);
    const after = await storyOf(server, player, storyId);
    expect(after.messages).toEqual(before.messages);
    expect(after.busy).toBe(false);
    expect(await balanceAndLedger(player)).toEqual({ balance: 18, ledger: 18 });
    const versions = await server.connection.db
      .select({ version: replyVersions.version })
      .from(replyVersions)
      .where(eq(replyVersions.messageId, after.messages.at(-1)!.id));
    expect(versions.map((row) => row.version).sort()).toEqual([1, 2]);
  });

  it("keeps what arrived as the new version, paid for, when the model is cut off after text", async () => {
    const { player, storyId } = await playingStory(server);
    model.script(() => ({ tokens: ["Half ", "a ", "reply"], cutAfter: 2, tokenDelayMs: 10 }));
    const cut = await readTurn(await api(player, `/api/stories/${storyId}/retry`, { body: { exchange: 2 } }));
    expect(cut.error).toMatch(/interrupted/);
    expect((await storyOf(server, player, storyId)).messages.at(-1)).toMatchObject({ content: "Half a ", version: 2, versions: 2 });
    expect(await balanceAndLedger(player)).toEqual({ balance: 18, ledger: 18 });
  });

  it("is free on the opening scene, and refuses a reply that is no longer the latest", async () => {
    const player = await signUp(server);
    const storyId = await beginStory(server, player, TEST_GAME.slug);
    expect((await readTurn(await api(player, `/api/stories/${storyId}/retry`, { body: { exchange: 1 } }))).done).toBe(true);
    expect(await balanceAndLedger(player)).toEqual({ balance: 20, ledger: 20 });
    const stale = await api(player, `/api/stories/${storyId}/retry`, { body: { exchange: 7 } });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({ code: "story_changed" });
  });
});

describe("Continue", () => {
  it("appends the Game Master's next words to the latest reply for 1 credit", async () => {
    const { player, storyId } = await playingStory(server);
    const before = (await storedMessages(server, player)).at(-1)!.content;
    model.script(() => ({ tokens: [" And ", "then the bell rang."] }));
    const continued = await readTurn(await api(player, `/api/stories/${storyId}/continue`, { body: { exchange: 2 } }));
    expect(continued.text).toBe(" And then the bell rang.");
    expect((await storedMessages(server, player)).at(-1)!.content).toBe(`${before} And then the bell rang.`);
    expect(await balanceAndLedger(player)).toEqual({ balance: 18, ledger: 18 });
    // The model was shown the reply to extend, then asked to go on.
    const request = model.requests.at(-1)!;
    const messages = request.body.messages as { role: string; content: string }[];
    expect(messages.at(-2)).toEqual({ role: "assistant", content: before });
    expect(lastMessageSent(request)).toMatch(/^\(Continue your last reply/);
  });

  it("goes on before the choices the reply ended with, so they stay its last part, unless it brings its own", async () => {
    const player = await signUp(server);
    const storyId = await beginStory(server, player, TEST_GAME.slug);
    model.script(() => ({ tokens: ["The hall falls silent.\n\n", "1. Summon the Regent.\n2. Wait."] }));
    await readTurn(await postChat(server, player, { message: "I listen.", game_slug: TEST_GAME.slug }));

    model.script(() => ({ tokens: ["\n\nA bell ", "rings below."] }));
    const continued = await readTurn(await api(player, `/api/stories/${storyId}/continue`, { body: { exchange: 2 } }));
    expect(continued.text).toBe("\n\nA bell rings below.");
    // The model goes on from the story's words, not from the list.
    const shown = (model.requests.at(-1)!.body.messages as { role: string; content: string }[]).at(-2);
    expect(shown).toEqual({ role: "assistant", content: "The hall falls silent." });
    const reply = (await storedMessages(server, player)).at(-1)!.content;
    expect(reply).toBe("The hall falls silent.\n\nA bell rings below.\n\n1. Summon the Regent.\n2. Wait.");

    model.script(() => ({ tokens: [" The doors open.\n\n1. Bow.\n2. Leave."] }));
    await readTurn(await api(player, `/api/stories/${storyId}/continue`, { body: { exchange: 2 } }));
    expect((await storedMessages(server, player)).at(-1)!.content).toBe(
      "The hall falls silent.\n\nA bell rings below. The doors open.\n\n1. Bow.\n2. Leave.",
    );
  });

  it("leaves the reply as it was and refunds when the model fails before any text", async () => {
    const { player, storyId } = await playingStory(server);
    const before = await storedMessages(server, player);
    model.script(() => ({ status: 500 }));
    expect((await readTurn(await api(player, `/api/stories/${storyId}/continue`, { body: { exchange: 2 } }))).error).toMatch(/refunded/);
    expect(await storedMessages(server, player)).toEqual(before);
    expect(await balanceAndLedger(player)).toEqual({ balance: 19, ledger: 19 });
  });
});

describe("Edit", () => {
  it("replaces the latest exchange with the edited message and a new reply for 1 credit, keeping the old one aside", async () => {
    const { player, storyId } = await playingStory(server);
    const edited = await readTurn(await api(player, `/api/stories/${storyId}/edit`, { body: { exchange: 2, message: "  Action 1, better.  " } }));
    expect(edited.done).toBe(true);
    expect(await storedMessages(server, player)).toEqual([
      { role: "user", content: OPENING_EXCHANGE.message },
      { role: "assistant", content: OPENING_EXCHANGE.reply },
      { role: "user", content: "Action 1, better." },
      { role: "assistant", content: edited.text },
    ]);
    expect(await balanceAndLedger(player)).toEqual({ balance: 18, ledger: 18 });
    const replaced = await server.connection.db
      .select({ content: gameMessages.content, removal: gameMessages.removal })
      .from(gameMessages)
      .where(and(eq(gameMessages.storyId, storyId), eq(gameMessages.removal, "edited")));
    expect(replaced.map((row) => row.content)).toContain("Action 1");
  });

  it("restores the exchange it was replacing, and refunds, when the model fails before any text", async () => {
    const { player, storyId } = await playingStory(server);
    const before = await storedMessages(server, player);
    model.script(() => ({ status: 500 }));
    const failed = await readTurn(await api(player, `/api/stories/${storyId}/edit`, { body: { exchange: 2, message: "Something else" } }));
    expect(failed.error).toMatch(/refunded/);
    expect(await storedMessages(server, player)).toEqual(before);
    expect(await balanceAndLedger(player)).toEqual({ balance: 19, ledger: 19 });
  });

  it("needs the edited message", async () => {
    const { player, storyId } = await playingStory(server);
    const response = await api(player, `/api/stories/${storyId}/edit`, { body: { exchange: 2 } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "invalid_input", fieldErrors: { message: expect.any(String) } });
  });
});

describe("Undo", () => {
  it("removes the latest exchange for free, walks back further when repeated, and refuses a stale one", async () => {
    const { player, storyId } = await playingStory(server, 2);
    expect(await balanceAndLedger(player)).toEqual({ balance: 18, ledger: 18 });
    expect((await api(player, `/api/stories/${storyId}/undo`, { body: { exchange: 3 } })).status).toBe(200);
    expect((await api(player, `/api/stories/${storyId}/undo`, { body: { exchange: 2 } })).status).toBe(200);
    expect(await storedMessages(server, player)).toEqual([
      { role: "user", content: OPENING_EXCHANGE.message },
      { role: "assistant", content: OPENING_EXCHANGE.reply },
    ]);
    expect(await balanceAndLedger(player)).toEqual({ balance: 18, ledger: 18 });
    const again = await api(player, `/api/stories/${storyId}/undo`, { body: { exchange: 2 } });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: "story_changed" });
    // The next turn takes the freed place and the model no longer sees what was undone.
    await readTurn(await postChat(server, player, { message: "A new direction", game_slug: TEST_GAME.slug }));
    const sent = JSON.stringify(model.requests.at(-1)!.body.messages);
    expect(sent).not.toContain("Action 1");
    expect((await storyOf(server, player, storyId)).exchanges).toBe(2);
  });

  it("answers 404 for another player's story, changing nothing", async () => {
    const { player, storyId } = await playingStory(server);
    const stranger = await signUp(server);
    for (const path of ["undo", "retry", "version"]) {
      const response = await api(stranger, `/api/stories/${storyId}/${path}`, { body: { exchange: 2, version: 1 } });
      expect(response.status).toBe(404);
    }
    expect((await api(stranger, `/api/stories/${storyId}`)).status).toBe(404);
    expect((await api(stranger, `/api/stories/not-a-story`)).status).toBe(404);
    expect(await storedMessages(server, player)).toHaveLength(4);
  });
});

describe("the opening scene", () => {
  it("is free only a few times a minute: then it costs a credit, and a player without one is asked to wait (docs/decisions/041)", async () => {
    const farmer = await signUp(server);
    await server.connection.db.update(user).set({ emailVerified: true }).where(eq(user.id, farmer.userId));
    const begin = async () => {
      const turn = await readTurn(await postChat(server, farmer, { message: "Begin.", game_slug: TEST_GAME.slug }));
      expect((await api(farmer, `/api/game-messages?game_slug=${TEST_GAME.slug}`, { method: "DELETE" })).status).toBe(200);
      return turn;
    };
    for (let opening = 0; opening < 3; opening += 1) expect((await begin()).done).toBe(true);
    expect(await balanceAndLedger(farmer)).toEqual({ balance: 20, ledger: 20 });
    expect((await begin()).done).toBe(true);
    expect(await balanceAndLedger(farmer)).toEqual({ balance: 19, ledger: 19 });
    await setBalance(farmer, 0);
    const refused = await postChat(server, farmer, { message: "Begin.", game_slug: TEST_GAME.slug });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).error).toMatch(/begun 3 stories in the last minute/);
    expect(await balanceAndLedger(farmer)).toEqual({ balance: 0, ledger: 0 });
  });
});

describe("Save Chat", () => {
  it("confirms the newest messages on screen are the stored ones", async () => {
    const { player } = await playingStory(server, 2);
    const stored = await storedMessages(server, player);
    const shown = stored.slice(-2);
    const response = await api(player, "/api/game-messages", { method: "PUT", body: { game_slug: TEST_GAME.slug, messages: shown } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ saved: 6 });
    const wrong = await api(player, "/api/game-messages", {
      method: "PUT",
      body: { game_slug: TEST_GAME.slug, messages: [shown[0], { role: "assistant", content: "Not what was said." }] },
    });
    expect(wrong.status).toBe(409);
  });

  it("keeps the ledger equal to the balance through every control", async () => {
    const { player, storyId } = await playingStory(server);
    await setBalance(player, 3);
    await readTurn(await api(player, `/api/stories/${storyId}/retry`, { body: { exchange: 2 } }));
    await readTurn(await api(player, `/api/stories/${storyId}/continue`, { body: { exchange: 2 } }));
    await readTurn(await api(player, `/api/stories/${storyId}/edit`, { body: { exchange: 2, message: "Edited" } }));
    const broke = await api(player, `/api/stories/${storyId}/retry`, { body: { exchange: 2 } });
    expect(broke.status).toBe(402);
    expect(await balanceAndLedger(player)).toEqual({ balance: 0, ledger: 0 });
    const debits = (await ledgerRows(server, player)).filter((row) => row.reason === "chat_message");
    expect(new Set(debits.map((row) => row.reference)).size).toBe(debits.length);
  });
});
