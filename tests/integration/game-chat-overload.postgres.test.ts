import pg from "pg";
import { describe, expect } from "vitest";
import { POOL_CONNECTION_TIMEOUT_MS } from "#app/db/client.server.ts";
import { signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { balanceAndLedger, eventually, ledgerRows, postChat, readTurn, storedMessages, TEST_GAME } from "#tests/helpers/game-chat.ts";
import { gameMasterTest } from "#tests/helpers/fixtures.ts";
import { beginStory } from "#tests/helpers/stories.ts";

/**
 * A database with more work than connections (PostgreSQL's pool; PGlite has none): a turn that
 * cannot start answers 503 and costs nothing, and a refund or a reply the player has read waits
 * for a connection instead of being lost.
 */
const POOL_SIZE = 2;

const test = gameMasterTest
  /** A connection of its own, outside the server's pool, for watching what waits on locks. */
  .extend("observer", { scope: "file" }, async ({ server }, { onCleanup }) => {
    const observer = new pg.Client({ connectionString: server.database.env.DATABASE_URL });
    await observer.connect();
    onCleanup(() => observer.end());
    return observer;
  })
  /**
   * Takes every connection of the server's pool: an outside transaction locks the session table,
   * and as many signed-in requests as the pool has connections wait on it, one connection each.
   * Returns what lets them go.
   */
  .extend("occupyEveryConnection", { scope: "file" }, ({ server, observer }) => async (player: TestAccount) => {
    const locker = new pg.Client({ connectionString: server.database.env.DATABASE_URL });
    await locker.connect();
    await locker.query("BEGIN");
    await locker.query('LOCK TABLE "session" IN ACCESS EXCLUSIVE MODE');
    const waiting = Array.from({ length: POOL_SIZE }, () =>
      server.fetch(`/api/game-messages?game_slug=${TEST_GAME.slug}`, { headers: { Authorization: `Bearer ${player.token}` } }),
    );
    await eventually(async () => (await queriesWaitingOnLocks(observer)) >= POOL_SIZE);
    return async () => {
      await locker.query("ROLLBACK");
      await locker.end();
      expect((await Promise.all(waiting)).map((response) => response.status)).toEqual(Array(POOL_SIZE).fill(200));
    };
  })
  /**
   * Reads a turn that has started while every connection is taken for longer than one wait for a
   * connection, so a write of the turn that did not try again has failed by the time they free up.
   */
  .extend("readTurnThroughFullPool", { scope: "file" }, ({ occupyEveryConnection }) => async (player: TestAccount, response: Response) => {
    expect(response.status).toBe(200);
    const release = await occupyEveryConnection(player);
    const turn = readTurn(response);
    await new Promise((resolve) => setTimeout(resolve, POOL_CONNECTION_TIMEOUT_MS + 1500));
    await release();
    return turn;
  });

test.override("serverEnv", { AI_MODEL: "fake-storyteller-7b", DATABASE_POOL_SIZE: String(POOL_SIZE) });

async function queriesWaitingOnLocks(observer: pg.Client) {
  const { rows } = await observer.query<{ waiting: number }>(
    "select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
  );
  return rows[0]?.waiting ?? 0;
}

describe("a Game Master turn while the database has no free connection", () => {
  test("answers 503 with Retry-After and a message, spending nothing", async ({ server, occupyEveryConnection }) => {
    const player = await signUp(server);
    const release = await occupyEveryConnection(player);
    const response = await postChat(server, player, { message: "I knock at the harbor gate.", game_slug: TEST_GAME.slug });
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(await response.json()).toMatchObject({ code: "busy", error: expect.stringMatching(/more players than it can answer right now/) });
    await release();
    expect(await balanceAndLedger(player)).toEqual({ balance: 20, ledger: 20 });
    expect(await storedMessages(server, player)).toEqual([]);
  });

  test("stores a reply the player has read once a connection frees up", async ({ server, model, readTurnThroughFullPool }) => {
    const player = await signUp(server);
    await beginStory(server, player, TEST_GAME.slug);
    const tokens = ["The ", "harbormaster ", "looks ", "up ", "from ", "her ", "ledger."];
    model.script(() => ({ tokens, tokenDelayMs: 150 }));
    // The turn has paid and read its story; the reply is streaming when the database fills up.
    const response = await postChat(server, player, { message: "I show her the manifest.", game_slug: TEST_GAME.slug });
    const read = await readTurnThroughFullPool(player, response);
    expect(read).toMatchObject({ text: tokens.join(""), done: true });
    expect(read.error).toBeUndefined();
    expect((await storedMessages(server, player)).slice(2)).toEqual([
      { role: "user", content: "I show her the manifest." },
      { role: "assistant", content: tokens.join("") },
    ]);
    expect(await balanceAndLedger(player)).toEqual({ balance: 19, ledger: 19 });
  });

  test("refunds a turn whose model failed once a connection frees up", async ({ server, model, readTurnThroughFullPool }) => {
    const player = await signUp(server);
    await beginStory(server, player, TEST_GAME.slug);
    // The model refuses (no retry for a 400) after the database has filled up.
    model.script(() => ({ status: 400, startDelayMs: 1500 }));
    const response = await postChat(server, player, { message: "I bribe the customs officer.", game_slug: TEST_GAME.slug });
    expect((await readTurnThroughFullPool(player, response)).error).toMatch(/Your credit was refunded/);
    expect(await balanceAndLedger(player)).toEqual({ balance: 20, ledger: 20 });
    const [debit, refund] = (await ledgerRows(server, player)).slice(-2);
    expect(debit).toMatchObject({ delta: -1, reason: "chat_message" });
    expect(refund).toMatchObject({ delta: 1, reason: "refund", reference: debit?.reference });
    expect(await storedMessages(server, player)).toHaveLength(2);
  });
});

describe("pages while the database has no free connection", () => {
  test("answer 503 with Retry-After, signed in or not, and page data too", async ({ server, occupyEveryConnection }) => {
    const player = await signUp(server);
    const release = await occupyEveryConnection(player);
    const pages = await Promise.all(
      [
        ["/games", undefined],
        ["/credits", player.cookie],
        ["/credits.data", player.cookie],
      ].map(async ([path, cookie]) => {
        const response = await server.fetch(path!, { headers: cookie ? { Cookie: cookie } : {} });
        await response.arrayBuffer();
        return { path, status: response.status, retryAfter: response.headers.get("retry-after") };
      }),
    );
    await release();
    expect(pages).toEqual([
      { path: "/games", status: 503, retryAfter: "5" },
      { path: "/credits", status: 503, retryAfter: "5" },
      { path: "/credits.data", status: 503, retryAfter: "5" },
    ]);
  });
});
