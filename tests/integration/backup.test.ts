import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectDatabase, type Database } from "#app/db/client.server.ts";
import { STARTER_CREDITS } from "#app/lib/constants.ts";
import type { TrackedStat } from "#app/lib/tracked-stats.ts";
import type { StoryView } from "#app/lib/story-view.ts";
import { signIn, signUp, type TestAccount, apiRequest } from "#tests/helpers/accounts.ts";
import { createTestDatabase, queryRows, type TestDatabase } from "#tests/helpers/database.ts";
import { createTestGame, postChat, readTurn, startStoryTestServer } from "#tests/helpers/game-chat.ts";
import { createPayment } from "#tests/helpers/payments.ts";
import { runProjectScript, startServerProcess } from "#tests/helpers/process.ts";
import type { TestServer } from "#tests/helpers/server.ts";
import type { FakeModelServer } from "#tests/fakes/streaming-model.ts";

/**
 * `npm run db:backup` and `npm run db:restore` as an operator runs them: a database with players,
 * their ledger, stories (versions, memory, state) and payments is backed up (on PGlite through the
 * server running on it), restored into a fresh database, compared table by table, and served.
 */

const GAME = "harbor-with-stats";
const STATS: TrackedStat[] = [{ name: "Favour", kind: "number", min: 0, max: 100, start: 55 }];

let model: FakeModelServer;
let server: TestServer;
let stop: () => Promise<void>;
const scratch = mkdtempSync(path.join(tmpdir(), "pae-backup-"));
const PROJECT = path.resolve(import.meta.dirname, "../..");
/**
 * The round trip runs the command line six times (each a Node process, most opening PGlite) and
 * starts the site as its own process: about 25 s alone, more beside the rest of the suite.
 */
const ROUND_TRIP_TIMEOUT_MS = 180_000;

beforeAll(async () => {
  ({ model, server, close: stop } = await startStoryTestServer());
  await createTestGame(server, { slug: GAME, trackedStats: STATS });
});

afterAll(async () => {
  await stop();
  rmSync(scratch, { recursive: true, force: true });
});

/** `npm run db:<command> -- <args>` against a database (`DATABASE_URL` unset means PGlite in `DATA_DIR`). */
function cli(args: string[], env: TestDatabase["env"], extra: Record<string, string> = {}) {
  return runProjectScript(["scripts/cli.ts", ...args], { DATABASE_URL: undefined, LOG_LEVEL: "silent", ...env, ...extra });
}

/** Every row of every table, migrations' bookkeeping included, in a stable order. */
async function allRows(db: Database) {
  const tables = await queryRows<{ schema: string; name: string }>(
    db,
    sql`select table_schema as schema, table_name as name from information_schema.tables
        where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1, 2`,
  );
  const rows: Record<string, string[]> = {};
  for (const table of tables) {
    const found = await queryRows<unknown>(db, sql`select * from ${sql.identifier(table.schema)}.${sql.identifier(table.name)}`);
    rows[`${table.schema}.${table.name}`] = found.map((row) => JSON.stringify(row)).sort();
  }
  return rows;
}

async function rowsOf(database: TestDatabase) {
  const connection = await connectDatabase({ databaseUrl: database.env.DATABASE_URL, dataDir: database.env.DATA_DIR });
  try {
    return await allRows(connection.db);
  } finally {
    await connection.close();
  }
}

const api = (account: TestAccount, pathname: string, method = "GET", body?: unknown) => apiRequest(server, account, pathname, { method, body });

function replyWithState(prose: string, favour: number) {
  return { tokens: [prose, `\n\n<state>${JSON.stringify({ Favour: favour })}</state>\n`] };
}

