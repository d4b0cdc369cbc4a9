/** The game-chat bench's players: signed up through the site, each given credits and a story in every game. */
import { eq } from "drizzle-orm";
import { connectDatabase } from "#app/db/client.server.ts";
import { setDatabaseConnection } from "#app/db/database.server.ts";
import { stories } from "#app/db/schema.ts";
import { applyCreditChange } from "#app/domain/credits.server.ts";
import { OPENING_EXCHANGE, seedStory } from "#tests/helpers/stories.ts";
import { GAMES, RELAY_STORY_TITLE, type Player } from "./game-chat-settings.ts";

/** A player signed up through the site's own endpoint, with the session token it answered. */
export async function signUp(siteUrl: string, index: number): Promise<Player> {
  const email = `bench-${index}@example.com`;
  const response = await fetch(`${siteUrl}/api/auth/sign-up/email`, {
    method: "POST",
    // Each player from their own address: the sign-up limit is per address, and it is not what is measured.
    headers: { "Content-Type": "application/json", Origin: siteUrl, "X-Forwarded-For": `10.0.${index >> 8}.${index & 255}` },
    body: JSON.stringify({ email, password: "a long enough password", name: "Bench" }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  return { email, token: ((await response.json()) as { token: string }).token };
}

/**
 * Credits for every player, and a story begun in every game: the opening scene is free and
 * limited per minute, and it is not what is measured.
 */
export async function prepareStories({ databaseUrl, dataDir, credits }: { databaseUrl: string; dataDir: string; credits: number }) {
  const connection = await connectDatabase({ databaseUrl, dataDir, maxConnections: 4 });
  setDatabaseConnection(connection);
  const rows = await connection.db.query.user.findMany({ columns: { id: true } });
  for (const row of rows) {
    await applyCreditChange({ userId: row.id, delta: credits, reason: "admin_grant", reference: `bench:${row.id}` });
    for (const gameSlug of GAMES) {
      // The relay's story first: the site continues the newest.
      const relayStory = await seedStory(connection.db, { userId: row.id, gameSlug, exchanges: [OPENING_EXCHANGE] });
      await connection.db
        .update(stories)
        .set({ title: RELAY_STORY_TITLE, updatedAt: new Date(0) })
        .where(eq(stories.id, relayStory));
      await seedStory(connection.db, { userId: row.id, gameSlug, exchanges: [OPENING_EXCHANGE] });
    }
  }
  await connection.close();
}
