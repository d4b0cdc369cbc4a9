import { randomBytes } from "node:crypto";
import pg from "pg";
import type { TestAccount } from "./accounts.ts";
import { readTurn } from "./game-chat.ts";

/**
 * A site reached by its address — an instance started as a process, or several behind nginx —
 * rather than a test server in this process: its HTTP API as a player uses it, its PostgreSQL
 * read directly, and a steady load of players.
 */

/** A seeded game every fresh database has. */
export const SEEDED_GAME = "empress-simulator";

/** A client of the site through nginx (or of one instance), signed in with a bearer token where given. */
export function site(base: string, account?: TestAccount) {
  return (path: string, init: { method?: string; body?: string; signal?: AbortSignal } = {}) =>
    fetch(`${base}${path}`, {
      ...init,
      headers: {
        ...(account ? { Authorization: `Bearer ${account.token}` } : {}),
        ...(init.body ? { "Content-Type": "application/json" } : {}),
      },
    });
}

export function turn(base: string, account: TestAccount, message: string, signal?: AbortSignal) {
  return site(base, account)("/api/game-chat", { method: "POST", body: JSON.stringify({ message, game_slug: SEEDED_GAME }), signal });
}

/** Balance and ledger sum of a player, read from the database itself. */
export async function balanceAndLedger(url: string, userId: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ balance: number; ledger: string }>(
      "SELECT (SELECT credits FROM profiles WHERE user_id = $1) AS balance, (SELECT sum(delta) FROM credit_ledger WHERE user_id = $1) AS ledger",
      [userId],
    );
    return { balance: rows[0]!.balance, ledger: Number(rows[0]!.ledger) };
  } finally {
    await client.end();
  }
}

export async function grantCredits(url: string, userId: string, credits: number) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("SELECT apply_credit_change($1, $2, 'admin_grant', $3)", [userId, credits, `test:${randomBytes(6).toString("hex")}`]);
  await client.end();
}

/** Players each playing turns and viewing pages at `base`, one request after another, until stopped. */
export function steadyLoad(base: string, players: TestAccount[]) {
  let stopped = false;
  let served = 0;
  const failures: string[] = [];
  const attempt = async (name: string, request: () => Promise<true | string>) => {
    try {
      const outcome = await request();
      if (outcome === true) served += 1;
      else failures.push(`${name}: ${outcome}`);
    } catch (error) {
      failures.push(`${name}: ${(error as Error).message}`);
    }
  };
  const workers = players.map(async (player, index) => {
    for (let round = 0; !stopped; round += 1) {
      await attempt("GET /", async () => {
        const page = await fetch(`${base}/`);
        await page.arrayBuffer();
        return page.status === 200 || `status ${page.status}`;
      });
      await attempt(`GET /play/${SEEDED_GAME}`, async () => {
        const page = await fetch(`${base}/play/${SEEDED_GAME}`, { headers: { Cookie: player.cookie } });
        await page.arrayBuffer();
        return page.status === 200 || `status ${page.status}`;
      });
      await attempt("POST /api/game-chat", async () => {
        const answer = await turn(base, player, `Player ${index}, round ${round}.`);
        if (answer.status !== 200) return `status ${answer.status}: ${await answer.text()}`;
        const reply = await readTurn(answer);
        return (reply.done && !reply.error) || `reply ${JSON.stringify(reply)}`;
      });
    }
  });
  return {
    async stop() {
      stopped = true;
      await Promise.all(workers);
      return { served, failures };
    },
  };
}