/** A player who opened a story, played a paid turn, retried it (two versions), saved memory and bought credits. */
async function playedAndPaid() {
  const player = await signUp(server);
  model.script(() => replyWithState("The harbour wakes.", 60));
  expect((await readTurn(await postChat(server, player, { message: "I begin.", game_slug: GAME }))).done).toBe(true);
  model.script(() => replyWithState("Ilse counts your ships.", 65));
  expect((await readTurn(await postChat(server, player, { message: "I greet Ilse.", game_slug: GAME }))).done).toBe(true);
  const { stories } = (await (await api(player, "/api/stories")).json()) as { stories: { id: string }[] };
  const storyId = stories[0]!.id;
  model.script(() => replyWithState("Ilse frowns at your ledger.", 50));
  expect((await readTurn(await api(player, `/api/stories/${storyId}/retry`, "POST", { exchange: 2 }))).done).toBe(true);
  const memory = { pinned_facts: "Ilse owes me a favour.", author_note: "Keep it tense.", summary: "I arrived at the harbour." };
  expect((await api(player, `/api/stories/${storyId}/memory`, "PUT", memory)).status).toBe(200);

  const created = await createPayment(server, player, "100");
  const { url } = (await created.json()) as { url: string };
  const paid = await server.fetch(new URL(url).pathname, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: player.cookie },
    body: new URLSearchParams({ intent: "pay" }).toString(),
  });
  expect(paid.status).toBe(302);
  const story = (await (await api(player, `/api/stories/${storyId}`)).json()) as StoryView;
  return { player, storyId, story };
}

/** The play and credits pages of a server, as the player sees them once signed in. */
async function whatThePlayerSees(site: { url: string }, account: { email: string; password: string }, storyId: string) {
  const client = {
    url: site.url,
    fetch: (pathname: string, init: RequestInit = {}) => fetch(new URL(pathname, site.url), { redirect: "manual", ...init }),
  };
  const signedIn = await signIn(client, account);
  const story = (await (
    await client.fetch(`/api/stories/${storyId}`, { headers: { Authorization: `Bearer ${signedIn.token}` } })
  ).json()) as StoryView;
  const credits = await (await client.fetch("/credits", { headers: { Cookie: signedIn.cookie } })).text();
  const balance = /data-testid="credits-page-balance"[^>]*>([^<]*)</.exec(credits.replaceAll("<!-- -->", ""))?.[1];
  return { story, balance };
}

