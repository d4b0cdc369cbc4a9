import { eq } from "drizzle-orm";
import { mkdirSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { gameLoreEntries, games } from "#app/db/schema.ts";
import { DEFAULT_SCAN_DEPTH, LORE_TEXTS } from "#app/lib/lorebook.ts";
import { openAdminTab } from "#tests/helpers/admin-panel.ts";
import { expectToast, seriousAccessibilityViolations } from "#tests/helpers/browser.ts";
import { browserTest } from "#tests/helpers/fixtures.ts";
import { createTestGame, TEST_GAME } from "#tests/helpers/game-chat.ts";

/** The game editor's Lorebook section, through its real UI. */

const SHOTS = join(import.meta.dirname, "../../test-results/screenshots/admin");
mkdirSync(SHOTS, { recursive: true });

const test = browserTest
  // The tests' game, and its admin signed in, for every test.
  .extend("admin", { scope: "file", auto: true }, async ({ server, login }) => {
    await createTestGame(server);
    return login({ admin: true });
  })
  .extend(
    "storedEntries",
    { scope: "file" },
    ({ server }) =>
      () =>
        server.connection.db.select().from(gameLoreEntries).where(eq(gameLoreEntries.gameSlug, TEST_GAME.slug)),
  );

test("adds and imports a game's lorebook entries", async ({ server, page, storedEntries }) => {
  await page.goto(`${server.url}/admin?tab=games`);
  await openAdminTab(page, "Games Management");
  await page.getByRole("button", { name: `Edit ${TEST_GAME.title}` }).click();
  const lorebook = page.getByRole("region", { name: "Lorebook", exact: true });
  await lorebook.getByText(LORE_TEXTS.empty).waitFor();

  await lorebook.getByRole("button", { name: "Add entry", exact: true }).click();
  await lorebook.getByLabel("Title").fill("Harbormaster");
  await lorebook.getByLabel("Keys").fill("Ilse, /harbou?rmaster/");
  await lorebook.getByLabel("Content").fill("Ilse Varga counts every ship.");
  await lorebook.getByLabel("Priority").fill("7");
  // Hidden from players unless the admin says otherwise.
  const shown = lorebook.getByRole("switch", { name: LORE_TEXTS.shownToPlayers });
  expect(await shown.getAttribute("aria-checked")).toBe("false");
  await shown.click();
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await shown.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, `admin-lore-shown-to-players-${width}.png`) });
  }
  await lorebook.getByRole("button", { name: "Add Entry", exact: true }).click();
  await expectToast(page, LORE_TEXTS.saved);
  await lorebook.getByRole("listitem").filter({ hasText: "Harbormaster" }).getByText(LORE_TEXTS.shownToPlayers).waitFor();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  const stored = ({ title, keys, content, priority, shownToPlayers }: Awaited<ReturnType<typeof storedEntries>>[number]) => ({
    title,
    keys,
    content,
    priority,
    shownToPlayers,
  });
  expect((await storedEntries()).map(stored)).toEqual([
    { title: "Harbormaster", keys: "Ilse, /harbou?rmaster/", content: "Ilse Varga counts every ship.", priority: 7, shownToPlayers: true },
  ]);

  // Hidden again from the entry's Edit.
  await lorebook.getByRole("button", { name: "Edit Harbormaster" }).click();
  await lorebook.getByRole("switch", { name: LORE_TEXTS.shownToPlayers }).click();
  await lorebook.getByRole("button", { name: "Update Entry", exact: true }).click();
  await expect.poll(async () => (await storedEntries()).map((entry) => entry.shownToPlayers)).toEqual([false]);

  const file = join(tmpdir(), `lorebook-${Date.now()}.json`);
  await writeFile(
    file,
    JSON.stringify({ entries: { "0": { key: ["Oren"], comment: "Captain Oren Dask", content: "A smuggler with debts.", order: 3 } } }),
  );
  await page.getByLabel("Lorebook file to import").setInputFiles(file);
  await expectToast(page, LORE_TEXTS.imported(1));
  await lorebook.getByRole("heading", { name: "Captain Oren Dask" }).waitFor();

  expect((await storedEntries()).map((entry) => entry.title).toSorted()).toEqual(["Captain Oren Dask", "Harbormaster"]);
});

test("sets how many exchanges back the game's keys are looked for, within bounds", async ({ server, page }) => {
  const lookBack = async () =>
    (await server.connection.db.select({ depth: games.loreScanDepth }).from(games).where(eq(games.slug, TEST_GAME.slug)))[0]?.depth;
  await page.goto(`${server.url}/admin?tab=games`);
  await openAdminTab(page, "Games Management");
  await page.getByRole("button", { name: `Edit ${TEST_GAME.title}` }).click();
  const lorebook = page.getByRole("region", { name: "Lorebook", exact: true });
  const field = lorebook.getByRole("textbox", { name: LORE_TEXTS.lookBack });
  expect(await field.inputValue()).toBe(String(DEFAULT_SCAN_DEPTH));
  const save = lorebook.getByRole("button", { name: LORE_TEXTS.lookBackSave });
  expect(await save.isDisabled()).toBe(true);

  await field.fill("12");
  await save.click();
  await lorebook.getByText("Look back between 0 and 10 exchanges.").waitFor();
  expect(await lookBack()).toBe(DEFAULT_SCAN_DEPTH);

  await field.fill("4");
  await save.click();
  await expectToast(page, LORE_TEXTS.lookBackSaved(4));
  expect(await lookBack()).toBe(4);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await lorebook.screenshot({ path: join(SHOTS, "admin-lore-look-back-1280.png") });
});
