import { mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect } from "vitest";
import { signInBrowser, signUp } from "#tests/helpers/accounts.ts";
import { seriousAccessibilityViolations } from "#tests/helpers/browser.ts";
import { browserTest as test } from "#tests/helpers/fixtures.ts";

/** Issue 36 in Chromium: a world created and published, found under Community by another player, liked and remixed with its credit. */

const SHOTS = path.resolve(import.meta.dirname, "../../test-results/screenshots/community");
const TITLE = "The Lantern Court";
mkdirSync(SHOTS, { recursive: true });
test.override("serverEnv", { AI_OFFLINE_WORD_DELAY_MS: "0" });

describe("publishing, discovering, liking and remixing a world", () => {
  test("goes from /create to Community to a credited remix", async ({ server, browser }) => {
    const creator = await signUp(server, { name: "Cora Creator" });
    const player = await signUp(server, { name: "Rex Remixer" });
    await signInBrowser(browser.context, server, creator);
    const page = await browser.newPage();
    await page.goto("/create");
    await page.getByLabel("Title").fill(TITLE);
    await page.getByLabel("Description").fill("Serve a lantern-lit court and rise by wit alone.");
    await page.getByLabel("Game Master instructions").fill("You are the Game Master of the lantern court.");
    await page.getByLabel("Tags").fill("court, lanterns");
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByRole("status").getByText("Your draft is saved.").waitFor();

    await page.getByRole("radio", { name: /Public/ }).check();
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await page.getByRole("status").getByText("Published as Public: it is listed under Community.").waitFor();
    await page.getByRole("button", { name: "Publish version 2" }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, "create-published-1280.png"), fullPage: true });
    await browser.closePages();

    await browser.context.clearCookies();
    await signInBrowser(browser.context, server, player);
    for (const width of [360, 1280]) {
      const games = await browser.newPage({ width, height: 800 });
      await games.goto("/games");
      const community = games.getByRole("region", { name: "Community" });
      await community.getByRole("link", { name: TITLE, exact: true }).waitFor();
      await community.getByRole("link", { name: "Cora Creator" }).waitFor();
      expect(await seriousAccessibilityViolations(games)).toEqual([]);
      await community.screenshot({ path: path.join(SHOTS, `community-${width}.png`) });
      await games.close();
    }

    const games = await browser.newPage({ width: 360, height: 800 });
    await games.goto("/games?tag=lanterns");
    await games.getByRole("region", { name: "Community" }).getByRole("link", { name: TITLE, exact: true }).click();
    await games.getByRole("heading", { level: 1, name: TITLE }).waitFor();
    await games.getByText("0 likes").waitFor();
    await games.getByRole("button", { name: "Like" }).click();
    await games.getByText("1 like", { exact: false }).waitFor();
    expect(await games.getByRole("button", { name: "Like" }).getAttribute("aria-pressed")).toBe("true");
    expect(await seriousAccessibilityViolations(games)).toEqual([]);
    await games.screenshot({ path: path.join(SHOTS, "world-360.png"), fullPage: true });

    await games.getByRole("button", { name: "Remix" }).click();
    await games.getByRole("heading", { level: 1, name: TITLE }).waitFor();
    const credits = games.getByRole("list", { name: "Remix credits" });
    await credits.getByRole("link", { name: TITLE, exact: true }).waitFor();
    await credits.getByRole("link", { name: "Cora Creator" }).waitFor();
    expect(await games.getByLabel("Game Master instructions", { exact: true }).inputValue()).toBe("You are the Game Master of the lantern court.");
    expect(await seriousAccessibilityViolations(games)).toEqual([]);
    await games.screenshot({ path: path.join(SHOTS, "remix-360.png"), fullPage: true });
    expect(games.errors).toEqual([]);
  });
});
