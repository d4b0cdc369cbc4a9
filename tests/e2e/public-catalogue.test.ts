import { and, eq, inArray } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { games } from "#app/db/schema.ts";
import { PREVIEW_REPLY_DELAY_MS } from "#app/lib/constants.ts";
import { PREVIEW_PLACEHOLDER, PREVIEW_TEXTS } from "#app/lib/preview-chat.ts";
import { seriousAccessibilityViolations } from "#tests/helpers/browser.ts";
import {
  ALL_GAME_TITLES,
  cardTitles,
  expectCardTitles,
  expectLocation,
  expectMainHeading,
  followLink,
  GAME,
  publicSiteTest as test,
} from "#tests/helpers/public-site.ts";

/**
 * Finding a game as a visitor does in Chromium: the catalogue's filter and search, the difficulty
 * pages, a game's page with its guide and tips, and its preview chat. What the server's HTML says
 * is covered by tests/integration/public-pages.test.ts; the rest of the site by public-site.test.ts.
 */

describe("/games: difficulty filter and search", () => {
  const filter = (page: Page, label: string) =>
    page.getByRole("navigation", { name: "Filter by difficulty" }).getByRole("link", { name: label, exact: true });
  const searchBox = (page: Page) => page.getByRole("searchbox", { name: "Search games by title, tagline or description" });

  async function chooseFilter(page: Page, label: string, expectedLocation: string, titles: string[]) {
    await filter(page, label).click();
    await expectLocation(page, expectedLocation);
    await expectCardTitles(page, titles);
    expect(await filter(page, label).getAttribute("aria-current")).toBe("page");
  }

  async function search(page: Page, term: string, expectedLocation: string) {
    await searchBox(page).fill(term);
    await searchBox(page).press("Enter");
    await expectLocation(page, expectedLocation);
  }

  test("filters by difficulty, keeping the level in the URL", async ({ visit }) => {
    const page = await visit("/games");
    await expectCardTitles(page, ALL_GAME_TITLES);
    expect(await filter(page, "All").getAttribute("aria-current")).toBe("page");

    await chooseFilter(page, "Beginner", "/games?difficulty=beginner", ["Mary Sue Campus", "Celebrity Life"]);
    expect(await filter(page, "All").getAttribute("aria-current")).toBeNull();
    const badges = page.getByTestId("game-card").locator("[data-difficulty]");
    await expect
      .poll(() => badges.evaluateAll((all) => all.map((badge) => badge.getAttribute("data-difficulty"))))
      .toEqual(["Beginner", "Beginner"]);
    await chooseFilter(page, "Intermediate", "/games?difficulty=intermediate", ["Matriarch Harem Simulator", "Cultivation Simulator"]);
    await chooseFilter(page, "Advanced", "/games?difficulty=advanced", ["Empress Simulator"]);
    await chooseFilter(page, "All", "/games", ALL_GAME_TITLES);

    // The level survives a reload: it lives in the URL, not in page state.
    await chooseFilter(page, "Beginner", "/games?difficulty=beginner", ["Mary Sue Campus", "Celebrity Life"]);
    await page.reload();
    await expectCardTitles(page, ["Mary Sue Campus", "Celebrity Life"]);
    expect(page.errors).toEqual([]);
  });

  test("searches titles, taglines and descriptions case-insensitively, within the chosen level", async ({ visit }) => {
    const page = await visit("/games");

    await search(page, "campus", "/games?search=campus"); // a title
    await expectCardTitles(page, ["Mary Sue Campus"]);
    await search(page, "PEARL CURTAIN", "/games?search=PEARL+CURTAIN"); // a tagline
    await expectCardTitles(page, ["Empress Simulator"]);
    expect(await page.getByRole("status").filter({ hasText: "matching" }).textContent()).toBe("1 game matching “PEARL CURTAIN”Clear search");
    expect(await searchBox(page).inputValue()).toBe("PEARL CURTAIN");
    await search(page, "Scorned", "/games?search=Scorned"); // only in a description
    await expectCardTitles(page, ["Cultivation Simulator"]);

    // A level chosen with a search keeps both; a search from a level keeps the level.
    await filter(page, "Beginner").click();
    await expectLocation(page, "/games?difficulty=beginner&search=Scorned");
    await expectCardTitles(page, []);
    await search(page, "CAMPUS", "/games?difficulty=beginner&search=CAMPUS");
    await expectCardTitles(page, ["Mary Sue Campus"]);

    await page.getByRole("link", { name: "Clear search" }).click();
    await expectLocation(page, "/games?difficulty=beginner");
    await expectCardTitles(page, ["Mary Sue Campus", "Celebrity Life"]);
    expect(await searchBox(page).inputValue()).toBe("");
    expect(page.errors).toEqual([]);
  });

  test("says 'No games found' when nothing matches, and leads back to every game", async ({ visit }) => {
    const page = await visit("/games");
    await search(page, "space pirates", "/games?search=space+pirates");
    await page.getByRole("heading", { name: "No games found" }).waitFor();
    await page.getByText("Try adjusting your filters to see more games.").waitFor();
    expect(await cardTitles(page)).toEqual([]);

    await page.getByRole("link", { name: "Show all games" }).click();
    await expectLocation(page, "/games");
    await expectCardTitles(page, ALL_GAME_TITLES);
    expect(await page.getByRole("heading", { name: "No games found" }).count()).toBe(0);
    expect(page.errors).toEqual([]);
  });
});

