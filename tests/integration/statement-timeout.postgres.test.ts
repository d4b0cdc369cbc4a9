import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "#tests/helpers/accounts.ts";
import { balanceAndLedger, postChat, storedMessages, TEST_GAME, startGameMasterServer } from "#tests/helpers/game-chat.ts";
import type { TestServer } from "#tests/helpers/server.ts";
import { beginStory } from "#tests/helpers/stories.ts";
import { startOpenAICompatibleServer } from "#tests/fakes/openai-compatible.ts";

/**
 * A statement that runs past DATABASE_STATEMENT_TIMEOUT_MS is cancelled by PostgreSQL and rolled
 * back: the request answers 503 with Retry-After, never 500, and nothing is spent.
 */
let server: TestServer;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ server, close: stop } = await startGameMasterServer(startOpenAICompatibleServer, {
    AI_PROVIDER: "openai-compatible",
    AI_MODEL: "fake-storyteller-7b",
    DATABASE_STATEMENT_TIMEOUT_MS: "300",
  }));
});

afterAll(() => stop());

/** Holds an exclusive lock on `table` from outside the server until the returned function runs. */
async function lockTable(table: string) {
  const locker = new pg.Client({ connectionString: server.database.env.DATABASE_URL });
  await locker.connect();
  await locker.query("BEGIN");
  await locker.query(`LOCK TABLE "${table}" IN ACCESS EXCLUSIVE MODE`);
  return async () => {
    await locker.query("ROLLBACK");
    await locker.end();
  };
}

describe("a statement that runs out of time", () => {
  it("makes a page and a turn answer 503 with Retry-After, spending nothing", async () => {
    const player = await signUp(server);
    // A story already begun: its next turn is paid, so it needs the balance the lock holds.
    await beginStory(server, player, TEST_GAME.slug);
    const release = await lockTable("profiles");
    try {
      const page = await server.fetch("/credits", { headers: { Cookie: player.cookie } });
      await page.arrayBuffer();
      expect({ status: page.status, retryAfter: page.headers.get("retry-after") }).toEqual({ status: 503, retryAfter: "5" });

      const turn = await postChat(server, player, { message: "I wait at the gate.", game_slug: TEST_GAME.slug });
      expect(turn.status).toBe(503);
      expect(turn.headers.get("retry-after")).toBe("5");
      expect(await turn.json()).toMatchObject({ code: "busy" });
    } finally {
      await release();
    }
    expect(await balanceAndLedger(player)).toEqual({ balance: 20, ledger: 20 });
    expect(await storedMessages(server, player)).toHaveLength(2);
  });
});
