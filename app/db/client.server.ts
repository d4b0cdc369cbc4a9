import { execFile } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import { drizzle as drizzleNodePostgres } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import * as schema from "./schema.ts";
import { runMigrations } from "./migrate.server.ts";
import { seedDatabase } from "./seed/seed.server.ts";

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Either the database or a transaction: domain functions that take part in a caller's transaction accept this. */
export type Queryable = Database | Transaction;

type NotificationHandler = (payload: string) => void;
/** Told `false` when notifications may have been missed (the connection was lost), `true` once they flow again. */
type ListeningHandler = (listening: boolean) => void;

interface Connection {
  db: Database;
  /** LISTEN on a channel; the returned function stops listening. */
  listen(channel: string, handler: NotificationHandler, onListening?: ListeningHandler): Promise<() => Promise<void>>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /** Queries waiting for a free connection of the pool (PGlite has no pool: always 0). */
  waitingForConnection(): number;
  close(): Promise<void>;
}

export type DatabaseConnection =
  | (Connection & { driver: "postgres" })
  | (Connection & {
      driver: "pglite";
      /** The data directory as a gzipped tarball, taken between two queries: a consistent copy of a live database. */
      dumpDataDir(): Promise<Blob>;
    });

export interface ConnectOptions {
  /** postgres:// URL; without one, PGlite stores its files in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /** Apply pending migrations before returning. */
  migrate?: boolean;
  /** Add the games and guides of content/ never seeded before (after migrating). */
  seed?: boolean;
  /** Blocked terms to add to the admin's list when seeding, each once in the database's life. */
  seedBlockedTerms?: readonly string[];
  /** Pool size for PostgreSQL. */
  maxConnections?: number;
  /** PostgreSQL cancels (and rolls back) a statement that runs longer; 0 lets it run. */
  statementTimeoutMs?: number;
}

export async function connectDatabase(options: ConnectOptions): Promise<DatabaseConnection> {
  const connection = options.databaseUrl
    ? connectPostgres(options.databaseUrl, options.maxConnections ?? 20, options.statementTimeoutMs ?? 0)
    : await connectPglite(options.dataDir);
  if (options.migrate || options.seed) {
    await onePreparerAtATime(options.databaseUrl, async () => {
      if (options.migrate) await runMigrations(connection.db);
      if (options.seed) await seedDatabase(connection.db, { blockedTerms: options.seedBlockedTerms });
    });
  }
  return connection;
}

/** The advisory lock instances starting on one PostgreSQL database take turns under. */
const PREPARE_LOCK = "play-as-empress:migrate-and-seed";

/**
 * Any number of instances may start together on one database, fresh or old: they migrate and seed
 * one at a time, so the first does the work and the rest find nothing left to do. Two running the
 * same migration at once collided in PostgreSQL's catalogue (`pg_type_typname_nsp_index`), and two
 * seeding at once would both insert the same games. The lock is held by a session of its own,
 * outside the pool (whose connections the work uses), and ends with it, even if this process dies
 * mid-migration. PGlite has one process per data directory: nothing to take turns with.
 */
async function onePreparerAtATime(databaseUrl: string | undefined, work: () => Promise<void>) {
  if (!databaseUrl) return work();
  const session = new pg.Client({ connectionString: databaseUrl });
  session.on("error", () => {});
  await session.connect();
  try {
    await session.query("SELECT pg_advisory_lock(hashtextextended($1, 0))", [PREPARE_LOCK]);
    await work();
  } finally {
    await session.end().catch(() => {});
  }
}

/**
 * PostgreSQL settings of the embedded database (docs/decisions/028). In WebAssembly, PostgreSQL's
 * shared memory is memory of this process, allocated and zeroed at start: initdb's 128 MB of
 * shared_buffers were 128 MB of RSS for a database of a few megabytes. 16 MB holds the seeded
 * site several times over; a page beyond it is read again from the data directory, which the
 * operating system caches. Given at every start, so directories made before this setting get it too.
 */
const PGLITE_SETTINGS = ["-c", "shared_buffers=16MB"];
const PGLITE_OPTIONS = {
  startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS],
  initDbStartParams: PGLITE_SETTINGS,
} satisfies PGliteOptions;

