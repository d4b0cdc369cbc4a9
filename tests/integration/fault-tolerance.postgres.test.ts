import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TURN_LEASE_SECONDS } from "#app/domain/stories.server.ts";
import { TURN_SWEEP_MS } from "#app/domain/game-master/turn-leases.server.ts";
import { PLAY_TEXTS } from "#app/lib/play-texts.ts";
import type { StoryView } from "#app/lib/story-view.ts";
import { startOpenAICompatibleServer } from "#tests/fakes/openai-compatible.ts";
import type { FakeModelServer } from "#tests/fakes/streaming-model.ts";
import { signInBrowser, signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { launchBrowser } from "#tests/helpers/browser.ts";
import { createTestDatabase, type TestDatabase } from "#tests/helpers/database.ts";
import { eventually, readTurn } from "#tests/helpers/game-chat.ts";
import { startServerProcess, type ServerProcess } from "#tests/helpers/process.ts";
import { freePort } from "#tests/helpers/server.ts";
import { isRunning, startNginx, startPrivatePostgres, type Nginx, type PrivatePostgres } from "#tests/helpers/service.ts";
import { openEventStream } from "#tests/helpers/sse.ts";
import { balanceAndLedger, grantCredits, SEEDED_GAME, site, steadyLoad, turn } from "#tests/helpers/remote-site.ts";

/**
 * The site as an operator runs it (issue 19): three instances of the built site on one PostgreSQL
 * behind Debian's nginx, configured by deploy/nginx.conf (only the upstream list and the listen
 * address substituted), with faults an operator meets: an instance killed mid-reply, a rolling
 * restart under load, PostgreSQL restarting under load. The figures it measures are printed.
 */

const AUTH_SECRET = randomBytes(32).toString("base64url");
const INSTANCES = 3;

let database: TestDatabase;
let model: FakeModelServer;
let ports: number[];
let nginx: Nginx;
let instances: ServerProcess[] = [];
let databaseUrl: string;

/** Records a figure for the closing note, printed as the test goes. */
function figure(name: string, value: string | number) {
  console.log(`[fault-tolerance] ${name}: ${value}`);
}

function instanceEnv(port: number) {
  return {
    DATABASE_URL: databaseUrl,
    DATA_DIR: database.env.DATA_DIR,
    PORT: String(port),
    PUBLIC_URL: nginx.url,
    AUTH_SECRET,
    AI_PROVIDER: "openai-compatible",
    AI_BASE_URL: model.baseUrl,
    AI_MODEL: "fake",
    CHAT_TURNS_PER_MINUTE: "100000",
    LOG_LEVEL: "warn",
  };
}

function startInstance(port: number) {
  return startServerProcess(instanceEnv(port));
}

/** Starts all instances together: on a fresh database they migrate and seed at the same moment. */
async function startInstances() {
  instances = await Promise.all(ports.map((port) => startInstance(port)));
}

async function stopInstances() {
  await Promise.all(instances.map((instance) => instance.stop()));
}

async function signUpThroughNginx() {
  return signUp({ url: nginx.url, fetch: (path: string, init?: RequestInit) => fetch(`${nginx.url}${path}`, init) });
}

/** A new player's balance stream on the first instance hears the debit of a turn played on the second, within `withinMs`. */
async function expectBalanceToCrossInstances(player: TestAccount, withinMs = 3000) {
  const [first, second] = instances as [ServerProcess, ServerProcess];
  const onFirst = await openEventStream(`${first.url}/api/credits/events`, { Authorization: `Bearer ${player.token}` });
  expect(await onFirst.nextCredits()).toBe(20);
  expect(await readTurn(await turn(second.url, player, "I begin."))).toMatchObject({ done: true });
  expect(await readTurn(await turn(second.url, player, "I open the treasury."))).toMatchObject({ done: true });
  // An instance that has just listened again (after PostgreSQL restarted) sends its open channels
  // the balance as it is, so 20 may come again before the debit's 19.
  const deadline = performance.now() + withinMs;
  let credits = await onFirst.nextCredits(withinMs);
  while (credits === 20) credits = await onFirst.nextCredits(Math.max(1, deadline - performance.now()));
  expect(credits).toBe(19);
  onFirst.close();
}

beforeAll(async () => {
  database = await createTestDatabase();
  databaseUrl = database.env.DATABASE_URL!;
  model = await startOpenAICompatibleServer();
  model.script((request) => {
    const sent = JSON.stringify(request.body.messages);
    // A reply long enough to be mid-way when its instance is killed.
    if (sent.includes("I speak slowly.")) return { tokens: Array.from({ length: 300 }, (_, index) => `word${index} `), tokenDelayMs: 100 };
    return { tokens: ["The ", "court ", "listens."] };
  });
  ports = await Promise.all(Array.from({ length: INSTANCES }, () => freePort()));
  nginx = await startNginx(ports);
  await startInstances();
}, 120_000);

afterAll(async () => {
  await stopInstances().catch(() => {});
  await nginx.stop();
  await model.close();
  await database.drop();
}, 60_000);

describe("three instances behind nginx on one PostgreSQL", () => {
  it("serve a player's journey in a browser: the play page, the opening, a turn, the balance", { timeout: 90_000 }, async () => {
    const player = await signUpThroughNginx();
    const browser = await launchBrowser();
    try {
      await signInBrowser(browser.context, nginx, player);
      const page = await browser.newPage();
      await page.goto(`${nginx.url}/play/${SEEDED_GAME}`);
      const story = page.getByRole("log");
      const balance = () => page.getByTestId("credits-balance").first().textContent();
      // The opening scene is free; the next turn costs a credit, and the balance follows live.
      await page.getByRole("button", { name: PLAY_TEXTS.beginChoice }).click();
      await expect
        .poll(() => story.locator('li[data-role="assistant"]').last().textContent(), { timeout: 20_000 })
        .toContain("The court listens.");
      await page.getByLabel("Your action or response").fill("I summon the ministers.");
      await page.getByRole("button", { name: "Send message" }).click();
      await expect.poll(() => story.locator('li[data-role="user"]').last().textContent()).toContain("I summon the ministers.");
      await expect.poll(balance, { timeout: 20_000 }).toBe("19 Credits");
      await expect.poll(() => story.locator('li[data-role="assistant"]').count()).toBe(2);
      expect(page.errors).toEqual([]);
    } finally {
      await browser.close();
    }
    // Requests went to every instance.
    for (const port of ports) expect(nginx.accessLog()).toContain(`upstream=127.0.0.1:${port}`);
  });

  it("carry live balance updates across instances: a debit through one reaches a stream on another", async () => {
    await expectBalanceToCrossInstances(await signUpThroughNginx());
  });

  it(
    "settle the turn of an instance killed mid-reply: the message stays, the credit comes back, the play screen says so",
    { timeout: 90_000 },
    async () => {
      const player = await signUpThroughNginx();
      expect(await readTurn(await turn(nginx.url, player, "I begin."))).toMatchObject({ done: true });
      const before = await balanceAndLedger(databaseUrl, player.userId);

      const reading = new AbortController();
      const response = await turn(nginx.url, player, "I speak slowly.", reading.signal);
      const reader = response.body!.getReader();
      let received = "";
      while (!received.includes('"content"')) received += new TextDecoder().decode((await reader.read()).value);
      const storyId = /"storyId":"([^"]+)"/.exec(received)![1]!;
      // The instance writing the reply is the one a returning page can attach to (the others answer 204).
      const owners = await Promise.all(
        instances.map(async (instance) => {
          const attach = new AbortController();
          const answer = await site(instance.url, player)(`/api/stories/${storyId}/reply`, { signal: attach.signal });
          attach.abort();
          return answer.status === 200;
        }),
      );
      expect(owners.filter(Boolean)).toHaveLength(1);
      const victim = owners.indexOf(true);

      instances[victim]!.child.kill("SIGKILL");
      const killedAt = performance.now();
      // The player's stream ends with the instance (cut short, or closed by nginx).
      try {
        while (!(await reader.read()).done);
      } catch {
        // Cut: what arrived stays on the player's screen.
      }

      // Nobody reads the story meanwhile: a surviving instance's sweeper settles it.
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await eventually(async () => {
        const { rows } = await client.query<{ turn: string | null }>("SELECT active_turn_id AS turn FROM stories WHERE id = $1", [storyId]);
        return rows[0]?.turn === null || undefined;
      }, 45_000);
      await client.end();
      const settleSeconds = (performance.now() - killedAt) / 1000;
      figure("seconds from kill -9 to the turn settled by a surviving instance", settleSeconds.toFixed(1));
      expect(settleSeconds).toBeLessThan(30);
      expect(settleSeconds).toBeLessThan(TURN_LEASE_SECONDS + TURN_SWEEP_MS / 1000 + 2);

      const story = (await (await site(nginx.url, player)(`/api/stories/${storyId}`)).json()) as StoryView;
      expect(story.busy).toBe(false);
      expect(story.messages.slice(-2)).toMatchObject([
        { role: "user", content: "I speak slowly." },
        { role: "assistant", status: "interrupted" },
      ]);
      expect(await balanceAndLedger(databaseUrl, player.userId)).toEqual(before);
      // The play screen says what happened, in the reply's place.
      const playPage = await (await fetch(`${nginx.url}/play/${SEEDED_GAME}/${storyId}`, { headers: { Cookie: player.cookie } })).text();
      expect(playPage).toContain(PLAY_TEXTS.interruptedReply);

      instances[victim] = await startInstance(ports[victim]!);
    },
  );

  it("serve a steady load of turns and page views through a rolling restart without a failed request", { timeout: 120_000 }, async () => {
    const players = await Promise.all(Array.from({ length: 4 }, () => signUpThroughNginx()));
    for (const player of players) {
      await grantCredits(databaseUrl, player.userId, 1000);
      expect(await readTurn(await turn(nginx.url, player, "I begin."))).toMatchObject({ done: true });
    }
    const load = steadyLoad(nginx.url, players);

    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const [index, instance] of instances.entries()) {
      const stoppingAt = performance.now();
      expect(await instance.stop()).toBe(0);
      const stoppedAt = performance.now();
      instances[index] = await startInstance(ports[index]!);
      figure(
        `instance ${index + 1}: seconds to drain and exit, then to be ready again`,
        `${((stoppedAt - stoppingAt) / 1000).toFixed(1)}, ${((performance.now() - stoppedAt) / 1000).toFixed(1)}`,
      );
      // As an operator would: nginx takes a failed instance back after fail_timeout.
      await new Promise((resolve) => setTimeout(resolve, nginx.failTimeoutMs + 500));
    }
    const { served, failures } = await load.stop();
    figure("requests served during the rolling restart", served);
    figure("requests failed during the rolling restart", failures.length);
    if (failures.length > 0) {
      console.log(
        nginx
          .errorLog()
          .split("\n")
          .filter((line) => !line.includes("Connection refused"))
          .slice(0, 40)
          .join("\n"),
      );
      for (const instance of instances) console.log(instance.url, instance.output().slice(-3000));
    }
    expect(failures.slice(0, 10)).toEqual([]);
    expect(served).toBeGreaterThan(50);
    for (const player of players) {
      const { balance, ledger } = await balanceAndLedger(databaseUrl, player.userId);
      expect(balance).toBe(ledger);
    }
  });
});

