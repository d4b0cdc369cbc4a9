import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, openAsBlob, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { BackupError } from "../lib/operator-errors.ts";
import { connectDatabase, restorePgliteDirectory } from "./client.server.ts";

/**
 * `npm run db:backup` and `npm run db:restore` (scripts/cli.ts). On PostgreSQL, PostgreSQL's own
 * tools: pg_dump's custom format, pg_restore into the database of DATABASE_URL. On the embedded
 * database, PGlite's dump of its data directory (a gzipped tarball), loaded into an empty
 * DATA_DIR. A backup is the database only: the secrets in DATA_DIR (auth-secret) are
 * configuration, kept or set (AUTH_SECRET) apart from it.
 */

/** Where a backup goes when no file is named: ./backups/, by kind and time. */
export function defaultBackupFile(driver: "pglite" | "postgres", now = new Date()) {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replaceAll(":", "-");
  return path.join("backups", driver === "postgres" ? `postgres-${stamp}.dump` : `pglite-${stamp}.tar.gz`);
}

/** The directory of the embedded database in DATA_DIR (client.server.ts opens the same). */
export function pgliteDirectory(dataDir: string) {
  return path.join(dataDir, "pglite");
}

/** Refuses a file that is there already: a backup never replaces another. */
export function refuseExistingFile(file: string) {
  if (existsSync(file)) throw new BackupError(`${file} exists already: name another file, or move that one away.`);
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
}

/** Makes `file` whole or not at all: `write` fills a file beside it (a partial file would look like a backup). */
async function writeWhole(file: string, write: (partial: string) => Promise<unknown>) {
  const partial = `${file}.${randomBytes(4).toString("hex")}.partial`;
  try {
    await write(partial);
    renameSync(partial, file);
  } finally {
    rmSync(partial, { force: true });
  }
}

/** Writes the bytes of a backup to `file`. */
export function writeBackupFile(file: string, bytes: Blob | AsyncIterable<Uint8Array>) {
  return writeWhole(file, (partial) => writeFile(partial, bytes instanceof Blob ? bytes.stream() : bytes, { flag: "wx" }));
}

/** The embedded database of a DATA_DIR no server runs on, dumped by opening it here. */
export async function dumpPgliteDirectly(dataDir: string): Promise<Blob> {
  if (!existsSync(path.join(pgliteDirectory(dataDir), "PG_VERSION"))) {
    throw new BackupError(`There is no database in ${pgliteDirectory(dataDir)} to back up.`);
  }
  const connection = await connectDatabase({ dataDir });
  try {
    if (connection.driver !== "pglite") throw new Error("Expected the embedded database.");
    return await connection.dumpDataDir();
  } finally {
    await connection.close();
  }
}

/**
 * Loads a PGlite backup into DATA_DIR/pglite. An existing database there is replaced only when
 * `force` says so, and only once the backup has loaded beside it and started.
 */
export async function restorePglite(dataDir: string, file: string, { force }: { force: boolean }) {
  const target = pgliteDirectory(dataDir);
  const occupied = existsSync(target) && readdirSync(target).length > 0;
  if (occupied && !force) {
    throw new BackupError(
      `${target} holds a database already. Restore into an empty DATA_DIR, or add --force to replace that database (stop the server first).`,
    );
  }
  const staging = `${target}.restoring-${randomBytes(4).toString("hex")}`;
  try {
    await restorePgliteDirectory(staging, await openAsBlob(existingBackupFile(file)));
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw new BackupError(`${file} could not be loaded as a backup of the embedded database: ${(error as Error).message}`);
  }
  rmSync(target, { recursive: true, force: true });
  renameSync(staging, target);
}

/** Runs pg_dump into `file`, after checking it can read this server. */
export async function dumpPostgres(databaseUrl: string, file: string) {
  const connection = await postgresConnection(databaseUrl, "pg_dump");
  await writeWhole(file, (partial) => runTool("pg_dump", ["--format=custom", `--file=${partial}`, `--dbname=${connection.url}`], connection.env));
}

/**
 * Runs pg_restore into DATABASE_URL's database: what the backup holds is dropped and made anew,
 * in one transaction (a failure changes nothing). A database with tables is replaced only when
 * `force` says so.
 */
export async function restorePostgres(databaseUrl: string, file: string, { force }: { force: boolean }) {
  existingBackupFile(file);
  const connection = await postgresConnection(databaseUrl, "pg_restore");
  if (connection.tables > 0 && !force) {
    throw new BackupError(
      `The database of DATABASE_URL has ${connection.tables} tables already. Restore into an empty database, or add --force to replace what the backup holds (stop the servers first).`,
    );
  }
  await runTool(
    "pg_restore",
    ["--clean", "--if-exists", "--no-owner", "--single-transaction", `--dbname=${connection.url}`, file],
    connection.env,
  );
}

/** The file named as a backup to restore, once it is known to be there. */
export function existingBackupFile(file: string) {
  if (!existsSync(file) || !statSync(file).isFile()) throw new BackupError(`There is no backup file ${file}.`);
  return file;
}

type PostgresTool = "pg_dump" | "pg_restore";

/**
 * What a tool needs to reach the server, once the server answers and the tool is new enough for
 * it: the URL without its password (which would show in the process list) and the password as
 * PGPASSWORD.
 */
async function postgresConnection(databaseUrl: string, tool: PostgresTool) {
  const client = new pg.Client({ connectionString: databaseUrl });
  let serverVersion: number;
  let tables: number;
  try {
    await client.connect();
    const version = await client.query<{ server_version_num: string }>("show server_version_num");
    serverVersion = Math.floor(Number(version.rows[0]?.server_version_num) / 10_000);
    const counted = await client.query<{ tables: number }>(
      "select count(*)::int as tables from pg_tables where schemaname not in ('pg_catalog', 'information_schema')",
    );
    tables = counted.rows[0]?.tables ?? 0;
  } catch (error) {
    throw new BackupError(`The database of DATABASE_URL does not answer: ${(error as Error).message}`);
  } finally {
    await client.end().catch(() => {});
  }
  const toolVersion = await postgresToolVersion(tool, serverVersion);
  if (toolVersion < serverVersion) {
    throw new BackupError(`${tool} is version ${toolVersion}, older than the server (PostgreSQL ${serverVersion}). ${installHint(serverVersion)}`);
  }
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = "";
  const env: Record<string, string> = password ? { PGPASSWORD: password } : {};
  return { url: url.toString(), env, tables };
}

function installHint(serverVersion: number) {
  return `Install PostgreSQL's client tools of version ${serverVersion} or newer (Debian and Ubuntu: apt-get install postgresql-client-${serverVersion}; elsewhere the PostgreSQL packages of your system) and put them on the PATH.`;
}

async function postgresToolVersion(tool: PostgresTool, serverVersion: number): Promise<number> {
  let output: string;
  try {
    ({ stdout: output } = await promisify(execFile)(tool, ["--version"]));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new BackupError(`${tool} was not found. ${installHint(serverVersion)}`);
    throw error;
  }
  const major = /\(PostgreSQL\)\s+(\d+)/.exec(output)?.[1];
  if (!major) throw new BackupError(`${tool} --version answered "${output.trim()}", not a version of PostgreSQL's ${tool}.`);
  return Number(major);
}

async function runTool(tool: PostgresTool, args: string[], env: Record<string, string>) {
  try {
    await promisify(execFile)(tool, args, { env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new BackupError(`${tool} failed: ${stderr?.trim() || (error as Error).message}`);
  }
}
