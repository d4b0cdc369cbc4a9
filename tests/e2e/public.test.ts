import { and, eq, inArray } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { contactMessages, games } from "#app/db/schema.ts";
import { PREVIEW_REPLY_DELAY_MS } from "#app/lib/constants.ts";
import { PREVIEW_PLACEHOLDER, PREVIEW_TEXTS } from "#app/lib/preview-chat.ts";
import { launchBrowser, seriousAccessibilityViolations, type TestBrowser } from "#tests/helpers/browser.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";

/**
 * The public site as a visitor uses it in Chromium: clicking, typing and navigating on the client.
 * What the server's HTML says is covered by tests/integration/public-pages.test.ts.
 */

const GAME = "empress-simulator";
const ALL_GAME_TITLES = ["Empress Simulator", "Matriarch Harem Simulator", "Mary Sue Campus", "Cultivation Simulator", "Celebrity Life"];

let server: TestServer;
let browser: TestBrowser;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
});

afterEach(() => browser.closePages());

afterAll(async () => {
  await browser.close();
  await server.close();
});

/** A visitor's tab on `path`, with the page's scripts loaded (so clicks and typing reach React). */
async function visit(path: string, width?: number) {
  const page = await browser.newPage({ width });
  await page.goto(new URL(path, server.url).toString());
  await page.waitForLoadState("networkidle");
  return page;
}

/** Waits until the address bar shows `expected` (path plus query, e.g. "/games?difficulty=beginner"). */
async function expectLocation(page: Page, expected: string) {
  await page.waitForURL((url) => url.pathname + url.search === expected);
}

/** The page's h1 as read aloud: a non-breaking space reads as a space. */
async function expectMainHeading(page: Page, text: string) {
  const heading = page.getByRole("heading", { level: 1 });
  await expect.poll(async () => (await heading.textContent())?.replace(/\s+/g, " ")).toBe(text);
}

async function followLink(page: Page, name: string, expectedLocation: string) {
  await page.getByRole("link", { name, exact: true }).first().click();
  await expectLocation(page, expectedLocation);
}

function cardTitles(page: Page) {
  return page.getByTestId("game-card").getByRole("heading").allTextContents();
}

