import type { Database } from "./client.server.ts";
import { db } from "./database.server.ts";

/**
 * A query built once per database handle and kept as a named prepared statement: for queries run
 * on every request, where building the SQL each time costs more CPU than the database's answer.
 * Returns a function giving the statement for the process's current database.
 */
export function preparedQuery<Statement>(build: (database: Database) => Statement): () => Statement {
  const statements = new WeakMap<Database, Statement>();
  return () => {
    const database = db();
    let statement = statements.get(database);
    if (!statement) {
      statement = build(database);
      statements.set(database, statement);
    }
    return statement;
  };
}
