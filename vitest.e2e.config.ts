import { defineConfig } from "vitest/config";

// Browser journeys: Playwright driving Debian's Chromium against the built server.
export default defineConfig({
  test: {
    include: ["tests/e2e/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    // Two files at a time, each with its own server, database and browser: one at a time took
    // 12 minutes of CI's 30 on two cores.
    maxWorkers: 2,
    // A file's first test also starts the server and the browser (tests/helpers/fixtures.ts), which
    // a beforeAll did with a limit of its own.
    testTimeout: 150_000,
    hookTimeout: 90_000,
    // Vitest's default of 1 s is shorter than a reply takes to arrive beside another file's browser.
    expect: { poll: { timeout: 10_000 } },
    setupFiles: ["tests/helpers/setup.ts"],
    globalSetup: ["tests/helpers/prepared-database.ts"],
  },
});
