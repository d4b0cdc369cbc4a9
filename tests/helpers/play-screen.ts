import type { Locator, Page } from "playwright-core";
import { beginStory } from "./stories.ts";
import { browserTest, type LoginOptions } from "./fixtures.ts";

/** The play screen as a player meets it in Chromium (story-controls and story-library journeys). */

export const GAME = "empress-simulator";
export const SCREENSHOTS = "test-results/story-controls";

export const log = (page: Page) => page.getByRole("log");
export const input = (page: Page) => page.getByLabel("Your action or response");
/** A player's message in the story log, as a CSS selector (also for scripts run in the page). */
export const PLAYER_MESSAGE = 'li[data-role="user"]';
export const replies = (page: Page) => log(page).locator('li[data-role="assistant"]');
export const playerMessages = (page: Page) => log(page).locator(PLAYER_MESSAGE);
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

/* What the play screen's browser tests measure of a page (play-screen.test.ts). */
export type Box = { x: number; y: number; width: number; height: number };

export const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** A control's accessible description: the text of what its aria-describedby names. */
export function description(control: Locator) {
  return control.evaluate((element) =>
    (element.getAttribute("aria-describedby") ?? "")
      .split(" ")
      .map((id) => document.getElementById(id)?.textContent ?? "")
      .join(" "),
  );
}

/** Where the newest reply begins, measured from the top of the story's view. */
export function latestReplyTop(page: Page) {
  return page.getByRole("log").evaluate((story) => {
    const reply = [...story.querySelectorAll('li[data-role="assistant"]')].at(-1);
    return (reply?.getBoundingClientRect().top ?? NaN) - story.getBoundingClientRect().top;
  });
}

/** How far (px) the story is scrolled up from its end. */
export function distanceFromEnd(page: Page) {
  return page.getByRole("log").evaluate((story) => story.scrollHeight - story.scrollTop - story.clientHeight);
}

/** Fonts in, and no animation running: the page as it stays. */
export async function settle(page: Page) {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== "running"));
}

/** Resolves the moment React has taken `element` over (its event handlers are attached). */
export function whenHydrated(element: Locator) {
  return element.evaluate(
    (target) =>
      new Promise<void>((resolve) => {
        const ready = () => (Object.keys(target).some((key) => key.startsWith("__reactProps")) ? resolve() : requestAnimationFrame(ready));
        ready();
      }),
  );
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
