import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { SQL } from "drizzle-orm";
import { connectDatabase, type Database, type DatabaseConnection } from "#app/db/client.server.ts";

/**
 * A fresh, migrated database for one test file: PGlite in a temporary directory, or — in the
 * "postgres" test project (TEST_DATABASE_URL set) — a new PostgreSQL database created next to
 * TEST_DATABASE_URL's and dropped after.
 */
export interface TestDatabase {
  /** Environment that points a server at this database. */
  env: { DATABASE_URL?: string; DATA_DIR: string };
  driver: "pglite" | "postgres";
  /** Opens a connection (migrated). For PGlite only one may be open at a time. */
  connect(): Promise<DatabaseConnection>;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "pae-test-"));
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl || process.env.TEST_DATABASE_DRIVER !== "postgres") {
    return {
      env: { DATA_DIR: dataDir },
      driver: "pglite",
      connect: () => connectDatabase({ dataDir, migrate: true }),
      async drop() {
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }

  const name = `test_${Date.now()}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  return {
    env: { DATABASE_URL: databaseUrl, DATA_DIR: dataDir },
    driver: "postgres",
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
