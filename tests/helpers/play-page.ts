import type { Locator, Page } from "playwright-core";

/** What the play screen's browser tests measure of a page (tests/e2e/play-screen.test.ts). */

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
