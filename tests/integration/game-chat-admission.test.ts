import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GAME_MASTER_BUSY_MESSAGE } from "#app/domain/game-master/admission.server.ts";
import { signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { balanceAndLedger, postChat, readTurn, startStoryTestServer, storedMessages, TEST_GAME } from "#tests/helpers/game-chat.ts";
import type { TestServer } from "#tests/helpers/server.ts";
import { beginStory } from "#tests/helpers/stories.ts";
import type { FakeModelServer } from "#tests/fakes/streaming-model.ts";

/**
 * Admission (GAME_MASTER_MAX_STREAMS): past that many replies being written, a turn
 * is refused at once with 503 and Retry-After, and costs nothing; a place that frees up admits
 * the next call.
 */
const MAX_STREAMS = 2;

let model: FakeModelServer;
let server: TestServer;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ model, server, close: stop } = await startStoryTestServer({ GAME_MASTER_MAX_STREAMS: String(MAX_STREAMS) }));
});

afterAll(async () => {
  await stop();
});

async function playerInStory() {
  const player = await signUp(server);
  await beginStory(server, player, TEST_GAME.slug);
  return player;
}

const turn = (player: TestAccount, message: string) => postChat(server, player, { message, game_slug: TEST_GAME.slug });

describe("admission to the Game Master", () => {
  it("refuses a call past the configured number of streams with 503 and Retry-After, spending nothing, and admits the next once a reply ends", async () => {
    const [first, second, refused] = [await playerInStory(), await playerInStory(), await playerInStory()];
    const tokens = ["The ", "tide ", "turns."];
    // Replies of a few seconds: they must still hold their places when the third call comes, after
    // two calls' worth of time on a loaded machine.
    model.script(() => ({ tokens, tokenDelayMs: 1_000 }));
    const streaming = [await turn(first, "I light the lantern."), await turn(second, "I count the crates.")];
    expect(streaming.map((response) => response.status)).toEqual([200, 200]);

    const response = await turn(refused, "I row out to the lamp tower.");
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(await response.json()).toEqual({ code: "busy", error: GAME_MASTER_BUSY_MESSAGE, retryAfterSeconds: 5 });
    expect(await balanceAndLedger(refused)).toEqual({ balance: 20, ledger: 20 });
    expect(await storedMessages(server, refused)).toHaveLength(2);

    // The replies in flight are untouched by the refusal, and their places are given back.
    for (const reply of await Promise.all(streaming.map(readTurn))) expect(reply).toMatchObject({ text: tokens.join(""), done: true });
    const admitted = await turn(refused, "I row out to the lamp tower.");
    expect(admitted.status).toBe(200);
    expect(await readTurn(admitted)).toMatchObject({ text: tokens.join(""), done: true });
    expect(await balanceAndLedger(refused)).toEqual({ balance: 19, ledger: 19 });
  });

  it("gives a place back when a call is refused for another reason", async () => {
    const poor = await playerInStory();
    const players = [await playerInStory(), await playerInStory()];
    model.script(() => ({ tokens: ["Quiet ", "water."] }));
    // A turn for an unknown game is refused after admission, as many times as there are places and more.
    for (let attempt = 0; attempt < MAX_STREAMS + 1; attempt += 1) {
      const unknown = await postChat(server, poor, { message: "Hello?", game_slug: "no-such-harbor" });
      expect(unknown.status).toBe(404);
    }
    const replies = await Promise.all(players.map((player) => turn(player, "I wait for the tide.")));
    expect(replies.map((response) => response.status)).toEqual([200, 200]);
    for (const reply of replies) expect((await readTurn(reply)).done).toBe(true);
  });
});
