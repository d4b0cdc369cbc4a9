/**
 * Support commands: `npm run admin:grant -- <email>`, `npm run admin:revoke -- <email>`,
 * `npm run credits:grant -- <email> <n>`. On PostgreSQL they open the database directly; on the
 * embedded PGlite database they ask the running server (PGlite allows one process), or open it
 * themselves when no server runs.
 */
import { connectDatabase } from "#app/db/client.server.ts";
import { setDatabaseConnection } from "#app/db/database.server.ts";
import { CommandError, runSupportCommand } from "#app/domain/support-commands.server.ts";
import { ConfigurationError, env } from "#app/env.server.ts";
import { controlToken, readControlFile } from "#server/control.ts";

const [command = "", ...args] = process.argv.slice(2);

async function viaRunningServer(dataDir: string): Promise<string | undefined> {
  const control = readControlFile(dataDir);
  if (!control) return undefined;
  let response: Response;
  try {
    response = await fetch(`${control.url}/internal/cli`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${controlToken(dataDir)}` },
      body: JSON.stringify({ command, args }),
      signal: AbortSignal.timeout(15_000),
    });
  } catch {
    return undefined; // A stale file from a server that is gone: open the database ourselves.
  }
  const body = (await response.json()) as { message?: string; error?: string };
  if (!response.ok) throw new CommandError(body.error ?? `The server answered ${response.status}.`);
  return body.message;
}

async function directly(): Promise<string> {
  const config = env();
  const connection = await connectDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, migrate: true });
  setDatabaseConnection(connection);
  try {
    return await runSupportCommand(command, args);
  } finally {
    await connection.close();
  }
}

try {
  const config = env();
  const message = (config.usesEmbeddedDatabase && (await viaRunningServer(config.DATA_DIR))) || (await directly());
  console.log(message);
} catch (error) {
  if (error instanceof CommandError || error instanceof ConfigurationError) {
    console.error(error.message);
    process.exitCode = 1;
  } else {
    throw error;
  }
}
