import { mkdirSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { choiceCost, PLAY_TEXTS } from "#app/lib/play-texts.ts";
import { seriousAccessibilityViolations } from "#tests/helpers/browser.ts";
import {
  balance,
  control,
  description,
  distanceFromEnd,
  GAME,
  input,
  latestReplyTop,
  log,
  overlaps,
  playerMessages,
  playScreenTest as test,
  settle,
  whenHydrated,
  type Box,
} from "#tests/helpers/play-screen.ts";

/**
 * The play screen's rough edges of issue 33, as a player meets them in Chromium, found by their
 * accessible names: Continue keeps the choices, a choice sends itself, the view after a long
 * reply, the phone header's names and More menu, toasts that cover nothing, a page that does not
 * move while it hydrates, and a tab that follows the story another tab begins.
 */

const SCREENSHOTS = "test-results/play-screen";
const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 800 };

test.override("serverEnv", { AI_OFFLINE_WORD_DELAY_MS: "2" });
mkdirSync(SCREENSHOTS, { recursive: true });

const choices = (page: Page) => page.getByRole("list", { name: "Suggested actions" }).getByRole("button");
const chatRequest = (page: Page) => page.waitForRequest((request) => request.url().endsWith("/api/game-chat"));

/** Waits until the latest reply is finished: its controls and its choices are back. */
async function answered(page: Page) {
  await control(page, "Retry").waitFor({ timeout: 30_000 });
  await choices(page).first().waitFor();
}

async function begin(page: Page) {
  await page.getByRole("button", { name: PLAY_TEXTS.beginChoice }).click();
  await answered(page);
}

describe("Continue", () => {
  test("keeps the reply's choices as its last part, still buttons, and a typed number still means a choice", async ({ player, open }) => {
    await player({ begun: false });
    const page = await open();
    await begin(page);
    const offered = await choices(page).allTextContents();
    const before = (await log(page).locator('li[data-role="assistant"]').last().innerText()).length;

    await control(page, "Continue").click();
    await answered(page);
    const reply = log(page).locator('li[data-role="assistant"]').last();
    expect((await reply.innerText()).length).toBeGreaterThan(before);
    expect(await choices(page).allTextContents()).toEqual(offered);
    // The list is the reply's last part: only what a choice costs comes after it.
    const after = await reply.getByRole("list", { name: "Suggested actions" }).evaluate((list) => {
      const next = list.nextElementSibling;
      return next?.nextElementSibling ? "more" : (next?.textContent ?? "");
    });
    expect(after).toBe(choiceCost(1));
    await expect.poll(() => balance(page)).toBe("19 Credits");

    const sent = chatRequest(page);
    await input(page).fill("2");
    await input(page).press("Enter");
    const second = (offered[1] ?? "").replace(/^2/, "");
    expect(JSON.parse((await sent).postData() ?? "{}")).toMatchObject({ message: second });
    await expect.poll(() => playerMessages(page).last().textContent()).toContain(second);
    await answered(page);
    await expect.poll(() => balance(page)).toBe("18 Credits");
    await page.screenshot({ path: `${SCREENSHOTS}/continued-1280.png` });
    expect(page.errors).toEqual([]);
  });
});

