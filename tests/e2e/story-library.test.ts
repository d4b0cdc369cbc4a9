import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { eq } from "drizzle-orm";
import { stories } from "#app/db/schema.ts";
import { STORY_OPENING_EXCHANGES } from "#app/lib/story-view.ts";
import { seriousAccessibilityViolations } from "#tests/helpers/browser.ts";
import {
  GAME,
  latestReply,
  log,
  PLAYER_MESSAGE,
  playerMessages,
  playScreenTest,
  replies,
  replyDone,
  SCREENSHOTS,
  send,
} from "#tests/helpers/play-screen.ts";
import { beginStory, seedStory } from "#tests/helpers/stories.ts";

/**
 * A player's stories beyond one screen of turns, in Chromium: a long story read in windows and
 * searched, the library of stories (New story, My Stories), and the story's memory. The controls
 * of a turn are story-controls.test.ts.
 */

const test = playScreenTest
  /** A signed-in player whose story of GAME has `exchanges` exchanges, the first one an oath to search for. */
  .extend("longStory", { scope: "file" }, ({ server, login }) => async (exchanges: number) => {
    const account = await login();
    await seedStory(server.connection.db, {
      userId: account.userId,
      gameSlug: GAME,
      exchanges: Array.from({ length: exchanges }, (_, index) =>
        index === 0
          ? { message: "I swear an oath beneath the drowned lighthouse.", reply: "The sea remembers every oath you make here." }
          : {
              message: `I hold court, day ${index + 1}.`,
              reply: `The ministers report on day ${index + 1}. ${"The lanterns burn low. ".repeat(6)}`,
            },
      ),
    });
    return account;
  });

describe("a long story", () => {
  test("opens at the newest turn, loads older turns on scrolling up without the view jumping, and keeps the page small", async ({
    open,
    longStory,
  }) => {
    await longStory(2_000);
    const page = await open();
    await expect.poll(() => playerMessages(page).last().textContent()).toContain("day 2000");
    expect(await playerMessages(page).count()).toBe(STORY_OPENING_EXCHANGES);
    const scroller = log(page);
    await expect.poll(() => scroller.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight)).toBeLessThan(2);

    // Up to the top: older turns come in above, and what the reader was looking at stays put.
    const anchor = playerMessages(page).first();
    const anchorText = await anchor.textContent();
    await scroller.evaluate((element) => element.scrollTo({ top: 0 }));
    // Scrolled up again while no older turn has come in, as a reader would: on a loaded machine the
    // view may still be settling at the newest turn when the first scroll lands. Counted and
    // scrolled in one step of the page's script, so a page of older turns that has come in (and
    // kept the reader's place) is never scrolled away from.
    await expect
      .poll(() =>
        scroller.evaluate(
          (element, { shown, selector }) => {
            const count = element.querySelectorAll(selector).length;
            if (count <= shown) element.scrollTo({ top: 0 });
            return count;
          },
          { shown: STORY_OPENING_EXCHANGES, selector: PLAYER_MESSAGE },
        ),
      )
      .toBeGreaterThan(STORY_OPENING_EXCHANGES);
    const sameMessage = playerMessages(page).filter({ hasText: anchorText ?? "" });
    const box = await sameMessage.boundingBox();
    const view = await scroller.boundingBox();
    expect(box && view && box.y >= view.y - box.height && box.y <= view.y + view.height).toBe(true);
    // However far back the reader goes, the page holds a bounded number of turns.
    for (let page_ = 0; page_ < 8; page_ += 1) {
      await scroller.evaluate((element) => element.scrollTo({ top: 0 }));
      await page.waitForTimeout(150);
    }
    expect(await playerMessages(page).count()).toBeLessThanOrEqual(150);
    // The page's weight with 150 exchanges shown, every reply with its five tools (Read aloud,
    // Remember this, Branch from here, What the Game Master sees, the rating), the tools'
    // descriptions and the replies' icons written once for them all: about 4,800 elements.
    expect(await page.evaluate(() => document.getElementsByTagName("*").length)).toBeLessThan(5500);
    // One click back to the newest turn.
    await page.getByRole("button", { name: "Latest" }).click();
    await expect.poll(() => playerMessages(page).last().textContent()).toContain("day 2000");
    expect(page.errors).toEqual([]);
  });

  test("Find in story jumps to a phrase in the first exchange, highlighted, and sending returns to the newest turn", async ({
    open,
    longStory,
  }) => {
    await longStory(500);
    const page = await open();
    await page.getByRole("button", { name: "Find in story" }).click();
    await page.getByLabel("Words to find in your story").fill('"drowned lighthouse"');
    await page.getByRole("button", { name: "Find", exact: true }).click();
    const match = page.getByRole("list", { name: "Matches" }).getByRole("button").first();
    await expect.poll(() => match.textContent()).toContain("Turn 1");
    await page.screenshot({ path: `${SCREENSHOTS}/find-1280.png` });
    await match.click();
    const found = log(page).locator('li[data-highlighted="true"]');
    await expect.poll(() => found.textContent()).toContain("I swear an oath beneath the drowned lighthouse.");
    expect(await found.isVisible()).toBe(true);
    expect(await found.getAttribute("data-exchange")).toBe("1");

    await send(page, "I return to the present.");
    await expect.poll(() => playerMessages(page).last().textContent()).toContain("I return to the present.");
    await replyDone(page);
    await expect.poll(() => playerMessages(page).nth(-2).textContent()).toContain("day 500");
    expect(page.errors).toEqual([]);
  });

  test("still reloads mid-reply and follows another tab", async ({ open, longStory }) => {
    await longStory(300);
    const first = await open();
    const second = await open();
    await send(first, "I call the council at dawn.");
    // "Within 2 seconds" is held on a short story (a turn that survives anything); here the point
    // is that a long story still follows, which a loaded 2-core CI machine may take longer to show.
    await expect
      .poll(() => playerMessages(second).last().textContent(), { timeout: 6_000, interval: 100 })
      .toContain("I call the council at dawn.");
    await first.reload();
    await replyDone(first);
    await replyDone(second);
    expect(await latestReply(second)).toBe(await latestReply(first));
  });
});

