import { describe, expect } from "vitest";
import { seriousAccessibilityViolations } from "#tests/helpers/browser.ts";
import { GAME, log, playerMessages, playScreenTest, SCREENSHOTS } from "#tests/helpers/play-screen.ts";
import { seedStory } from "#tests/helpers/stories.ts";

/**
 * Branches (issue 35, docs/decisions/063) as a player meets them in Chromium: Branch from here
 * under a reply, by keyboard; the Branches view from the More menu, opening any story of the
 * tree; My Stories with the branch under its root. Axe clean, at 360 and 1280 px.
 */

const test = playScreenTest
  /** A signed-in player whose story of GAME has five exchanges. */
  .extend("playedStory", { scope: "file" }, ({ server, login }) => async () => {
    const account = await login();
    await seedStory(server.connection.db, {
      userId: account.userId,
      gameSlug: GAME,
      exchanges: Array.from({ length: 5 }, (_, index) => ({
        message: `I hold court, day ${index + 1}.`,
        reply: `The ministers report on day ${index + 1}. The lanterns burn low.`,
      })),
    });
    return account;
  });

describe("branches", () => {
  test("Branch from here opens a new story sharing the turns up to that reply; Branches shows the tree and opens either", async ({
    server,
    browser,
    playedStory,
  }) => {
    await playedStory();
    const page = await browser.newPage({ width: 1280, height: 900 });
    await page.goto(`${server.url}/play/${GAME}`);
    await log(page).waitFor();
    await expect.poll(() => playerMessages(page).count()).toBe(5);
    const original = page.url();

    // By keyboard: the third reply's Branch from here.
    const third = log(page).locator('li[data-role="assistant"][data-exchange="3"]');
    const branch = third.getByRole("button", { name: "Branch from here" });
    expect(await branch.getAttribute("title")).toMatch(/Free/);
    await branch.focus();
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.pathname.startsWith(`/play/${GAME}/`) && url.href !== original);
    await expect.poll(() => playerMessages(page).count()).toBe(3);
    expect(await playerMessages(page).last().textContent()).toContain("day 3");
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/branch-play-1280.png` });

    // The More menu's Branches: the tree, the branch marked as where the player came from.
    await page.getByRole("button", { name: "More", exact: true }).click();
    await page.getByRole("menuitem", { name: "Branches" }).click();
    await page.getByRole("heading", { level: 1, name: "Branches" }).waitFor();
    const tree = page.getByRole("list", { name: "Branches of this story" });
    await tree.getByRole("link", { name: "Open the original story (5 turns)" }).waitFor();
    const branchLink = tree.getByRole("list", { name: "Branches of the original story (5 turns)" }).getByRole("link", {
      name: "Open the branch from turn 3 (3 turns)",
    });
    await branchLink.waitFor();
    expect(await page.locator('[aria-current="page"]').getByRole("heading", { name: "Branch from turn 3" }).count()).toBe(1);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/branches-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 360, height: 780 });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/branches-360.png`, fullPage: true });

    // Either opens: the original still has all five turns.
    await tree.getByRole("link", { name: "Open the original story (5 turns)" }).click();
    await page.waitForURL((url) => url.pathname.startsWith(`/play/${GAME}/`));
    await expect.poll(() => playerMessages(page).count()).toBe(5);

    // My Stories: the branch under its root.
    await page.goto(`${server.url}/stories`);
    const branches = page.getByRole("list", { name: /^Branches of / });
    await branches.getByRole("link", { name: /^Resume .*\(branch from turn 3\)$/ }).waitFor();
    expect(await page.getByRole("link", { name: /^Resume / }).count()).toBe(2);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/my-stories-branches-360.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/my-stories-branches-1280.png`, fullPage: true });

    // Deleting the root while its branch shares it is refused with a sentence; the story stays.
    await page.getByRole("button", { name: /^Delete (?!.*branch from turn)/ }).click();
    await page.getByRole("button", { name: "Delete story" }).click();
    await page.getByText(/Delete its branches first/).waitFor();
    expect(await page.getByRole("link", { name: /^Resume / }).count()).toBe(2);
  });
});
