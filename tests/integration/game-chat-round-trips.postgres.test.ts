import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "#tests/helpers/accounts.ts";
import { createTestGame, postChat, readTurn, TEST_GAME } from "#tests/helpers/game-chat.ts";
import { startWireCounter, type WireCounter } from "#tests/helpers/postgres-wire-counter.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";
import { beginStory } from "#tests/helpers/stories.ts";
import { startOpenAICompatibleServer } from "#tests/fakes/openai-compatible.ts";
import type { FakeModelServer } from "#tests/fakes/streaming-model.ts";

/**
 * What a Game Master turn asks of the database, counted on the wire (a proxy between the server
 * and PostgreSQL): one call that reads the session, counts the rate limit, debits the credit and
 * reads the story — one round trip before the model is called — and one after, storing the reply.
 */
let model: FakeModelServer;
let counter: WireCounter | undefined;
let server: TestServer;

beforeAll(async () => {
  model = await startOpenAICompatibleServer();
  server = await startTestServer(async (database) => {
    counter = await startWireCounter(database.env.DATABASE_URL ?? "");
    return { AI_PROVIDER: "openai-compatible", AI_MODEL: "fake-storyteller-7b", AI_BASE_URL: model.baseUrl, DATABASE_URL: counter.url };
  });
  await createTestGame(server);
});

afterAll(async () => {
  await server.close();
  await counter?.close();
  await model.close();
});

describe("a Game Master turn on the wire", () => {
  it("makes one round trip to the database before the model is called and one after", async () => {
    const player = await signUp(server);
    await beginStory(server, player, TEST_GAME.slug);
    model.script(() => ({ tokens: ["The ", "gate ", "opens."] }));
    // The first turn reads the game's brief, which every later turn finds in memory.
    expect((await readTurn(await postChat(server, player, { message: "I knock.", game_slug: TEST_GAME.slug }))).done).toBe(true);

    const trips = counter!.roundTrips;
    const sentAt = performance.now();
    const startedWith = trips.length;
    const turn = await readTurn(await postChat(server, player, { message: "I knock again.", game_slug: TEST_GAME.slug }));
    expect(turn).toMatchObject({ text: "The gate opens.", done: true });
    const modelCalledAt = model.requests.at(-1)!.receivedAt;
    expect(modelCalledAt).toBeGreaterThan(sentAt);
    // Nothing else talks to the database meanwhile; anything late would show up in this pause.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const turnTrips = trips.slice(startedWith);
    expect(turnTrips.filter((at) => at < modelCalledAt)).toHaveLength(1);
    expect(turnTrips.filter((at) => at >= modelCalledAt)).toHaveLength(1);
  });
});
