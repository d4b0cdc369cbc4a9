import type { Page } from "playwright-core";
import { beginStory } from "./stories.ts";
import { browserTest, type LoginOptions } from "./fixtures.ts";

/** The play screen as a player meets it in Chromium (story-controls and story-library journeys). */

export const GAME = "empress-simulator";
export const SCREENSHOTS = "test-results/story-controls";

export const log = (page: Page) => page.getByRole("log");
export const input = (page: Page) => page.getByLabel("Your action or response");
export const replies = (page: Page) => log(page).locator('li[data-role="assistant"]');
export const playerMessages = (page: Page) => log(page).locator('li[data-role="user"]');
/** The words of the latest reply, without its time and controls. */
export const latestReply = (page: Page) => replies(page).last().locator("div.rounded-2xl").first().innerText();
export const control = (page: Page, name: string) => page.getByRole("button", { name, exact: true });

/** Waits until the latest reply is finished (its controls are back). */
export async function replyDone(page: Page) {
  await control(page, "Retry").waitFor({ timeout: 30_000 });
}

export async function send(page: Page, text: string) {
  await input(page).fill(text);
  await input(page).press("Enter");
}

export async function balance(page: Page) {
  return page.getByTestId("credits-balance").first().textContent();
}

export const playScreenTest = browserTest
  // Slow enough that a reload or a second tab lands in the middle of a reply (a reply is ~200 words).
  .extend("serverEnv", { scope: "file" }, { AI_OFFLINE_WORD_DELAY_MS: "20" })
  /** A signed-in player whose story of GAME is begun (its free opening played) unless `begun` is false. */
  .extend("player", { scope: "file" }, ({ server, login }) => async ({ begun = true, ...options }: LoginOptions & { begun?: boolean } = {}) => {
    const account = await login(options);
    if (begun) await beginStory(server, account, GAME);
    return account;
  })
  /** A tab on the play screen of GAME, its story shown. */
  .extend("open", { scope: "file" }, ({ server, browser }) => async (size?: { width: number; height: number }) => {
    const page = await browser.newPage(size);
    await page.goto(`${server.url}/play/${GAME}`);
    await log(page).waitFor();
    return page;
  });
