import { db } from "../db/database.server.ts";
import { publicContentVersion } from "../db/schema.ts";
import type { Database } from "../db/client.server.ts";

/**
 * The version of what visitors see: bumped by triggers in the same transaction as any change to
 * games, game_content or guides (migration 0003). Read on every visitor request, so it is one
 * prepared statement per database handle.
 */
const prepared = new WeakMap<Database, ReturnType<typeof prepare>>();

function prepare(database: Database) {
  return database.select({ version: publicContentVersion.version }).from(publicContentVersion).limit(1).prepare("public_content_version");
}

export async function readPublicContentVersion(): Promise<number> {
  const database = db();
  let query = prepared.get(database);
  if (!query) {
    query = prepare(database);
    prepared.set(database, query);
  }
  const [row] = await query.execute();
  return row?.version ?? 0;
}
