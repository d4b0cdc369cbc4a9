import { defineConfig } from "vitest/config";

// Browser journeys: Playwright driving Debian's Chromium against the built server.
export default defineConfig({
  test: {
    include: ["tests/e2e/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 90_000,
    setupFiles: ["tests/helpers/setup.ts"],
  },
});