async function connectPglite(dataDir: string): Promise<DatabaseConnection> {
  const inMemory = dataDir === "memory://";
  const directory = inMemory ? dataDir : path.join(dataDir, "pglite");
  if (!inMemory && !existsSync(path.join(directory, "PG_VERSION"))) await createPgliteDirectory(directory);
  const client = await PGlite.create(directory, { ...PGLITE_OPTIONS });
  const db = drizzlePglite({ client, schema }) as unknown as Database;
  return {
    db,
    driver: "pglite",
    async listen(channel, handler) {
      const unlisten = await client.listen(channel, handler);
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
    async ping() {
      await client.query("select 1");
    },
    // PGlite runs one query at a time in this process; its queue is private to it.
    waitingForConnection: () => 0,
    dumpDataDir: () => client.dumpDataDir("gzip"),
    async close() {
      if (!client.closed) await client.close();
    },
  };
}

/**
 * PGlite runs initdb with a second instance beside the first and copies the result across: a
 * server that did so in-process peaked at twice its usual memory and, idle, kept about 80 MiB of
 * it (garbage an idle server never collects). A short-lived process makes the directory instead,
 * so the server opens it as after a restart. The child stays on WebAssembly's baseline compiler,
 * as `npm start` does, and initdb gets the small buffers: its own peak is about 510 MiB, not 1 GiB.
 */
async function createPgliteDirectory(directory: string) {
  mkdirSync(directory, { recursive: true });
  const pglite = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  const script = `require(${JSON.stringify(pglite)}).PGlite.create(${JSON.stringify(directory)}, ${JSON.stringify(PGLITE_OPTIONS)}).then((client) => client.close())`;
  try {
    await promisify(execFile)(process.execPath, ["--liftoff-only", "-e", script]);
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(`Could not create the embedded database in ${directory}: ${stderr?.trim() || (error as Error).message}`, { cause: error });
  }
}

/** Makes `directory` (new or empty) the database of a tarball from dumpDataDir, and checks that PostgreSQL starts on it. */
export async function restorePgliteDirectory(directory: string, tarball: Blob) {
  mkdirSync(directory, { recursive: true });
  const client = await PGlite.create(directory, { ...PGLITE_OPTIONS, loadDataDir: tarball });
  try {
    await client.query("select 1");
  } finally {
    await client.close();
  }
}

/** How long a query waits for a free PostgreSQL connection before failing as busy (busy.server.ts). */
export const POOL_CONNECTION_TIMEOUT_MS = 5000;

function connectPostgres(databaseUrl: string, maxConnections: number, statementTimeoutMs: number): DatabaseConnection {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: maxConnections,
    connectionTimeoutMillis: POOL_CONNECTION_TIMEOUT_MS,
    // A statement stuck behind a lock or a bad plan frees its connection instead of starving the rest.
    ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
  });
  // An idle client that loses its server emits 'error'; without a listener that would crash the process.
  pool.on("error", () => {});
  const db = drizzleNodePostgres({ client: pool, schema }) as unknown as Database;
  const listener = new NotificationListener(databaseUrl);
  let closed: Promise<void> | undefined;
  return {
    db,
    driver: "postgres",
    listen: (channel, handler, onListening) => listener.listen(channel, handler, onListening),
    async ping() {
      await pool.query("select 1");
    },
    waitingForConnection: () => pool.waitingCount,
    close() {
      closed ??= listener.close().then(() => pool.end());
      return closed;
    },
  };
}

/**
 * One dedicated connection holds every LISTEN of this process (a pooled client cannot, since
 * the pool hands it to other queries). It reconnects and re-subscribes if the server drops it.
 */
class NotificationListener {
  #client: pg.Client | undefined;
  #connecting: Promise<pg.Client> | undefined;
  #handlers = new Map<string, Set<NotificationHandler>>();
  #listening = new Set<ListeningHandler>();
  #closed = false;
  readonly #databaseUrl: string;

  constructor(databaseUrl: string) {
    this.#databaseUrl = databaseUrl;
  }

  async listen(channel: string, handler: NotificationHandler, onListening?: ListeningHandler) {
    const client = await this.#connection();
    if (onListening) this.#listening.add(onListening);
    let handlers = this.#handlers.get(channel);
    if (!handlers) {
      handlers = new Set();
      this.#handlers.set(channel, handlers);
      await client.query(`LISTEN ${quoteIdentifier(channel)}`);
    }
    handlers.add(handler);
    return async () => {
      if (onListening) this.#listening.delete(onListening);
      handlers.delete(handler);
      if (handlers.size === 0 && this.#handlers.get(channel) === handlers) {
        this.#handlers.delete(channel);
        await this.#client?.query(`UNLISTEN ${quoteIdentifier(channel)}`).catch(() => {});
      }
    };
  }

  async close() {
    this.#closed = true;
    this.#handlers.clear();
    this.#listening.clear();
    await this.#client?.end().catch(() => {});
  }

  #connection(): Promise<pg.Client> {
    if (this.#client) return Promise.resolve(this.#client);
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #connect() {
    const client = new pg.Client({ connectionString: this.#databaseUrl });
    client.on("notification", (message) => {
      for (const handler of this.#handlers.get(message.channel) ?? []) handler(message.payload ?? "");
    });
    const lost = () => {
      if (this.#client !== client) return;
      this.#client = undefined;
      for (const observer of this.#listening) observer(false);
      this.#reconnectSoon();
    };
    client.on("error", lost);
    client.on("end", lost);
    await client.connect();
    for (const channel of this.#handlers.keys()) await client.query(`LISTEN ${quoteIdentifier(channel)}`);
    this.#client = client;
    for (const observer of this.#listening) observer(true);
    return client;
  }

  #reconnectSoon() {
    if (this.#closed || this.#handlers.size === 0) return;
    setTimeout(() => {
      if (!this.#closed && !this.#client) this.#connection().catch(() => this.#reconnectSoon());
    }, 1000).unref();
  }
}

function quoteIdentifier(name: string) {
  return `"${name.replaceAll('"', '""')}"`;
}
