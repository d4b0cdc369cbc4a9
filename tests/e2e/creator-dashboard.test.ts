import { mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect } from "vitest";
import { signInBrowser, signUp } from "#tests/helpers/accounts.ts";
import { seriousAccessibilityViolations } from "#tests/helpers/browser.ts";
import { browserTest } from "#tests/helpers/fixtures.ts";
import { postChat, readTurn, setBalance } from "#tests/helpers/game-chat.ts";
import { createPublicWorld, postForm, publishWorld, worldForm } from "#tests/helpers/worlds.ts";

/** Issue 36 in Chromium: a creator's dashboard of what their worlds earned, and a player's Update to version N. */

const SHOTS = path.resolve(import.meta.dirname, "../../test-results/screenshots/creator-dashboard");
mkdirSync(SHOTS, { recursive: true });

/** A public world whose player played two paid turns of version 1 before its creator published version 2. */
const test = browserTest.extend("played", { scope: "file" }, async ({ server }) => {
  const creator = await signUp(server, { name: "Cora Creator" });
  const player = await signUp(server, { name: "Pia Player" });
  await setBalance(player, 20);
  const form = worldForm({ title: "The Lantern Court" });
  const world = await createPublicWorld(server, creator, form);
  for (const message of ["I bow to the queen.", "I light a lantern."]) {
    expect((await readTurn(await postChat(server, player, { message, game_slug: world.slug }))).done).toBe(true);
  }
  expect((await postForm(server, creator, "/create", { ...form, worldId: world.id, prompt: "The court has fallen." })).status).toBe(302);
  expect((await publishWorld(server, creator, world.id, "public")).status).toBe(302);
  return { creator, player, world };
});
test.override("serverEnv", { AI_OFFLINE_WORD_DELAY_MS: "0", CREATOR_PAID_TURNS_PER_CREDIT: "2", FREE_OPENINGS_PER_DAY: "0" });

describe("a creator's dashboard and a story's world version", () => {
  test("shows the creator each world's plays, likes, paid turns and credits earned", async ({ server, browser, played }) => {
    await signInBrowser(browser.context, server, played.creator);
    for (const width of [360, 1280]) {
      const page = await browser.newPage({ width, height: 800 });
      await page.goto("/create");
      await page.getByRole("link", { name: "Creator dashboard" }).click();
      await page.getByRole("heading", { level: 1, name: "Creator dashboard" }).waitFor();
      const table = page.getByRole("table", { name: "Your worlds" });
      const row = table.getByRole("row", { name: /The Lantern Court/ });
      expect(await row.getByRole("cell").allTextContents()).toEqual(["Public", "1", "0", "2", "1"]);
      await page.getByText("1 credit", { exact: true }).waitFor();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, `dashboard-${width}.png`), fullPage: true });
      await page.close();
    }
    await browser.context.clearCookies();
  });

  test("lets the player move their story to the newest version with Update to version 2", async ({ server, browser, played }) => {
    await signInBrowser(browser.context, server, played.player);
    for (const width of [360, 1280]) {
      const page = await browser.newPage({ width, height: 800 });
      await page.goto(`/play/${played.world.slug}`);
      await page.getByRole("button", { name: "Update to version 2" }).waitFor();
      await page.getByText("Your story plays version 1 of this world").waitFor();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, `update-version-${width}.png`) });
      await page.close();
    }
    const page = await browser.newPage({ width: 360, height: 800 });
    await page.goto(`/play/${played.world.slug}`);
    await page.getByRole("button", { name: "Update to version 2" }).click();
    await page.waitForURL(/\/play\/[^/]+\/[0-9a-f-]{36}$/);
    await page.getByRole("textbox").first().waitFor();
    expect(await page.getByRole("button", { name: "Update to version 2" }).count()).toBe(0);
  });
});