async function expectCardTitles(page: Page, titles: string[]) {
  await expect.poll(() => cardTitles(page)).toEqual(titles);
}

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

  it("filters by difficulty, keeping the level in the URL", async () => {
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

  it("searches titles, taglines and descriptions case-insensitively, within the chosen level", async () => {
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

  it("says 'No games found' when nothing matches, and leads back to every game", async () => {
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
  it("shows a level's games whatever the case of the URL, and links to the other levels", async () => {
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

  it("sends an unknown level to /games", async () => {
    const page = await visit("/games/category/bogus");
    await expectLocation(page, "/games");
    await expectMainHeading(page, "Choose Your Adventure");
    await expectCardTitles(page, ALL_GAME_TITLES);
  });

  it("shows 'No Advanced Games Yet' with a way to every game when a level has none", async () => {
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
  it("goes from the game to the complete guide, the pro tips and back", async () => {
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

  it("answers a visitor's first action with the game's real opening scene after 1.5 s, free and without an account", async () => {
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

describe("the blog", () => {
  it("opens an article from the list", async () => {
    const page = await visit("/blog");
    const title = "Numbered Choices vs Free Text: Designing the Best of Both";
    await followLink(page, title, "/blog/numbered-choices-vs-free-text");
    await expectMainHeading(page, title);
    expect(await page.title()).toBe(`${title} | Play as Empress`);

    await followLink(page, "Back to Blog", "/blog");
    await expectMainHeading(page, "Stories About Stories");
    expect(page.errors).toEqual([]);
  });
});

describe("the contact form", () => {
  it("sends a message, thanks the visitor, clears the form and stores the message", async () => {
    const page = await visit("/contact");
    const message = {
      name: "Lady Wen",
      email: `wen-${Date.now()}@example.com`,
      subject: "A suggestion for a new court",
      message: "Could there be a game set in the Southern Song court?\nI would play it every day.",
    };
    const field = (label: string) => page.getByRole("textbox", { name: label, exact: true });
    await field("Name").fill(message.name);
    await field("Email").fill(message.email);
    await field("Subject").fill(message.subject);
    await field("Message").fill(message.message);
    await page.getByRole("button", { name: "Send Message" }).click();

    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Thank you for your message! We'll get back to you soon.");
    for (const label of ["Name", "Email", "Subject", "Message"]) expect(await field(label).inputValue()).toBe("");

    const stored = await server.connection.db
      .select({
        name: contactMessages.name,
        email: contactMessages.email,
        subject: contactMessages.subject,
        message: contactMessages.message,
        userId: contactMessages.userId,
      })
      .from(contactMessages)
      .where(eq(contactMessages.email, message.email));
    expect(stored).toEqual([{ ...message, userId: null }]);
    expect(page.errors).toEqual([]);
  });
});

describe("the mobile menu at 375 px", () => {
  const menuButton = (page: Page) => page.locator('button[aria-controls="mobile-menu"]');
  const mobileMenu = (page: Page) => page.getByRole("navigation", { name: "Mobile" });

  async function openMenu(page: Page) {
    await page.getByRole("button", { name: "Open menu" }).click();
    await mobileMenu(page).waitFor();
    expect(await menuButton(page).getAttribute("aria-expanded")).toBe("true");
  }

  async function expectMenuClosed(page: Page) {
    await mobileMenu(page).waitFor({ state: "detached" });
    expect(await menuButton(page).getAttribute("aria-label")).toBe("Open menu");
    expect(await menuButton(page).getAttribute("aria-expanded")).toBe("false");
  }

  it("opens, lists the site's pages, closes after following a link, on the toggle and on Escape", async () => {
    const page = await visit("/", 375);
    expect(await page.getByRole("navigation", { name: "Main" }).isVisible()).toBe(false);
    expect(await mobileMenu(page).count()).toBe(0);

    await openMenu(page);
    const links = mobileMenu(page).getByRole("link");
    expect(await links.allTextContents()).toEqual(["Home", "Games", "Guides", "Credits", "About", "Contact", "Sign In"]);
    for (const link of await links.all()) expect(await link.isVisible()).toBe(true);

    await mobileMenu(page).getByRole("link", { name: "Games" }).click();
    await expectLocation(page, "/games");
    await expectMainHeading(page, "Choose Your Adventure");
    await expectMenuClosed(page);

    await openMenu(page);
    await page.getByRole("button", { name: "Close menu" }).click();
    await expectMenuClosed(page);

    await openMenu(page);
    await mobileMenu(page).getByRole("link", { name: "About" }).focus();
    await page.keyboard.press("Escape");
    await expectMenuClosed(page);
    expect(await menuButton(page).evaluate((button) => button === document.activeElement)).toBe(true);
    await expectLocation(page, "/games");
    expect(page.errors).toEqual([]);
  });
});

const PUBLIC_PAGES = [
  "/",
  "/games",
  "/games/category/beginner",
  `/game/${GAME}`,
  `/game/${GAME}/guide`,
  `/game/${GAME}/tips`,
  "/blog",
  "/blog/how-to-play-an-empress-court-intrigue",
  "/guides",
  "/about",
  "/contact",
  "/privacy",
  "/terms",
];

describe("on a 375 px phone", () => {
  it("no public page scrolls sideways", async () => {
    const page = await browser.newPage({ width: 375 });
    for (const path of PUBLIC_PAGES) {
      await page.goto(new URL(path, server.url).toString());
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBe(375);
    }
    expect(page.errors).toEqual([]);
  });

  it("shows the four difficulty filters on one row", async () => {
    const page = await visit("/games", 375);
    const filters = page.getByRole("navigation", { name: "Filter by difficulty" }).getByRole("link");
    const tops = await filters.evaluateAll((links) => links.map((link) => Math.round(link.getBoundingClientRect().top)));
    expect(tops).toHaveLength(4);
    expect(new Set(tops).size).toBe(1);
  });
});

describe("accessibility of every public page", () => {
  it.each(PUBLIC_PAGES)("%s has no serious axe violations and no console errors", async (path) => {
    const page = await visit(path);
    expect(await page.getByRole("heading", { level: 1 }).count()).toBe(1);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expect(page.errors).toEqual([]);
  });
});
