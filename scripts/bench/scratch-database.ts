import { randomBytes } from "node:crypto";
import pg from "pg";

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A new, empty database on the PostgreSQL server `adminUrl` points at, so a benchmark never
 * touches data it did not make; undefined (with a line saying why) when the server does not answer.
 */
export async function createScratchDatabase(adminUrl: string, prefix: string): Promise<ScratchDatabase | undefined> {
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    console.log(`PostgreSQL at ${adminUrl} is not reachable (${(error as Error).message}); skipped.`);
    return undefined;
  }
  const name = `${prefix}_${Date.now()}_${randomBytes(3).toString("hex")}`;
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      try {
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}

/**
 * What autovacuum would have done, where the server runs without it (this workplace's machines do;
 * a production server runs it): the database's dead rows cleared and its statistics taken, so a
 * measured run does not pay for the rows every run before it left. The site updates rows (a turn's
 * story, its reply) where the relay only inserts, so without it each run of the site is slower than
 * the one before. Asked once; `beforeRun` vacuums where autovacuum is off and does nothing where it is on.
 */
export async function autovacuumStandIn(client: pg.Client) {
  const { rows } = await client.query<{ autovacuum: string }>("SHOW autovacuum");
  const needed = rows[0]?.autovacuum !== "on";
  return {
    needed,
    beforeRun: async () => {
      if (needed) await client.query("VACUUM (ANALYZE)");
    },
  };
}