describe("/games/category/{level}", () => {
  test("shows a level's games whatever the case of the URL, and links to the other levels", async ({ visit }) => {
    const page = await visit("/games/category/ADVANCED");
    await expectMainHeading(page, "Advanced Adventures");
    await page.getByRole("heading", { name: "1 Advanced Game", exact: true }).waitFor();
    await expectCardTitles(page, ["Empress Simulator"]);

    const otherLevels = page.getByRole("navigation", { name: "Explore Other Levels" });
    expect(await otherLevels.getByRole("link").count()).toBe(2);
    await otherLevels.getByRole("link", { name: /Intermediate Adventures/ }).click();
    await expectLocation(page, "/games/category/intermediate");
    await expectMainHeading(page, "Intermediate Adventures");
    await page.getByRole("heading", { name: "2 Intermediate Games", exact: true }).waitFor();
    await expectCardTitles(page, ["Matriarch Harem Simulator", "Cultivation Simulator"]);

    await followLink(page, "Back to Games", "/games");
    await expectCardTitles(page, ALL_GAME_TITLES);
    expect(page.errors).toEqual([]);
  });

  test("sends an unknown level to /games", async ({ visit }) => {
    const page = await visit("/games/category/bogus");
    await expectLocation(page, "/games");
    await expectMainHeading(page, "Choose Your Adventure");
    await expectCardTitles(page, ALL_GAME_TITLES);
  });

  test("shows 'No Advanced Games Yet' with a way to every game when a level has none", async ({ server, visit }) => {
    const hidden = await server.connection.db
      .update(games)
      .set({ isActive: false })
      .where(and(eq(games.difficulty, "Advanced"), eq(games.isActive, true)))
      .returning({ slug: games.slug });
    expect(hidden.map((game) => game.slug)).toEqual([GAME]);
    try {
      const page = await visit("/games/category/advanced");
      await page.getByRole("heading", { name: "No Advanced Games Yet" }).waitFor();
      await page.getByRole("heading", { name: "0 Advanced Games", exact: true }).waitFor();
      expect(await cardTitles(page)).toEqual([]);

      await followLink(page, "View All Games", "/games");
      await expectCardTitles(
        page,
        ALL_GAME_TITLES.filter((title) => title !== "Empress Simulator"),
      );
      expect(page.errors).toEqual([]);
    } finally {
      const slugs = hidden.map((game) => game.slug);
      await server.connection.db.update(games).set({ isActive: true }).where(inArray(games.slug, slugs));
    }
  });
});

describe("a game's page, its guide and its tips", () => {
  test("goes from the game to the complete guide, the pro tips and back", async ({ visit }) => {
    const page = await visit(`/game/${GAME}`);
    await expectMainHeading(page, "Empress Simulator");

    await followLink(page, "Strategy Guide", `/game/${GAME}/guide`);
    await expectMainHeading(page, "Empress Simulator - Complete Guide");
    await page.getByText("The Complete Regent's Handbook").waitFor();

    await followLink(page, "Quick Tips & Tricks", `/game/${GAME}/tips`);
    await expectMainHeading(page, "Pro Tips & Tricks");
    await page.getByText("Twenty-Two Pro Tips for the Regent Empress Dowager").waitFor();

    await followLink(page, "Read the Complete Guide", `/game/${GAME}/guide`);
    await expectMainHeading(page, "Empress Simulator - Complete Guide");
    await page.goBack();
    await expectLocation(page, `/game/${GAME}/tips`);
    await expectMainHeading(page, "Pro Tips & Tricks");

    await followLink(page, "Back to Game Page", `/game/${GAME}`);
    await expectMainHeading(page, "Empress Simulator");
    await followLink(page, "Pro Tips & Tricks", `/game/${GAME}/tips`);
    await expectMainHeading(page, "Pro Tips & Tricks");
    await followLink(page, "Empress Simulator", `/game/${GAME}`); // the breadcrumb
    await followLink(page, "Back to Games", "/games");
    await expectMainHeading(page, "Choose Your Adventure");
    expect(page.errors).toEqual([]);
  });
});