describe("db:backup and db:restore", () => {
  it(
    "round-trip players, the ledger, stories and payments into a fresh database that the site then serves",
    { timeout: ROUND_TRIP_TIMEOUT_MS },
    async () => {
      const { player, storyId, story } = await playedAndPaid();
      const other = await signUp(server);
      expect(story.messages.at(-1)).toMatchObject({ version: 2, versions: 2, content: "Ilse frowns at your ledger." });
      expect(story.state?.values).toEqual({ Favour: 50 });

      const before = await allRows(server.connection.db);
      for (const table of [
        "public.user",
        "public.profiles",
        "public.credit_ledger",
        "public.stories",
        "public.game_messages",
        "public.payments",
      ]) {
        expect(before[table]?.length, table).toBeGreaterThan(0);
      }
      const ledgerReasons = before["public.credit_ledger"]!.map((row) => JSON.parse(row).reason as string);
      expect(new Set(ledgerReasons)).toEqual(new Set(["signup_bonus", "chat_message", "purchase"]));

      // On PGlite the server holds the data directory: the backup is taken through it.
      const file = path.join(scratch, `site-${server.database.driver}.backup`);
      const backup = await cli(["db:backup", file], server.database.env);
      expect(backup.stderr).toBe("");
      expect(backup.stdout.trim()).toMatch(new RegExp(`^Backed up the database to ${file} \\(\\d+\\.\\d MB\\)\\.$`));
      expect(backup.code).toBe(0);
      expect((await cli(["db:backup", file], server.database.env)).stderr.trim()).toBe(
        `${file} exists already: name another file, or move that one away.`,
      );

      const target = await createTestDatabase();
      try {
        const restore = await cli(["db:restore", file], target.env);
        expect(restore.stderr).toBe("");
        expect(restore.code).toBe(0);
        expect(restore.stdout.trim()).toMatch(/^Restored .+ Start the server/);
        expect(await rowsOf(target)).toEqual(before);

        const refused = await cli(["db:restore", file], target.env);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toMatch(/already\. Restore into an empty (DATA_DIR|database), or add --force/);
        const forced = await cli(["db:restore", file, "--force"], target.env);
        expect(forced.stderr).toBe("");
        expect(forced.code).toBe(0);
        expect(await rowsOf(target)).toEqual(before);

        // With no server on it, the embedded database is opened and dumped here; unnamed, the file goes to ./backups/.
        const unnamed = await cli(["db:backup"], target.env);
        expect(unnamed.stderr).toBe("");
        const written = /^Backed up the database to (\S+) \(/.exec(unnamed.stdout)?.[1] ?? "";
        expect(written).toMatch(/^backups\/(pglite|postgres)-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.(tar\.gz|dump)$/);
        const inProject = path.join(PROJECT, written);
        expect(existsSync(inProject)).toBe(true);
        rmSync(inProject);

        const site = await startServerProcess(target.env);
        try {
          const seen = await whatThePlayerSees(site, player, storyId);
          expect(seen.story.messages).toEqual(story.messages);
          expect(seen.story.memory).toEqual(story.memory);
          expect(seen.story.state).toEqual(story.state);
          // The starter credits, less the turn and its retry (the opening was free), plus the purchase.
          expect(seen.balance).toBe(`${STARTER_CREDITS - 2 + 100} Credits`);
          expect((await whatThePlayerSees(site, other, storyId)).balance).toBe(`${STARTER_CREDITS} Credits`);
        } finally {
          await site.stop();
        }
      } finally {
        await target.drop();
      }
    },
  );

  it("say what to do when there is no backup file, no file named, or an argument they do not take", async () => {
    const missing = path.join(scratch, "no-such.backup");
    const result = await cli(["db:restore", missing], server.database.env);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(`There is no backup file ${missing}.`);
    const unnamed = await cli(["db:restore"], server.database.env);
    expect(unnamed.code).toBe(1);
    expect(unnamed.stderr.trim()).toMatch(/^Name one backup file, for example: npm run db:restore -- backups\//);
    const flag = await cli(["db:backup", "--force"], server.database.env);
    expect(flag.code).toBe(1);
    expect(flag.stderr.trim()).toBe("db:backup takes at most one argument, the file to write: npm run db:backup -- [file]");
  });

  it.runIf(process.env.TEST_DATABASE_DRIVER !== "postgres")("never restore under a server running on PGlite, even with --force", async () => {
    const file = path.join(scratch, "running.backup");
    expect((await cli(["db:backup", file], server.database.env)).code).toBe(0);
    const refused = await cli(["db:restore", file, "--force"], server.database.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(`A server is running on ${server.database.env.DATA_DIR}: stop it before restoring its database.`);
  });
});

describe.runIf(process.env.TEST_DATABASE_DRIVER === "postgres")("PostgreSQL's client tools", () => {
  it("are named, with how to install them, when they are missing or older than the server", async () => {
    const bin = mkdtempSync(path.join(scratch, "bin-"));
    const missing = await cli(["db:backup", path.join(scratch, "never.dump")], server.database.env, { PATH: bin });
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toMatch(
      /^pg_dump was not found\. Install PostgreSQL's client tools of version (\d+) or newer \(Debian and Ubuntu: apt-get install postgresql-client-\1;/,
    );
    expect(existsSync(path.join(scratch, "never.dump"))).toBe(false);

    // A pg_restore of a release long gone, as an old package would leave on the PATH.
    writeFileSync(path.join(bin, "pg_restore"), '#!/bin/sh\necho "pg_restore (PostgreSQL) 9.6.24"\n');
    chmodSync(path.join(bin, "pg_restore"), 0o755);
    const anyFile = path.join(scratch, "any.dump");
    writeFileSync(anyFile, "not read");
    const old = await cli(["db:restore", anyFile, "--force"], server.database.env, { PATH: bin });
    expect(old.code).toBe(1);
    expect(old.stderr.trim()).toMatch(/^pg_restore is version 9, older than the server \(PostgreSQL \d+\)\. Install PostgreSQL's client tools/);
  });
});
