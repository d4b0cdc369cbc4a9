import { preparedQuery } from "../db/prepared.server.ts";
import { publicContentVersion } from "../db/schema.ts";

/**
 * The version of what visitors see: bumped by triggers in the same transaction as any change to
 * games, game_content or guides (migration 0003). Read on every visitor request.
 */
const versionQuery = preparedQuery((database) =>
  database.select({ version: publicContentVersion.version }).from(publicContentVersion).limit(1).prepare("public_content_version"),
);

export async function readPublicContentVersion(): Promise<number> {
  const [row] = await versionQuery().execute();
  return row?.version ?? 0;
}
