import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { MigrationConfig } from "drizzle-orm/migrator";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { projectPath } from "../lib/project-path.server.ts";
import type { Database } from "./client.server.ts";

export const MIGRATIONS_FOLDER = projectPath("app", "db", "migrations");
export const FUNCTIONS_FOLDER = projectPath("app", "db", "functions");

/** The part of drizzle's PgDatabase its own migrators use (hidden from its public type). */
interface MigratableDatabase {
  dialect: { migrate(migrations: unknown, session: unknown, config: MigrationConfig): Promise<void> };
  session: unknown;
}

/**
 * Brings a database up to date: the committed drizzle-kit migrations not applied yet, in one
 * transaction, recorded in drizzle.__drizzle_migrations (what drizzle's node-postgres and PGlite
 * migrators do; written once here for both drivers), then every SQL function of
 * app/db/functions/ (applyFunctions).
 */
export async function runMigrations(db: Database, { through }: { through?: number } = {}) {
  const config: MigrationConfig = { migrationsFolder: MIGRATIONS_FOLDER };
  const { dialect, session } = db as unknown as MigratableDatabase;
  // `through` stops after that many migrations, as a database of an older release was left (its
  // functions were written by its migrations then): tests rebuild one to migrate its data.
  await dialect.migrate(readMigrationFiles(config).slice(0, through), session, config);
  if (through === undefined) await applyFunctions(db);
}

export interface FunctionFile {
  /** The function's name: the file's, without `.sql`. */
  name: string;
  sql: string;
}

/**
 * The SQL functions, one file each, in the order they are applied: by name. A PL/pgSQL body is
 * resolved when it runs, so the functions it calls may come later; a `LANGUAGE sql` body is
 * checked as it is created, against the tables (which the migrations made) and the functions that
 * exist by then. None calls another of these files today; one that does must sort after it
 * (function-files.server.test.ts checks it).
 */
export function readFunctionFiles(): FunctionFile[] {
  return readdirSync(FUNCTIONS_FOLDER)
    .filter((file) => file.endsWith(".sql"))
    .sort()
    .map((file) => ({ name: path.basename(file, ".sql"), sql: readFileSync(path.join(FUNCTIONS_FOLDER, file), "utf8") }));
}

/**
 * Writes every SQL function as its file defines it (`CREATE OR REPLACE`), in one transaction: the
 * live definition of each function is its file, whatever a migration once wrote. Like Flyway's
 * repeatable migrations, on every start, after the numbered migrations and under the same lock
 * (connectDatabase). A numbered migration keeps what a file cannot do: tables, triggers, and the
 * `DROP FUNCTION` a changed signature needs before its file creates the new one — `IF EXISTS` for a
 * signature only a file ever made, which a database migrated from empty does not have yet.
 */
export async function applyFunctions(db: Database) {
  const files = readFunctionFiles();
  await db.transaction(async (tx) => {
    for (const file of files) await tx.execute(sql.raw(file.sql));
  });
}
