import { mkdirSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { seriousAccessibilityViolations } from "#tests/helpers/browser.ts";
import { control, input, playerMessages, playScreenTest as test, replies, replyDone, settle, whenHydrated } from "#tests/helpers/play-screen.ts";

/**
 * Check and What the Game Master sees (issue 35, docs/decisions/061 and 062) in Chromium, by
 * their accessible names: a message sent as a Check shows the server's roll under it, the
 * offline storyteller tells its outcome, and each reply opens the parts of the context it was
 * written from.
 */

const SCREENSHOTS = "test-results/play-checks";
const PHONE = { width: 360, height: 780 };
const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 375, height: 780 };

test.override("serverEnv", { AI_OFFLINE_WORD_DELAY_MS: "2" });
mkdirSync(SCREENSHOTS, { recursive: true });

const ROLL_LINE = /^Check · Grace d20 (\d+) ([+−]) (\d+) = (-?\d+) vs 20 — (success|failure)$/;

async function sendAsCheck(page: Page, text: string, screenshot?: string) {
  const check = page.getByRole("button", { name: "Check", exact: true });
  await whenHydrated(check);
  await check.click();
  expect(await check.getAttribute("aria-pressed")).toBe("true");
  const options = page.getByRole("group", { name: "Check" });
  await options.getByLabel("Stat").selectOption("Grace");
  await options.getByLabel("Difficulty").selectOption({ label: "Hard (20)" });
  await input(page).fill(text);
  if (screenshot) {
    await settle(page);
    await page.screenshot({ path: `${SCREENSHOTS}/${screenshot}.png` });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  }
  await input(page).press("Enter");
  await control(page, "Retry").waitFor({ timeout: 30_000 });
}

describe("Check", () => {
  test("rolls on the server, shows the roll under the message, and the storyteller tells its outcome", async ({ player, open }) => {
    await player();
    const page = await open(WIDE);
    await sendAsCheck(page, "I curtsy and ask the Empress Dowager for her favour.", "check-options-1280");

    const roll = (await playerMessages(page).last().locator("[data-roll]").innerText()).trim();
    const [, , , , , outcome] = ROLL_LINE.exec(roll) ?? [];
    expect(outcome).toBeDefined();
    const reply = await replies(page).last().innerText();
    expect(reply).toContain(outcome === "success" ? "Your Grace carries you through" : "Your Grace fails you");
    // The toggle is off again: a check goes with one message.
    expect(await page.getByRole("button", { name: "Check", exact: true }).getAttribute("aria-pressed")).toBe("false");

    // After a reload the roll is still there.
    await page.reload();
    await playerMessages(page).last().locator("[data-roll]").waitFor();
    expect((await playerMessages(page).last().locator("[data-roll]").innerText()).trim()).toBe(roll);
    await playerMessages(page).last().scrollIntoViewIfNeeded();
    await settle(page);
    await page.screenshot({ path: `${SCREENSHOTS}/roll-line-1280.png` });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.close();
  });
});

describe("What the Game Master sees", () => {
  test("lists every part of the reply's context with its tokens and the call's cost, at 360 and 1280 px", async ({ player, open }) => {
    await player();
    for (const size of [PHONE, WIDE]) {
      const page = await open(size);
      if (size === PHONE) await sendAsCheck(page, "I bow low.", "check-options-360");
      const seeing = replies(page).last().getByRole("button", { name: "What the Game Master sees", exact: true });
      await whenHydrated(seeing);
      await seeing.click();
      const dialog = page.getByRole("dialog", { name: "What the Game Master saw" });
      const parts = dialog.getByRole("list", { name: "Parts of the context, in order" });
      await parts.waitFor();
      const names = await parts.getByRole("listitem").allInnerTexts();
      expect(names[0]).toMatch(/^Game instructions\n[\d,]+ tokens · [\d.]+%/);
      expect(names.some((name) => name.startsWith("World: "))).toBe(true);
      expect(names.some((name) => name.startsWith("Exchanges") && name.includes("Kept: the opening"))).toBe(true);
      expect(names.some((name) => name.startsWith("Check") && /Check · Grace d20/.test(name))).toBe(true);
      expect(names.at(-1)).toMatch(/^Your message/);
      // A player never sees the game's instructions, only their size.
      expect(await dialog.getByText("Show the instructions").count()).toBe(0);
      await dialog.getByText("Cost").waitFor();
      expect(await dialog.innerText()).toMatch(/Sent\n[\d,]+ tokens.*% cached/);
      await settle(page);
      await page.screenshot({ path: `${SCREENSHOTS}/what-the-game-master-sees-${size.width}.png` });
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      await page.close();
    }
  });

  test("shows each call of a continued reply under its own heading, the reply first", async ({ player, open }) => {
    await player();
    const page = await open(WIDE);
    // A reply the model wrote (the opening was seeded, with no call of its own), then its Continue.
    await whenHydrated(input(page));
    await input(page).fill("I bow low.");
    await input(page).press("Enter");
    await expect.poll(() => playerMessages(page).last().textContent()).toContain("I bow low.");
    await replyDone(page);
    const continuing = replies(page).last().getByRole("button", { name: "Continue", exact: true });
    const before = (await replies(page).last().innerText()).length;
    await continuing.click();
    // The Continue's words arrive, then its controls come back once it is stored (with its call).
    await expect.poll(async () => (await replies(page).last().innerText()).length).toBeGreaterThan(before);
    await replyDone(page);
    await replies(page).last().getByRole("button", { name: "What the Game Master sees", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "What the Game Master saw" });
    for (const name of ["The reply", "Continue 1"]) {
      const call = dialog.getByRole("region", { name });
      await call.getByRole("list", { name: "Parts of the context, in order" }).waitFor();
      await call.getByText("Cost").waitFor();
    }
    expect(await dialog.getByRole("heading", { level: 3 }).allInnerTexts()).toEqual(["THE REPLY", "CONTINUE 1"]);
    for (const size of [NARROW, WIDE]) {
      await page.setViewportSize(size);
      // Where the reply's part ends and the Continue's begins.
      await dialog.getByRole("heading", { name: "Continue 1" }).scrollIntoViewIfNeeded();
      await settle(page);
      await page.screenshot({ path: `${SCREENSHOTS}/what-the-game-master-sees-continued-${size.width}.png` });
    }
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expect(page.errors).toEqual([]);
  });
});
