import type { MigrationConfig } from "drizzle-orm/migrator";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { projectPath } from "../lib/project-path.server.ts";
import type { Database } from "./client.server.ts";

export const MIGRATIONS_FOLDER = projectPath("app", "db", "migrations");

/** The part of drizzle's PgDatabase its own migrators use (hidden from its public type). */
interface MigratableDatabase {
  dialect: { migrate(migrations: unknown, session: unknown, config: MigrationConfig): Promise<void> };
  session: unknown;
}

/**
 * Applies committed drizzle-kit migrations, in one transaction, recording them in
 * drizzle.__drizzle_migrations. This is what drizzle's node-postgres and PGlite migrators do;
 * written once here for both drivers.
 */
export async function runMigrations(db: Database, { through }: { through?: number } = {}) {
  const config: MigrationConfig = { migrationsFolder: MIGRATIONS_FOLDER };
  const { dialect, session } = db as unknown as MigratableDatabase;
  // `through` stops after that many migrations: tests rebuild an older database to migrate its data.
  await dialect.migrate(readMigrationFiles(config).slice(0, through), session, config);
}
