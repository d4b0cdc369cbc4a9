import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { SQL } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { connectDatabase, type Database, type DatabaseConnection } from "#app/db/client.server.ts";
import { setDatabaseConnection } from "#app/db/database.server.ts";
import { runMigrations } from "#app/db/migrate.server.ts";

type Driver = "pglite" | "postgres";

/**
 * Where the run's prepared database is (prepared-database.ts makes it), for the workers'
 * createTestDatabase({ prepared: true }): a PGlite directory, or a PostgreSQL database's name.
 */
export const PREPARED_DATABASE: Record<Driver, string> = {
  pglite: "TEST_PREPARED_PGLITE_DIR",
  postgres: "TEST_PREPARED_POSTGRES_DATABASE",
};

/** The driver of this test project: PostgreSQL in the "postgres" project, PGlite elsewhere. */
function projectDriver(): Driver {
  return process.env.TEST_DATABASE_URL && process.env.TEST_DATABASE_DRIVER === "postgres" ? "postgres" : "pglite";
}

/**
 * A database for one test file: PGlite in a temporary directory, or — in the "postgres" test
 * project (TEST_DATABASE_URL set) — a new PostgreSQL database created next to TEST_DATABASE_URL's
 * and dropped after. Empty, as a first start finds it; or, `prepared`, a copy of the run's database
 * migrated and seeded once (prepared-database.ts), as a server leaves it after its first start.
 */
export interface TestDatabase {
  /** Environment that points a server at this database. */
  env: { DATABASE_URL?: string; DATA_DIR: string };
  driver: Driver;
  /** What a copy of this database is made from: its PGlite directory, or its PostgreSQL name. */
  source: string;
  /** Opens a connection (migrated). For PGlite only one may be open at a time. */
  connect(): Promise<DatabaseConnection>;
  drop(): Promise<void>;
}

export async function createTestDatabase({ prepared = false, driver = projectDriver() } = {}): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "pae-test-"));
  const preparedSource = prepared ? process.env[PREPARED_DATABASE[driver]] : undefined;
  if (driver === "pglite") {
    if (preparedSource) cpSync(path.join(preparedSource, "pglite"), path.join(dataDir, "pglite"), { recursive: true });
    return {
      env: { DATA_DIR: dataDir },
      driver,
      source: dataDir,
      connect: () => connectDatabase({ dataDir, migrate: true }),
      async drop() {
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }

  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("A PostgreSQL test database needs TEST_DATABASE_URL.");
  const name = `test_${Date.now()}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(preparedSource ? `CREATE DATABASE ${name} TEMPLATE ${preparedSource}` : `CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  return {
    env: { DATABASE_URL: databaseUrl, DATA_DIR: dataDir },
    driver,
    source: name,
    connect: () => connectDatabase({ databaseUrl, dataDir, migrate: true, maxConnections: 10 }),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Rows of a raw SQL query (both drivers answer `{ rows }`). */
export async function queryRows<Row>(db: Database, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as { rows: Row[] };
  return result.rows;
}

/**
 * A test database for the test file that calls this: created before its tests, connected as the
 * app's connection, and dropped after them. `connection()` is the open connection, once it is.
 */
export function testDatabaseForFile() {
  let database: TestDatabase | undefined;
  let connection: DatabaseConnection | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    connection = await database.connect();
    setDatabaseConnection(connection);
  });
  afterAll(async () => {
    await connection?.close();
    await database?.drop();
  });
  return {
    connection() {
      if (!connection) throw new Error("The test database is connected before the file's tests, not while they are being collected.");
      return connection;
    },
  };
}

/**
 * A migration test's database: PGlite of the file's own, migrated through the first `through`
 * migrations (as an older release left it), given `olderRows` in that shape, then migrated to the
 * newest; closed and removed after the file's tests. `connection()` is the open connection.
 */
export function upgradedDatabaseForFile(through: number, olderRows: (db: Database) => Promise<unknown>) {
  let dataDir: string | undefined;
  let connection: DatabaseConnection | undefined;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "pae-migration-"));
    connection = await connectDatabase({ dataDir });
    await runMigrations(connection.db, { through });
    await olderRows(connection.db);
    await runMigrations(connection.db);
  });
  afterAll(async () => {
    await connection?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    connection() {
      if (!connection) throw new Error("The migrated database is open once the file's tests run, not while they are being collected.");
      return connection;
    },
  };
}
