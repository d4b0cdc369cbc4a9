import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, DatabaseConnection } from "#app/db/client.server.ts";
import { applyFunctions, readFunctionFiles, runMigrations } from "#app/db/migrate.server.ts";
import migrationJournal from "#app/db/migrations/meta/_journal.json" with { type: "json" };
import { createTestDatabase, queryRows, type TestDatabase } from "#tests/helpers/database.ts";

/**
 * The SQL functions live in app/db/functions/, one file each, applied after the numbered
 * migrations on every start (app/db/migrate.server.ts). Whatever shape a database was left in by
 * an older release — its functions as that release's migrations wrote them — it ends with the
 * functions its files define, and nothing else.
 */

let database: TestDatabase;
let connection: DatabaseConnection;

beforeAll(async () => {
  database = await createTestDatabase();
  connection = await database.connect();
});

afterAll(async () => {
  await connection.close();
  await database.drop();
});

interface FunctionRow {
  name: string;
  arguments: string;
  oid: number;
  source: string;
  definition: string;
}

/** Every function of the public schema, as the catalogue holds it. */
function functions(db: Database) {
  return queryRows<FunctionRow>(
    db,
    sql`select p.proname as name, pg_get_function_identity_arguments(p.oid) as arguments, p.oid::int as oid,
          p.prosrc as source, pg_get_functiondef(p.oid) as definition
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' order by p.proname, arguments`,
  );
}

/** Every trigger on the public schema's tables, and the function it runs. */
function triggers(db: Database) {
  return queryRows<{ name: string; on: string; runs: string }>(
    db,
    sql`select t.tgname as name, c.relname as on, p.proname as runs
        from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
        join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and not t.tgisinternal order by t.tgname`,
  );
}

/** What the functions are, without the catalogue's ids. */
async function definitions(db: Database) {
  return {
    functions: (await functions(db)).map(({ name, arguments: args, definition }) => ({ name, arguments: args, definition })),
    triggers: await triggers(db),
  };
}

/** An empty database again: as a first start finds it. */
async function emptyDatabase(db: Database) {
  await db.execute(sql`drop schema if exists drizzle cascade`);
  await db.execute(sql`drop schema public cascade`);
  await db.execute(sql`create schema public`);
}

describe("the SQL function files", () => {
  it("are the live definition of every function, and nothing else is defined", async () => {
    await emptyDatabase(connection.db);
    await runMigrations(connection.db);
    const live = await functions(connection.db);
    const files = readFunctionFiles();
    expect(live.map(({ name }) => name)).toEqual(files.map(({ name }) => name));
    for (const { name, sql: text } of files) {
      const body = /\$\$([\s\S]*)\$\$/.exec(text)?.[1];
      expect(live.find((row) => row.name === name)?.source, name).toBe(body);
    }
  });

  it("applied twice in a row change nothing", async () => {
    const before = await functions(connection.db);
    const triggersBefore = await triggers(connection.db);
    await applyFunctions(connection.db);
    await applyFunctions(connection.db);
    expect(await functions(connection.db)).toEqual(before);
    expect(await triggers(connection.db)).toEqual(triggersBefore);
  });

  it("give a database migrated through every earlier release the same functions as a fresh one", { timeout: 300_000 }, async () => {
    await emptyDatabase(connection.db);
    await runMigrations(connection.db);
    const fresh = await definitions(connection.db);
    for (let release = 1; release < migrationJournal.entries.length; release += 1) {
      await emptyDatabase(connection.db);
      await runMigrations(connection.db, { through: release });
      await runMigrations(connection.db);
      expect(await definitions(connection.db), `a database migrated through ${migrationJournal.entries[release - 1]!.tag}`).toEqual(fresh);
    }
  });
});