describe("a suggested choice", () => {
  test("sends itself on the opening and on a later reply, saying what it costs", async ({ player, open }) => {
    await player({ begun: false });
    const page = await open();
    const opening = page.getByRole("button", { name: PLAY_TEXTS.beginChoice });
    expect(await description(opening)).toBe(choiceCost(0));
    const first = chatRequest(page);
    await opening.click();
    expect(JSON.parse((await first).postData() ?? "{}")).toMatchObject({ message: PLAY_TEXTS.beginChoice });
    await answered(page);
    await expect.poll(() => balance(page)).toBe("20 Credits");

    const later = choices(page).nth(2);
    expect(await description(later)).toBe(choiceCost(1));
    const text = ((await later.textContent()) ?? "").replace(/^3/, "");
    await input(page).fill("A thought I keep.");
    const second = chatRequest(page);
    await later.click();
    expect(JSON.parse((await second).postData() ?? "{}")).toMatchObject({ message: text });
    await answered(page);
    expect(await playerMessages(page).last().textContent()).toContain(text);
    expect(await input(page).inputValue()).toBe("A thought I keep.");
    await expect.poll(() => balance(page)).toBe("19 Credits");
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
});

describe("the view after a reply", () => {
  for (const size of [WIDE, PHONE]) {
    test(`at ${size.width} px rests on the start of a reply taller than the screen, and follows a shorter one to its end`, async ({
      player,
      open,
    }) => {
      await player({ begun: false });
      const page = await open(size);
      await begin(page);
      await expect.poll(() => latestReplyTop(page)).toBeGreaterThanOrEqual(0);
      expect(await latestReplyTop(page)).toBeLessThan(40);
      expect(await distanceFromEnd(page)).toBeGreaterThan(100);
      await page.getByRole("button", { name: "Latest" }).waitFor();
      await page.screenshot({ path: `${SCREENSHOTS}/after-reply-${size.width}.png` });

      // On a screen tall enough for the whole reply, the view follows it to its end.
      const tall = await open({ width: size.width, height: 4000 });
      await control(tall, "Undo").click();
      await tall.getByRole("button", { name: PLAY_TEXTS.beginChoice }).click();
      await answered(tall);
      await expect.poll(() => distanceFromEnd(tall)).toBeLessThan(2);
      expect(page.errors).toEqual([]);
    });
  }
});

describe("the header on a phone", () => {
  test("names its tools, and More opens a menu of named actions used by keyboard, closed by Escape", async ({ player, open }) => {
    await player({ begun: false });
    const page = await open(PHONE);
    await begin(page);
    const header = page.locator("header").filter({ has: page.getByRole("heading", { level: 1 }) });
    // Every tool shows its name, not an icon alone.
    const unnamed = await header
      .getByRole("button")
      .evaluateAll((buttons) => buttons.filter((button) => button.checkVisibility() && (button as HTMLElement).innerText.trim() === "").length);
    expect(unnamed).toBe(0);
    for (const name of ["State", "Memory", "More"]) expect(await header.getByRole("button", { name, exact: true }).isVisible()).toBe(true);

    const more = header.getByRole("button", { name: "More", exact: true });
    await more.focus();
    await page.keyboard.press("Enter");
    const menu = page.getByRole("menu", { name: "More" });
    await menu.waitFor();
    const items = await menu.getByRole("menuitem").allTextContents();
    expect(items).toEqual([
      "Find in story",
      "Export as Markdown",
      "Export as JSON",
      "Lorebook",
      "Branches",
      "New story",
      "Start Over",
      "Save Chat",
    ]);
    const focused = () => page.evaluate(() => document.activeElement?.textContent.trim());
    expect(await focused()).toBe("Find in story");
    await page.keyboard.press("ArrowDown");
    expect(await focused()).toBe("Export as Markdown");
    await page.keyboard.press("End");
    expect(await focused()).toBe("Save Chat");
    await page.keyboard.press("ArrowDown");
    expect(await focused()).toBe("Find in story");
    await page.screenshot({ path: `${SCREENSHOTS}/more-menu-390.png` });
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "hidden" });
    expect(await focused()).toBe("More");

    // An item that asks first: its dialog, and the focus back on More after.
    await more.click();
    await menu.getByRole("menuitem", { name: "Start Over" }).click();
    await page.getByRole("alertdialog", { name: "Start over?" }).getByRole("button", { name: "Keep playing" }).click();
    await expect.poll(focused).toBe("More");
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expect(page.errors).toEqual([]);
  });
});

describe("toasts", () => {
  for (const size of [WIDE, PHONE]) {
    test(`at ${size.width} px cover neither the title, the balance nor the composer`, async ({ player, open }) => {
      await player({ begun: false });
      const page = await open(size);
      await begin(page);
      if (size === PHONE) {
        await page.getByRole("button", { name: "More", exact: true }).click();
        await page.getByRole("menuitem", { name: "Save Chat" }).click();
      } else {
        await page.getByRole("button", { name: "Save Chat" }).click();
      }
      const toast = page.locator("[data-sonner-toast]").first();
      await toast.waitFor();
      await settle(page);
      const toastBox = await toast.boundingBox();
      const covered = [
        page.getByRole("heading", { level: 1 }),
        ...(await page.locator('[data-testid="credits-balance"]:visible').all()),
        input(page),
        page.getByRole("button", { name: "Send message" }),
      ];
      for (const element of covered) {
        const box = await element.boundingBox();
        expect(toastBox && box && overlaps(toastBox, box)).toBe(false);
      }
      await page.screenshot({ path: `${SCREENSHOTS}/toast-${size.width}.png` });
    });
  }
});

