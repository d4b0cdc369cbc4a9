/**
 * Operator commands. Support: `npm run admin:grant -- <email>`, `npm run admin:revoke -- <email>`,
 * `npm run credits:grant -- <email> <n>`. On PostgreSQL they open the database directly; on the
 * embedded PGlite database they ask the running server (PGlite allows one process), or open it
 * themselves when no server runs. Backups: `npm run db:backup -- [file]` (through the running
 * server on PGlite too) and `npm run db:restore -- <file> [--force]` (never under a running
 * server on PGlite).
 */
import { statSync } from "node:fs";
import { ConfigurationError, env, type Environment } from "#app/env.server.ts";
import { parseSupportCall, type SupportCall } from "#app/domain/support-calls.ts";
import { BackupError, CommandError } from "#app/lib/operator-errors.ts";
import { controlToken, readControlFile } from "#server/control-file.ts";

// The database's modules (Drizzle, the drivers, the schema) are loaded only where a command opens
// the database itself: through a running server a command is a process start and one request,
// about a fifth of the CPU it took with them loaded up front.
const backups = () => import("#app/db/backup.server.ts");

const [command = "", ...args] = process.argv.slice(2);

/** A request to the server running on DATA_DIR's PGlite, or undefined when none answers (a stale server.json). */
async function askRunningServer(dataDir: string, pathname: string, init: RequestInit = {}, timeoutMs = 15_000): Promise<Response | undefined> {
  const control = readControlFile(dataDir);
  if (!control) return undefined;
  const headers = new Headers(init.headers);
  headers.set("Authorization", `Bearer ${controlToken(dataDir)}`);
  try {
    return await fetch(`${control.url}${pathname}`, { ...init, headers, signal: AbortSignal.timeout(timeoutMs) });
  } catch {
    return undefined;
  }
}

async function viaRunningServer(dataDir: string): Promise<string | undefined> {
  const response = await askRunningServer(dataDir, "/internal/cli", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ command, args }),
  });
  if (!response) return undefined;
  const body = (await response.json()) as { message?: string; error?: string };
  if (!response.ok) throw new CommandError(body.error ?? `The server answered ${response.status}.`);
  return body.message;
}

async function directly(config: Environment, call: SupportCall): Promise<string> {
  const [{ connectDatabase }, { setDatabaseConnection }, { runSupportCall }] = await Promise.all([
    import("#app/db/client.server.ts"),
    import("#app/db/database.server.ts"),
    import("#app/domain/support-commands.server.ts"),
  ]);
  const connection = await connectDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, migrate: true });
  setDatabaseConnection(connection);
  try {
    return await runSupportCall(call);
  } finally {
    await connection.close();
  }
}

async function backup(config: Environment): Promise<string> {
  if (args.length > 1 || args[0]?.startsWith("-"))
    throw new BackupError("db:backup takes at most one argument, the file to write: npm run db:backup -- [file]");
  const { defaultBackupFile, dumpPgliteDirectly, dumpPostgres, refuseExistingFile, writeBackupFile } = await backups();
  const file = args[0] ?? defaultBackupFile(config.DATABASE_URL ? "postgres" : "pglite");
  refuseExistingFile(file);
  if (config.DATABASE_URL) {
    await dumpPostgres(config.DATABASE_URL, file);
  } else {
    // The whole database travels in this one response: give a large one time.
    const running = await askRunningServer(config.DATA_DIR, "/internal/backup", {}, 60 * 60_000);
    if (running && !running.ok) throw new BackupError(`The running server refused the backup (${running.status}); see its log.`);
    await writeBackupFile(file, running?.body ?? (await dumpPgliteDirectly(config.DATA_DIR)));
  }
  return `Backed up the database to ${file} (${(statSync(file).size / 1024 / 1024).toFixed(1)} MB).`;
}

async function restore(config: Environment): Promise<string> {
  const force = args.includes("--force");
  const [file, ...extra] = args.filter((arg) => arg !== "--force");
  if (!file || extra.length > 0)
    throw new BackupError("Name one backup file, for example: npm run db:restore -- backups/pglite-….tar.gz [--force]");
  const { existingBackupFile, pgliteDirectory, restorePglite, restorePostgres } = await backups();
  existingBackupFile(file);
  if (config.DATABASE_URL) {
    await restorePostgres(config.DATABASE_URL, file, { force });
    return `Restored ${file} into the database of DATABASE_URL. Start the servers: they apply any migration newer than the backup.`;
  }
  if (await askRunningServer(config.DATA_DIR, "/healthz")) {
    throw new BackupError(`A server is running on ${config.DATA_DIR}: stop it before restoring its database.`);
  }
  await restorePglite(config.DATA_DIR, file, { force });
  return `Restored ${file} into ${pgliteDirectory(config.DATA_DIR)}. Start the server: it applies any migration newer than the backup.`;
}

/** A support command, its arguments checked (parseSupportCall) before anything is opened or asked. */
async function supportCommand(config: Environment, call: SupportCall): Promise<string> {
  return (config.usesEmbeddedDatabase && (await viaRunningServer(config.DATA_DIR))) || (await directly(config, call));
}

const databaseCommands: Record<string, (config: Environment) => Promise<string>> = { "db:backup": backup, "db:restore": restore };

try {
  const config = env();
  const databaseCommand = databaseCommands[command];
  const message = databaseCommand ? await databaseCommand(config) : await supportCommand(config, parseSupportCall(command, args));
  console.log(message);
} catch (error) {
  if (error instanceof CommandError || error instanceof ConfigurationError || error instanceof BackupError) {
    console.error(error.message);
    process.exitCode = 1;
  } else {
    throw error;
  }
}
