import { eq } from "drizzle-orm";
import type { Locator, Page } from "playwright-core";
import { describe, expect } from "vitest";
import { games } from "#app/db/schema.ts";
import { ADMIN_TEXTS } from "#app/lib/admin-texts.ts";
import { PLAY_TEXTS } from "#app/lib/play-texts.ts";
import { expectToast } from "#tests/helpers/admin-panel.ts";
import { seriousAccessibilityViolations } from "#tests/helpers/browser.ts";
import { browserTest as test } from "#tests/helpers/fixtures.ts";

/**
 * The living state of issue 17 in Chromium: the admin gives a game a stat, the player sees the
 * State panel beside the story (a sheet at phone width) with what the latest turn changed
 * highlighted and agreeing with the story, and Undo brings back the state before it.
 */

const SCREENSHOTS = "test-results/story-state";
const GAME = "empress-simulator";

const panel = (page: Page) => page.getByRole("complementary", { name: "State" });
const stat = (scope: Locator, name: string) => scope.locator(`[data-stat="${name}"]`);
const meter = (scope: Locator, name: string) => stat(scope, name).getByRole("meter");

async function replyDone(page: Page) {
  await page.getByRole("button", { name: "Retry", exact: true }).waitFor({ timeout: 30_000 });
}

/** The number a stat shows in the latest reply's status line ("Grace 77 (+2)"). */
async function statusLineValue(page: Page, label: string) {
  const reply = await page.getByRole("log").locator('li[data-role="assistant"]').last().innerText();
  const found = new RegExp(`${label} ([\\d,]+)`).exec(reply)?.[1];
  return found === undefined ? undefined : Number(found.replaceAll(",", ""));
}

describe("the State panel", () => {
  test("shows a stat the admin added, follows each turn with its changes highlighted, and goes back with Undo", async ({
    server,
    browser,
    login,
  }) => {
    await login({ admin: true });

    // The admin adds a stat to the game's tracked stats.
    const admin = await browser.newPage();
    await admin.goto(`${server.url}/admin?tab=games`);
    await admin.getByRole("button", { name: "Edit Empress Simulator" }).click();
    const stats = admin.getByRole("group", { name: "Tracked stats" });
    expect(await stats.getByLabel("Name").evaluateAll((fields) => fields.map((field) => (field as HTMLInputElement).value))).toEqual([
      "Grace",
      "Imperial Stability",
      "Trust of Young Emperor",
      "Private Treasury",
      "Allies at Court",
    ]);
    await stats.getByRole("button", { name: "Add stat" }).click();
    const added = stats.getByRole("listitem").last();
    await added.getByLabel("Name").fill("Suspicion");
    await added.getByLabel("Highest").fill("0");
    await admin.getByRole("button", { name: "Update Game" }).click();
    // The form says what is wrong, at the field, and keeps the admin's work.
    await added.getByText("The lowest value must be below the highest.").waitFor();
    await added.getByLabel("Highest").fill("100");
    await added.getByLabel("Start").fill("10");
    await admin.getByRole("button", { name: "Update Game" }).click();
    await expectToast(admin, ADMIN_TEXTS.gameUpdated);
    const [game] = await server.connection.db.select({ trackedStats: games.trackedStats }).from(games).where(eq(games.slug, GAME));
    expect(game?.trackedStats.at(-1)).toEqual({ name: "Suspicion", kind: "number", min: 0, max: 100, start: 10 });
    await admin.close();

    // The player's panel starts at the game's starting values.
    const page = await browser.newPage({ width: 1280, height: 800 });
    await page.goto(`${server.url}/play/${GAME}`);
    const state = panel(page);
    await state.waitFor();
    expect(await meter(state, "Grace").getAttribute("aria-valuenow")).toBe("75");
    expect(await meter(state, "Suspicion").getAttribute("aria-valuenow")).toBe("10");
    expect(await stat(state, "Allies at Court").innerText()).toContain("Madam Lin Cuiwei");

    await page.getByRole("button", { name: PLAY_TEXTS.beginChoice }).click();
    await replyDone(page);
    const input = page.getByLabel("Your action or response");
    await input.fill("I thank the Grand Chancellor warmly and praise his loyal service before the court.");
    await input.press("Enter");
    await page.waitForTimeout(200);
    await replyDone(page);

    // The panel agrees with the story, and what this turn changed is highlighted.
    for (const name of ["Grace", "Imperial Stability", "Trust of Young Emperor"]) {
      await expect.poll(() => meter(state, name).getAttribute("aria-valuenow")).toBe(String(await statusLineValue(page, name)));
    }
    const changed = await state.locator('[data-changed="true"]').count();
    expect(changed).toBeGreaterThan(0);
    const afterTurn = await state.innerText();
    // Nothing of the state block ever reaches the story.
    expect(await page.getByRole("log").innerText()).not.toMatch(/<state>|"Grace"|tracked_state/);
    await page.screenshot({ path: `${SCREENSHOTS}/state-panel-1280.png` });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Undo", exact: true }).click();
    await expect.poll(() => state.innerText()).not.toBe(afterTurn);
    for (const name of ["Grace", "Imperial Stability", "Trust of Young Emperor"]) {
      expect(await meter(state, name).getAttribute("aria-valuenow")).toBe(String(await statusLineValue(page, name)));
    }
  });

  test("is a sheet from the State button at 360 px", async ({ server, browser, login }) => {
    await login();
    const page = await browser.newPage({ width: 360, height: 740 });
    await page.goto(`${server.url}/play/${GAME}`);
    await page.getByRole("button", { name: PLAY_TEXTS.beginChoice }).click();
    await replyDone(page);
    expect(await panel(page).isVisible()).toBe(false);

    await page.getByRole("button", { name: /^State/ }).click();
    const sheet = page.getByRole("dialog", { name: "State" });
    await sheet.waitFor();
    expect(await meter(sheet, "Grace").getAttribute("aria-valuenow")).toBe(String(await statusLineValue(page, "Grace")));
    const box = await sheet.boundingBox();
    // A sheet: the width of the screen, resting on its bottom edge.
    expect(box?.width).toBe(360);
    expect(Math.round((box?.y ?? 0) + (box?.height ?? 0))).toBe(740);
    await page.screenshot({ path: `${SCREENSHOTS}/state-sheet-360.png` });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
});
