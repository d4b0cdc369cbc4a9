import { sql } from "drizzle-orm";
import { afterEach, expect, it } from "vitest";
import { connectDatabase, type DatabaseConnection } from "#app/db/client.server.ts";
import { runMigrations } from "#app/db/migrate.server.ts";
import migrationJournal from "#app/db/migrations/meta/_journal.json" with { type: "json" };
import { loadSeedGames, loadSeedGuides } from "#app/db/seed/seed.server.ts";
import { createTestDatabase, queryRows, type TestDatabase } from "#tests/helpers/database.ts";

/**
 * Instances started together on one PostgreSQL database (a deploy, a scale-out, a restart of every
 * instance at once) each migrate and seed as they start, each from its own connections. They
 * take turns under an advisory lock: all come up, and the work is done once.
 */
const INSTANCES = 5;

let database: TestDatabase;
const opened: DatabaseConnection[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((connection) => connection.close()));
  await database.drop();
});

function startInstances(databaseUrl: string, dataDir: string) {
  return Promise.all(
    Array.from({ length: INSTANCES }, async () => {
      const connection = await connectDatabase({ databaseUrl, dataDir, migrate: true, seed: true, maxConnections: 2 });
      opened.push(connection);
      return connection;
    }),
  );
}

async function expectMigratedAndSeededOnce(connection: DatabaseConnection) {
  const [applied] = await queryRows<{ count: string }>(connection.db, sql`select count(*) as count from drizzle.__drizzle_migrations`);
  expect(Number(applied?.count)).toBe(migrationJournal.entries.length);
  const [seeded] = await queryRows<{ games: string; guides: string }>(
    connection.db,
    sql`select (select count(*) from games) as games, (select count(*) from guides) as guides`,
  );
  expect(Number(seeded?.games)).toBe(loadSeedGames().length);
  expect(Number(seeded?.guides)).toBe(loadSeedGuides().length);
}

it("all come up on a fresh database, which is migrated and seeded once", async () => {
  database = await createTestDatabase();
  const { DATABASE_URL, DATA_DIR } = database.env;
  const connections = await startInstances(DATABASE_URL!, DATA_DIR);
  expect(connections).toHaveLength(INSTANCES);
  await expectMigratedAndSeededOnce(connections[0]!);
});

it("all come up on an old database, which is brought up to date once", async () => {
  database = await createTestDatabase();
  const { DATABASE_URL, DATA_DIR } = database.env;
  const old = await connectDatabase({ databaseUrl: DATABASE_URL, dataDir: DATA_DIR });
  await runMigrations(old.db, { through: migrationJournal.entries.length - 3 });
  await old.close();
  const connections = await startInstances(DATABASE_URL!, DATA_DIR);
  await expectMigratedAndSeededOnce(connections[0]!);
});
