import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { contactMessages } from "#app/db/schema.ts";
import { seriousAccessibilityViolations } from "#tests/helpers/browser.ts";
import { expectLocation, expectMainHeading, followLink, GAME, publicSiteTest as test } from "#tests/helpers/public-site.ts";

/**
 * The rest of the public site as a visitor uses it in Chromium: the blog, the contact form, the
 * mobile menu, every public page at phone width and under axe. Finding a game is
 * public-catalogue.test.ts; what the server's HTML says is tests/integration/public-pages.test.ts.
 */

describe("the blog", () => {
  test("opens an article from the list", async ({ visit }) => {
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
  test("sends a message, thanks the visitor, clears the form and stores the message", async ({ server, visit }) => {
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

  test("opens, lists the site's pages, closes after following a link, on the toggle and on Escape", async ({ visit }) => {
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
  test("no public page scrolls sideways", async ({ server, browser }) => {
    const page = await browser.newPage({ width: 375 });
    for (const path of PUBLIC_PAGES) {
      await page.goto(new URL(path, server.url).toString());
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBe(375);
    }
    expect(page.errors).toEqual([]);
  });

  test("shows the four difficulty filters on one row", async ({ visit }) => {
    const page = await visit("/games", 375);
    const filters = page.getByRole("navigation", { name: "Filter by difficulty" }).getByRole("link");
    const tops = await filters.evaluateAll((links) => links.map((link) => Math.round(link.getBoundingClientRect().top)));
    expect(tops).toHaveLength(4);
    expect(new Set(tops).size).toBe(1);
  });
});

describe("accessibility of every public page", () => {
  test.for(PUBLIC_PAGES)("%s has no serious axe violations and no console errors", async (path, { visit }) => {
    const page = await visit(path);
    expect(await page.getByRole("heading", { level: 1 }).count()).toBe(1);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expect(page.errors).toEqual([]);
  });
});
