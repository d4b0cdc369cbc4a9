import type { Page } from "playwright-core";
import { expect } from "vitest";
import { browserTest } from "./fixtures.ts";

/** The public site's journeys (tests/e2e/public-*.test.ts): a visitor's tabs and what they show. */

export const GAME = "empress-simulator";
export const ALL_GAME_TITLES = ["Empress Simulator", "Matriarch Harem Simulator", "Mary Sue Campus", "Cultivation Simulator", "Celebrity Life"];

export const publicSiteTest = browserTest
  /** A visitor's tab on `path`, with the page's scripts loaded (so clicks and typing reach React). */
  .extend("visit", ({ browser, server }) => async (path: string, width?: number) => {
    const page = await browser.newPage({ width });
    await page.goto(new URL(path, server.url).toString());
    await page.waitForLoadState("networkidle");
    return page;
  });

/** Waits until the address bar shows `expected` (path plus query, e.g. "/games?difficulty=beginner"). */
export async function expectLocation(page: Page, expected: string) {
  await page.waitForURL((url) => url.pathname + url.search === expected);
}

/** The page's h1 as read aloud: a non-breaking space reads as a space. */
export async function expectMainHeading(page: Page, text: string) {
  const heading = page.getByRole("heading", { level: 1 });
  await expect.poll(async () => (await heading.textContent())?.replace(/\s+/g, " ")).toBe(text);
}

export async function followLink(page: Page, name: string, expectedLocation: string) {
  await page.getByRole("link", { name, exact: true }).first().click();
  await expectLocation(page, expectedLocation);
}

export function cardTitles(page: Page) {
  return page.getByTestId("game-card").getByRole("heading").allTextContents();
}

export async function expectCardTitles(page: Page, titles: string[]) {
  await expect.poll(() => cardTitles(page)).toEqual(titles);
}