describe("while the page hydrates", () => {
  test("nothing moves, so a click on a choice right after load lands on it", async ({ player, open, browser, server }) => {
    await player({ begun: false });
    await begin(await open());
    const named = (page: Page) =>
      page
        .locator('[role="log"] button, header button, header a, textarea, button[type="submit"]')
        .evaluateAll((elements) =>
          elements.filter((element) => element.checkVisibility()).map((element) => element.getBoundingClientRect().toJSON() as Box),
        );
    for (const size of [WIDE, PHONE]) {
      // As the server drew it, and once its scripts have taken over: every named control where it was.
      const drawn = await browser.newPage(size);
      await drawn.route("**/*.js", (route) => route.abort());
      await drawn.goto(`${server.url}/play/${GAME}`);
      await settle(drawn);
      const before = await named(drawn);
      expect(before.length).toBeGreaterThan(8);
      const hydrated = await open(size);
      await hydrated.waitForLoadState("networkidle");
      await settle(hydrated);
      expect(await named(hydrated)).toEqual(before);

      // The moment a choice can act (React has taken it over), a click where it was drawn sends it.
      const page = await browser.newPage(size);
      await page.goto(`${server.url}/play/${GAME}`, { waitUntil: "commit" });
      const target = choices(page).nth(1);
      await whenHydrated(target);
      const text = ((await target.textContent()) ?? "").replace(/^2/, "");
      const spot = (await drawn.locator('[aria-label="Suggested actions"] button').nth(1).boundingBox()) as Box;
      const sent = chatRequest(page);
      await page.mouse.click(spot.x + spot.width / 2, spot.y + spot.height / 2);
      expect(JSON.parse((await sent).postData() ?? "{}")).toMatchObject({ message: text });
      await answered(page);
      // Back to the story as it was drawn, for the next width.
      await control(page, "Undo").click();
      await expect.poll(() => choices(page).nth(1).textContent()).toContain(text);
      await browser.closePages();
    }
  });
});

describe("two tabs before the first turn", () => {
  test("a tab on a story not yet begun follows the one another tab begins, and continues it at the right price", async ({
    player,
    open,
    server,
  }) => {
    await player({ begun: false });
    const second = await open();
    const first = await open();
    await begin(first);
    // The second tab, never reloaded, shows the story begun in the first.
    await expect
      .poll(() => playerMessages(second).allTextContents(), { timeout: 30_000 })
      .toEqual([expect.stringContaining(PLAY_TEXTS.beginChoice)]);
    await answered(second);
    const exported = (await first.locator('a[href*="/export?format="]').first().getAttribute("href")) ?? "";
    const storyId = /\/api\/stories\/([0-9a-f-]{36})\//.exec(exported)?.[1];
    expect(storyId).toBeDefined();

    const sent = chatRequest(second);
    await input(second).fill("I listen to the court.");
    await input(second).press("Enter");
    const body = JSON.parse((await sent).postData() ?? "{}") as { story_id?: string };
    await answered(second);
    expect(body.story_id).toBe(storyId);
    expect(second.url()).toBe(`${server.url}/play/${GAME}`);
    // Exchange 2 of the story both tabs show, for one credit; the first tab follows it too.
    expect(await playerMessages(second).count()).toBe(2);
    await expect.poll(() => balance(second)).toBe("19 Credits");
    await expect
      .poll(() => playerMessages(first).allTextContents())
      .toEqual([expect.stringContaining(PLAY_TEXTS.beginChoice), expect.stringContaining("I listen to the court.")]);
    expect(second.errors).toEqual([]);
  });
});