describe("a library of stories", () => {
  test("New story keeps the old one; My Stories resumes, renames, exports and deletes", async ({ server, player, open }) => {
    await player();
    const page = await open();
    await send(page, "I remember the old oath.");
    await replyDone(page);

    await page.getByRole("button", { name: "More", exact: true }).click();
    await page.getByRole("menuitem", { name: "New story" }).click();
    await page.waitForURL(new RegExp(`/play/${GAME}/[0-9a-f-]{36}$`));
    await expect.poll(() => replies(page).first().textContent()).toContain("Are you ready to begin your adventure?");
    await page.getByRole("button", { name: /Begin the adventure/ }).click();
    await replyDone(page);

    await page.goto(`${server.url}/stories`);
    const cards = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: /^Resume / }) });
    await expect.poll(() => cards.count()).toBe(2);
    await page.screenshot({ path: `${SCREENSHOTS}/my-stories-1280.png` });

    // The older story, resumed, is the one played before.
    await cards
      .nth(1)
      .getByRole("link", { name: /^Resume / })
      .click();
    await expect.poll(() => playerMessages(page).last().textContent()).toContain("I remember the old oath.");

    await page.goto(`${server.url}/stories`);
    // Rename opens a dialog, which needs the page's scripts: a click before they run does nothing.
    await page.waitForLoadState("networkidle");
    await cards
      .nth(1)
      .getByRole("button", { name: /^Rename / })
      .click();
    await page.getByLabel("Title").fill("The Old Oath");
    await page.getByRole("button", { name: "Save title" }).click();
    await page.getByRole("heading", { name: "The Old Oath" }).waitFor();

    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export The Old Oath as Markdown" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^empress-simulator-the-old-oath\.md$/);
    const markdown = await readFile(await file.path(), "utf8");
    expect(markdown).toContain("# The Old Oath");
    expect(markdown).toContain("I remember the old oath.");

    await page.getByRole("button", { name: "Delete The Old Oath" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete story" }).click();
    await expect.poll(() => cards.count()).toBe(1);
    expect(await page.getByRole("heading", { name: "The Old Oath" }).count()).toBe(0);
    expect(page.errors).toEqual([]);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });

  test("keeps every Resume where it was drawn while the page hydrates, so a click right after load lands", async ({ server, browser, player }) => {
    const account = await player();
    for (const title of ["A Winter Court", "The Northern Pass", "Silk and Salt"]) {
      const storyId = await beginStory(server, account, GAME);
      await server.connection.db.update(stories).set({ title }).where(eq(stories.id, storyId));
    }
    const resumeLinks = (page: Page) => page.getByRole("link", { name: /^Resume / });
    const boxes = (page: Page) => resumeLinks(page).evaluateAll((links) => links.map((link) => link.getBoundingClientRect().toJSON() as unknown));

    // As the server drew it: the page without its scripts.
    const drawn = await browser.newPage({ width: 1280, height: 900 });
    await drawn.route("**/*.js", (route) => route.abort());
    await drawn.goto(`${server.url}/stories`);
    const before = await boxes(drawn);
    expect(before).toHaveLength(4);

    // Hydrated, with the reader's local times filled in: nothing has moved.
    const page = await browser.newPage({ width: 1280, height: 900 });
    await page.goto(`${server.url}/stories`);
    await page.waitForLoadState("networkidle");
    await expect.poll(() => page.locator("time").first().textContent()).not.toBe("");
    expect(await boxes(page)).toEqual(before);

    // A click the moment the page shows, before its scripts have run, opens the story under it.
    const early = await browser.newPage({ width: 1280, height: 900 });
    await early.goto(`${server.url}/stories`, { waitUntil: "commit" });
    const target = resumeLinks(early).nth(1);
    await target.waitFor();
    const href = await target.getAttribute("href");
    const box = (before[1] ?? {}) as { x: number; y: number; width: number; height: number };
    await early.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await early.waitForURL(`${server.url}${href ?? ""}`);
  });
});

describe("story memory", () => {
  test("Memory shows pinned facts, the author's note and the story so far, saves them, and keeps them", async ({ player, open }) => {
    await player();
    const page = await open();
    await page.getByRole("button", { name: "Memory" }).click();
    const dialog = page.getByRole("dialog", { name: "Memory" });
    await dialog.getByLabel("Pinned facts").fill("My name is Lin Yue.\nI swore to protect the young Emperor.");
    await dialog.getByLabel("Author's note").fill("Slow-burn court intrigue.");
    await page.screenshot({ path: `${SCREENSHOTS}/memory-1280.png` });
    await dialog.getByRole("button", { name: "Save memory" }).click();
    await page.getByText("Memory saved").waitFor();
    await page.reload();
    await page.getByRole("button", { name: "Memory" }).click();
    expect(await page.getByRole("dialog", { name: "Memory" }).getByLabel("Pinned facts").inputValue()).toBe(
      "My name is Lin Yue.\nI swore to protect the young Emperor.",
    );
    expect(await page.getByRole("dialog", { name: "Memory" }).getByLabel("Author's note").inputValue()).toBe("Slow-burn court intrigue.");
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 360, height: 740 });
    await page.screenshot({ path: `${SCREENSHOTS}/memory-360.png` });
    expect(page.errors).toEqual([]);
  });
});
