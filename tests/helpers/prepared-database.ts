import type { TestProject } from "vitest/node";
import { seedDatabase } from "#app/db/seed/seed.server.ts";
import { createTestDatabase, PREPARED_DATABASE } from "./database.ts";

/**
 * Global setup of the integration and browser tests: one database, migrated and seeded as a
 * server's first start leaves it, made once a run. Each test server's database begins as a copy
 * of it. Making a PGlite directory, migrating and seeding it costs about 6 s of CPU, which a
 * hundred test files each paid on two cores; a copy takes a fraction of a second. The workers are
 * forked after this runs, with its environment.
 */
export default async function prepareDatabase(project: TestProject) {
  // The "postgres" project of vitest.config.ts; the others (and the browser tests) run on PGlite.
  const driver = project.name === "postgres" && process.env.TEST_DATABASE_URL ? "postgres" : "pglite";
  const database = await createTestDatabase({ driver });
  const connection = await database.connect();
  await seedDatabase(connection.db);
  await connection.close();
  process.env[PREPARED_DATABASE[driver]] = database.source;
  return () => database.drop();
}
