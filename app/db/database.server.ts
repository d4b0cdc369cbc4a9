import type { Database, DatabaseConnection } from "./client.server.ts";

// Kept on globalThis so the development server's module reloads and the test helpers share the
// one connection the process opened (PGlite must never open its directory twice).
const holder = globalThis as typeof globalThis & { __playAsEmpressDatabase?: DatabaseConnection };

export function setDatabaseConnection(connection: DatabaseConnection | undefined) {
  holder.__playAsEmpressDatabase = connection;
}

export function databaseConnection(): DatabaseConnection {
  const connection = holder.__playAsEmpressDatabase;
  if (!connection) throw new Error("The database is not connected yet: call setDatabaseConnection() at start-up.");
  return connection;
}

/** The process's database handle, for domain modules. */
export function db(): Database {
  return databaseConnection().db;
}