describe("PostgreSQL restarting under load", () => {
  let postgres: PrivatePostgres;

  beforeAll(async () => {
    // A server of this test's own: the machine's shared one is never restarted.
    postgres = await startPrivatePostgres();
    const admin = new pg.Client({ connectionString: postgres.adminUrl });
    await admin.connect();
    await admin.query("CREATE DATABASE site");
    await admin.end();
    await stopInstances();
    databaseUrl = postgres.urlOf("site");
    await startInstances();
  }, 120_000);

  afterAll(async () => {
    await stopInstances().catch(() => {});
    instances = [];
    await postgres.destroy();
  }, 60_000);

  it("answers 503 with Retry-After at once while it is down, and recovers without restarting the site", { timeout: 90_000 }, async () => {
    const player = await signUpThroughNginx();
    const watcher = await signUpThroughNginx();
    const opening = await (await turn(nginx.url, player, "I begin.")).text();
    const storyPath = `/api/stories/${/"storyId":"([^"]+)"/.exec(opening)![1]!}`;
    const processes = instances.map((instance) => instance.child);

    const outcomes: { at: number; status: number; ms: number; retryAfter: string | null }[] = [];
    let stopped = false;
    const requester = async () => {
      while (!stopped) {
        const startedAt = performance.now();
        try {
          const answer = await fetch(`${nginx.url}${storyPath}`, { headers: { Authorization: `Bearer ${player.token}` } });
          await answer.arrayBuffer();
          outcomes.push({
            at: startedAt,
            status: answer.status,
            ms: performance.now() - startedAt,
            retryAfter: answer.headers.get("Retry-After"),
          });
        } catch {
          outcomes.push({ at: startedAt, status: 0, ms: performance.now() - startedAt, retryAfter: null });
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const requesters = Array.from({ length: 3 }, requester);

    await new Promise((resolve) => setTimeout(resolve, 1000));
    const downAt = performance.now();
    await postgres.stop();
    const stoppedAt = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    // pg_ctl returns a little after the server accepts connections: "down" ends when it is asked to start.
    const startingAt = performance.now();
    await postgres.start();
    const upAt = performance.now();
    // Recovered: every instance answers a request that needs the database again.
    await eventually(async () => {
      const answers = await Promise.all(instances.map(async (instance) => (await site(instance.url, player)(storyPath)).status));
      return answers.every((status) => status === 200) || undefined;
    }, 30_000);
    const recoveredAt = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 500));
    stopped = true;
    await Promise.all(requesters);

    const whileDown = outcomes.filter((outcome) => outcome.at > stoppedAt && outcome.at + outcome.ms < startingAt);
    expect(whileDown.length).toBeGreaterThan(10);
    for (const outcome of whileDown) {
      expect(outcome.status).toBe(503);
      expect(outcome.retryAfter).not.toBeNull();
    }
    const slowest = Math.max(...whileDown.map((outcome) => outcome.ms));
    figure("answers while PostgreSQL was down (all 503 with Retry-After)", whileDown.length);
    figure("slowest answer while PostgreSQL was down, ms", Math.round(slowest));
    expect(slowest).toBeLessThan(2000);
    figure("seconds PostgreSQL took to stop (fast shutdown)", ((stoppedAt - downAt) / 1000).toFixed(1));
    figure("seconds PostgreSQL took to start again (pg_ctl start)", ((upAt - startingAt) / 1000).toFixed(1));
    figure("seconds from PostgreSQL accepting connections again to every instance serving", ((recoveredAt - upAt) / 1000).toFixed(1));
    expect((recoveredAt - upAt) / 1000).toBeLessThan(10);
    // Nothing but 200 and 503 at any time, and the same processes throughout.
    expect(outcomes.filter((outcome) => outcome.status !== 200 && outcome.status !== 503)).toEqual([]);
    expect(processes.every(isRunning)).toBe(true);

    // Turns and live balances work again: each instance listens anew on its own (a second at a
    // time, later on a loaded machine) and then sends its open channels the balance as it is, so
    // a debit announced before it listened again is not lost.
    await expectBalanceToCrossInstances(watcher, 10_000);
  });
});
