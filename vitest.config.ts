import { availableParallelism } from "node:os";
import { configDefaults, defineConfig, type ViteUserConfig } from "vitest/config";

const shared = {
  environment: "node",
  pool: "forks",
  // Generous: integration tests start server processes and CLIs, and on a loaded 2-core CI machine
  // a PGlite start or a page render takes several times what it takes here. A limit only ends a
  // test that was failing anyway; what a test promises about time it asserts itself. A file's
  // first test also starts the fixtures it asks for (tests/helpers/fixtures.ts: the server, once a
  // beforeAll's work), so it has what a hook has.
  testTimeout: 120_000,
  hookTimeout: 120_000,
  expect: { poll: { timeout: 10_000 } },
  setupFiles: ["tests/helpers/setup.ts"],
} satisfies ViteUserConfig["test"];
/** A database migrated and seeded once a run, which test servers' databases begin as copies of. */
const preparedDatabase = ["tests/helpers/prepared-database.ts"];

const integration = ["tests/integration/**/*.test.ts"];
/** Tests that need PostgreSQL itself (several server processes on one database): postgres project only. */
const postgresOnly = ["tests/integration/**/*.postgres.test.ts"];
/** Tests that start their own site on a PGlite directory whatever the project: the pglite project runs them once. */
const pgliteOnly = ["tests/integration/gm-eval.test.ts"];

/**
 * Unit tests run once. Integration tests (anything with a database or the HTTP server, which
 * they start from the build) run on PGlite, and on PostgreSQL too when TEST_DATABASE_URL is set.
 * No React Router plugin here: HTTP tests run the built server.
 */
export default defineConfig({
  test: {
    // An integration test spends most of its time waiting on the server processes it started, the
    // database and its own timers: more files at once than cores (Vitest's default is one fewer
    // than the cores, a single file at a time on a 2-core machine).
    maxWorkers: Math.max(3, availableParallelism() - 1),
    projects: [
      { test: { ...shared, name: "unit", include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "scripts/**/*.test.ts"] } },
      {
        test: {
          ...shared,
          name: "pglite",
          include: integration,
          globalSetup: preparedDatabase,
          exclude: [...configDefaults.exclude, ...postgresOnly],
          env: { TEST_DATABASE_DRIVER: "pglite" },
        },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              test: {
                ...shared,
                name: "postgres",
                include: integration,
                exclude: [...configDefaults.exclude, ...pgliteOnly],
                globalSetup: preparedDatabase,
                env: { TEST_DATABASE_DRIVER: "postgres" },
              },
            },
          ]
        : []),
    ],
  },
});
