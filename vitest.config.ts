import { configDefaults, defineConfig, type ViteUserConfig } from "vitest/config";

const shared = {
  environment: "node",
  pool: "forks",
  testTimeout: 30_000,
  hookTimeout: 60_000,
  setupFiles: ["tests/helpers/setup.ts"],
} satisfies ViteUserConfig["test"];

const integration = ["tests/integration/**/*.test.ts"];
/** Tests that need PostgreSQL itself (several server processes on one database): postgres project only. */
const postgresOnly = ["tests/integration/**/*.postgres.test.ts"];

/**
 * Unit tests run once. Integration tests (anything with a database or the HTTP server, which
 * they start from the build) run on PGlite, and on PostgreSQL too when TEST_DATABASE_URL is set.
 * No React Router plugin here: HTTP tests run the built server.
 */
export default defineConfig({
  test: {
    projects: [
      { test: { ...shared, name: "unit", include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "scripts/**/*.test.ts"] } },
      {
        test: {
          ...shared,
          name: "pglite",
          include: integration,
          exclude: [...configDefaults.exclude, ...postgresOnly],
          env: { TEST_DATABASE_DRIVER: "pglite" },
        },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [{ test: { ...shared, name: "postgres", include: integration, env: { TEST_DATABASE_DRIVER: "postgres" } } }]
        : []),
    ],
  },
});