describe("the preview chat on a game page", () => {
  /** The seeded game's starting stats, as its opening scene leaves them. */
  const EMPRESS_STATS = {
    Grace: "75",
    "Imperial Stability": "68",
    "Trust of Young Emperor": "85",
    "Private Treasury": "2,800",
  };

  test("answers a visitor's first action with the game's real opening scene after 1.5 s, free and without an account", async ({ visit }) => {
    const page = await visit(`/game/${GAME}`);
    const apiCalls: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith("/api/")) apiCalls.push(`${request.method()} ${url.pathname}`);
    });
    const chat = page.getByTestId("preview-chat");
    const input = chat.getByPlaceholder(PREVIEW_PLACEHOLDER);
    const send = chat.getByRole("button", { name: "Send", exact: true });
    const playerMessages = chat.locator('li[data-role="user"]');
    const replies = chat.locator('li[data-role="assistant"]');
    const typing = chat.getByTestId("typing-indicator");

    expect(await replies.count()).toBe(1);
    expect(await replies.first().textContent()).toContain("Game MasterWelcome to Empress Simulator! I am your AI Game Master.");
    expect(await send.isDisabled()).toBe(true);

    // Blank input is never sent.
    await input.fill("   ");
    expect(await send.isDisabled()).toBe(true);
    await input.press("Enter");
    expect(await playerMessages.count()).toBe(0);

    // Shift+Enter adds a line; Enter sends the trimmed action.
    await input.fill("  I summon Grand Chancellor Duan.");
    await expect.poll(() => send.isDisabled()).toBe(false);
    await input.press("Shift+Enter");
    expect(await input.inputValue()).toBe("  I summon Grand Chancellor Duan.\n");
    expect(await playerMessages.count()).toBe(0);
    // The scene is held on its way until the typing indicator has been seen: on a busy machine the
    // checks below could otherwise outlast the 1.5 s it shows at least.
    let releaseScene = () => {};
    const sceneHeld = new Promise<void>((resolve) => (releaseScene = resolve));
    await page.route("**/api/game-preview", async (route) => {
      await sceneHeld;
      await route.continue();
    });
    const sentAt = Date.now();
    await input.press("Enter");
    await expect.poll(() => playerMessages.allTextContents()).toEqual(["YouI summon Grand Chancellor Duan."]);
    expect(await input.inputValue()).toBe("");

    // While the Game Master "types", nothing more can be sent.
    expect(await typing.isVisible()).toBe(true);
    await input.fill("I adjourn the audience.");
    expect(await send.isDisabled()).toBe(true);
    await input.press("Enter");
    expect(await playerMessages.count()).toBe(1);
    releaseScene();

    const stats = chat.getByTestId("preview-stats");
    await stats.waitFor({ timeout: 10_000 });
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(PREVIEW_REPLY_DELAY_MS);
    expect(await typing.count()).toBe(0);
    expect(await replies.count()).toBe(2);
    // The game's own opening scene, not a sample.
    expect(await replies.last().textContent()).toContain("Hall of Luminous Governance");
    const shownStats = await stats
      .locator("dt")
      .evaluateAll((terms) => Object.fromEntries(terms.map((term) => [term.textContent, term.nextElementSibling?.textContent])));
    expect(shownStats).toMatchObject(EMPRESS_STATS);
    const choices = chat.getByTestId("preview-choices");
    expect(await choices.evaluate((list) => [list.tagName, getComputedStyle(list).listStyleType])).toEqual(["OL", "decimal"]);
    expect(await choices.getByRole("listitem").count()).toBeGreaterThanOrEqual(3);
    expect(await replies.last().textContent()).not.toContain("<state>");

    // The reply has landed: the action typed meanwhile can go now, and the preview says it ends there.
    expect(await send.isDisabled()).toBe(false);
    await input.press("Enter");
    await expect.poll(() => playerMessages.count()).toBe(2);
    await expect.poll(() => replies.last().textContent(), { timeout: 10_000 }).toContain(PREVIEW_TEXTS.ended);

    // One free request told the scene; the second action asked nothing of the server.
    expect(apiCalls).toEqual(["POST /api/game-preview"]);
    expect(page.errors).toEqual([]);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
});
