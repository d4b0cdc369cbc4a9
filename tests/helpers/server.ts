import { existsSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import type { DatabaseConnection } from "#app/db/client.server.ts";
import type { RunningServer } from "#server/app.ts";
import { createTestDatabase, type TestDatabase } from "./database.ts";

const BUILD_ENTRY = path.resolve(import.meta.dirname, "../../build/server/index.js");

export interface TestServer {
  url: string;
  /** The server's own database connection, for arranging data and checking results. */
  connection: DatabaseConnection;
  database: TestDatabase;
  /** fetch() relative to the server, without following redirects. */
  fetch(pathname: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Starts the built app (`npm run build`) in this test process on a free port, against a database
 * of its own, begun as a copy of the run's prepared one. The configuration is read once per
 * process, so one test file runs one server configuration; `env` adds variables to the embedded
 * defaults (or says them once the database exists, to reach it another way).
 */
export async function startTestServer(
  envOrFromDatabase: Record<string, string | undefined> | ((database: TestDatabase) => Promise<Record<string, string | undefined>>) = {},
): Promise<TestServer> {
  if (!existsSync(BUILD_ENTRY)) throw new Error("Build the app first: npm run build");
  const database = await createTestDatabase({ prepared: true });
  const env = typeof envOrFromDatabase === "function" ? await envOrFromDatabase(database) : envOrFromDatabase;
  const port = await freePort();
  Object.assign(process.env, {
    NODE_ENV: "test",
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...database.env,
    ...env,
  });
  // A variable given as undefined is one the test wants unset (process.env would keep "undefined").
  for (const [name, value] of Object.entries(env)) if (value === undefined) Reflect.deleteProperty(process.env, name);
  const bundle = (await import(BUILD_ENTRY)) as { startServer: () => Promise<RunningServer> };
  const server = await bundle.startServer();
  return {
    url: server.url,
    connection: server.connection,
    database,
    fetch: (pathname, init = {}) => {
      // As a browser on the site's own pages does; tests of cross-site requests set their own.
      const headers = new Headers(init.headers);
      if (!headers.has("origin")) headers.set("origin", server.url);
      return fetch(new URL(pathname, server.url), { redirect: "manual", ...init, headers });
    },
    async close() {
      await server.close();
      await database.drop();
    },
  };
}

/** A port nobody listens on right now (the server takes it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}
