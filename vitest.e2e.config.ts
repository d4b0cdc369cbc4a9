import { defineConfig, type ViteUserConfig } from "vitest/config";

/**
 * Files on the site's default settings. They share one server and one Chromium per worker
 * process (tests/helpers/fixtures.ts): the server's configuration is read once per process, so
 * only files that would start it alike can share it, and they must run one after another in the
 * same process (`isolate: false`). Each file keeps a browser context of its own and checks only
 * the rows it made. Not here, with a server of their own: every file with its own `serverEnv` or
 * fakes it talks to, public-catalogue (it checks the whole catalogue, which other files add games
 * to) and admin-game-models (it sets the offline storyteller's prices and Empress Simulator's
 * model for the whole site), and admin: in a CI run on a shared server its multi-section editor
 * test hung until its time ran out, which no run alone has repeated; it edits games, guides and
 * the inbox as the panel lists them all, and at 90 s its own server's start is a small share.
 */
const sharedDefault = [
  "admin-gate",
  "admin-lorebook",
  "admin-models",
  "admin-overview",
  "admin-publishing",
  "covers",
  "home",
  "payments",
  "public-site",
  "story-state",
].map((name) => `tests/e2e/${name}.test.ts`);

/** The play screen's files on playScreenTest's own setting (AI_OFFLINE_WORD_DELAY_MS 20), unchanged. */
const sharedPlayScreen = ["story-branches", "story-controls", "story-library"].map((name) => `tests/e2e/${name}.test.ts`);

const common = {
  environment: "node",
  pool: "forks",
  // A file's first test also starts what it asks for (tests/helpers/fixtures.ts): its server and
  // browser, or in a shared project the worker's, which a beforeAll did with a limit of its own.
  testTimeout: 150_000,
  hookTimeout: 90_000,
  // Vitest's default of 1 s is shorter than a reply takes to arrive beside another file's browser.
  expect: { poll: { timeout: 10_000 } },
  setupFiles: ["tests/helpers/setup.ts"],
} satisfies ViteUserConfig["test"];

// Browser journeys: Playwright driving Debian's Chromium against the built server.
export default defineConfig({
  test: {
    // Two files at a time across all three projects (one pool; the projects share a
    // sequence.groupOrder, so no project waits for another to end): one at a time took 12 minutes
    // of CI's 30 on two cores.
    maxWorkers: 2,
    // Here, not in the projects: the root's global setup runs once a run, a project's once each.
    globalSetup: ["tests/helpers/prepared-database.ts"],
    projects: [
      {
        test: {
          ...common,
          name: "own-server",
          include: ["tests/e2e/**/*.test.ts"],
          exclude: [...sharedDefault, ...sharedPlayScreen],
        },
      },
      // Vitest keeps a process for the next file only while the queue's next file is of the same
      // non-isolated project; the default sequencer queues a project's files together.
      { test: { ...common, name: "shared-default", include: sharedDefault, isolate: false, provide: { sharedServer: true } } },
      { test: { ...common, name: "shared-play-screen", include: sharedPlayScreen, isolate: false, provide: { sharedServer: true } } },
    ],
  },
});
