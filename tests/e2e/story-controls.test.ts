import { describe, expect } from "vitest";
import { and, desc, eq, sql } from "drizzle-orm";
import { gameMessages, stories } from "#app/db/schema.ts";
import { PLAY_TEXTS, PLAY_TOASTS, STORY_REFUSALS } from "#app/lib/play-texts.ts";
import type { TestAccount } from "#tests/helpers/accounts.ts";
import { expectToast, seriousAccessibilityViolations } from "#tests/helpers/browser.ts";
import {
  balance,
  control,
  GAME,
  input,
  latestReply,
  log,
  playerMessages,
  playScreenTest as test,
  replies,
  replyDone,
  SCREENSHOTS,
  send,
} from "#tests/helpers/play-screen.ts";
import { setBalance } from "#tests/helpers/game-chat.ts";
import { OPENING_EXCHANGE } from "#tests/helpers/stories.ts";

/**
 * The story controls and durable turns of issue 16, as a player meets them in Chromium: every
 * control found by its accessible name, a reply that survives reload and Back, two tabs on one
 * story, typed choice numbers, the credit states, and the play screen at phone width. Long
 * stories, the library and memory are story-library.test.ts.
 */

describe("the story controls", () => {
  test("Retry keeps versions to page through, Continue extends, ↑ edits, Undo walks back — each paid one saying its cost", async ({
    player,
    open,
  }) => {
    await player();
    const page = await open();
    await send(page, "I summon the Grand Chancellor.");
    await replyDone(page);
    await expect.poll(() => balance(page)).toBe("19 Credits");

    // The cost is the button's accessible description (and its tooltip).
    const retry = control(page, "Retry");
    expect(await retry.getAttribute("title")).toMatch(/Costs 1 credit/);
    const describedBy = await retry.getAttribute("aria-describedby");
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toMatch(/Costs 1 credit/);
    expect(await control(page, "Continue").getAttribute("title")).toMatch(/Costs 1 credit/);
    expect(await control(page, "Undo").getAttribute("title")).toMatch(/Free/);

    const first = await latestReply(page);
    await retry.click();
    await replyDone(page);
    await page.getByText("2 / 2").waitFor();
    const second = await latestReply(page);
    expect(second).not.toBe(first);
    await expect.poll(() => balance(page)).toBe("18 Credits");

    await control(page, "Previous version").click();
    await page.getByText("1 / 2").waitFor();
    await expect.poll(() => latestReply(page)).toBe(first);
    // ← and → page through versions from an empty composer.
    await input(page).focus();
    await input(page).press("ArrowRight");
    await page.getByText("2 / 2").waitFor();
    await control(page, "Previous version").click();
    await page.getByText("1 / 2").waitFor();
    expect(await control(page, "Next version").isEnabled()).toBe(true);
    await page.screenshot({ path: `${SCREENSHOTS}/versions-1280.png` });

    const before = await latestReply(page);
    await control(page, "Continue").click();
    await replyDone(page);
    await expect.poll(async () => (await latestReply(page)).length).toBeGreaterThan(before.length);
    await expect.poll(() => balance(page)).toBe("17 Credits");

    // ↑ in the empty composer edits the last message.
    await input(page).focus();
    await input(page).press("ArrowUp");
    expect(await input(page).inputValue()).toBe("I summon the Grand Chancellor.");
    await page.getByRole("button", { name: "Cancel edit" }).waitFor();
    await input(page).fill("I summon the Commander instead.");
    await input(page).press("Enter");
    await replyDone(page);
    await expect
      .poll(() => playerMessages(page).allTextContents())
      .toEqual([expect.stringContaining(OPENING_EXCHANGE.message), expect.stringContaining("I summon the Commander instead.")]);
    await expect.poll(() => balance(page)).toBe("16 Credits");

    // Undo is free and walks back one exchange at a time.
    await control(page, "Undo").click();
    await expect.poll(() => playerMessages(page).count()).toBe(1);
    expect(await control(page, "Edit").count()).toBe(1);
    await expect.poll(() => balance(page)).toBe("16 Credits");
    await page.reload();
    await expect.poll(() => playerMessages(page).count()).toBe(1);
    expect(page.errors).toEqual([]);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });

  test("typing the number of a suggested choice sends that choice, and the story shows its text", async ({ player, open }) => {
    await player({ begun: false });
    const page = await open();
    await page.getByRole("button", { name: new RegExp(PLAY_TEXTS.beginChoice.replace(/[.!]/g, ".")) }).click();
    await replyDone(page);
    const second = page.getByRole("list", { name: "Suggested actions" }).getByRole("button").nth(1);
    const choiceText = ((await second.textContent()) ?? "").replace(/^2/, "");
    // The opening scene was free.
    await expect.poll(() => balance(page)).toBe("20 Credits");
    await send(page, "2");
    await expect.poll(() => playerMessages(page).last().textContent()).toContain(choiceText);
    expect(await playerMessages(page).last().textContent()).not.toBe("2");
    await replyDone(page);
  });
});

describe("a turn that survives anything", () => {
  test("reloading mid-reply shows the message at once and the reply carries on to its end, without another reload", async ({ player, open }) => {
    await player();
    const page = await open();
    await send(page, "I read the memorial aloud.");
    await expect.poll(async () => ((await replies(page).last().textContent()) ?? "").length).toBeGreaterThan(80);
    await page.reload();
    await expect.poll(() => playerMessages(page).last().textContent()).toContain("I read the memorial aloud.");
    // Still being written: the composer waits, and the text keeps growing to the finished reply.
    expect(await page.getByRole("button", { name: "Send message" }).isDisabled()).toBe(true);
    await replyDone(page);
    await page.getByRole("list", { name: "Suggested actions" }).waitFor();
    const shown = await latestReply(page);
    await page.reload();
    await replyDone(page);
    expect(await latestReply(page)).toBe(shown);
    expect(page.errors).toEqual([]);
  });

  test("Back and Forward mid-reply come back to the reply", async ({ server, player, open }) => {
    await player();
    const page = await open();
    await send(page, "I walk the palace walls.");
    await expect.poll(async () => ((await replies(page).last().textContent()) ?? "").length).toBeGreaterThan(80);
    await page.getByRole("link", { name: "Back to Games" }).click();
    await page.waitForURL(`${server.url}/games`);
    await page.goBack();
    await expect.poll(() => playerMessages(page).last().textContent()).toContain("I walk the palace walls.");
    await replyDone(page);
    await page.getByRole("list", { name: "Suggested actions" }).waitFor();
  });

  test("a second tab shows the other's new exchange within 2 seconds, with its composer busy meanwhile", async ({ player, open }) => {
    await player();
    const first = await open();
    const second = await open();
    await send(first, "I call for the eunuch Rong Yuan.");
    // The second tab learns of the turn, shows the message and waits.
    await expect
      .poll(() => playerMessages(second).last().textContent(), { timeout: 2_000, interval: 100 })
      .toContain("I call for the eunuch Rong Yuan.");
    expect(await second.getByRole("button", { name: "Send message" }).isDisabled()).toBe(true);
    await replyDone(first);
    const finished = await latestReply(first);
    await expect.poll(() => latestReply(second), { timeout: 2_000, interval: 100 }).toBe(finished);
    await control(second, "Retry").waitFor();

    // An Undo in the second tab reaches the first.
    await control(second, "Undo").click();
    await expect.poll(() => playerMessages(first).count(), { timeout: 2_000, interval: 100 }).toBe(1);
    expect(first.errors).toEqual([]);
    expect(second.errors).toEqual([]);
  });
});

describe("a reply lost with its server", () => {
  test("says so in the reply's place, keeps the message, refunds, and Send again asks anew", async ({ server, player, open }) => {
    const account = await player();
    const [story] = await server.connection.db.select({ id: stories.id }).from(stories).where(eq(stories.userId, account.userId));
    // A turn whose instance died at once: nobody renews its lease (finish_turn.sql settles it as interrupted).
    await server.connection.db.execute(
      sql`SELECT * FROM begin_turn(${account.userId}, NULL, NULL, false, NULL, ${story!.id}::uuid, gen_random_uuid(), 'send', NULL, 'I send for the physician.', 1, 0, (extract(epoch FROM now()) * 1000)::bigint, 60000, 'test-chat', 1000, 'test-failed', 1000, 60000, 1, 'test', 0, 0, 0, 0, 10, 100000, 1000)`,
    );
    const page = await open();
    await expect.poll(() => playerMessages(page).last().textContent()).toContain("I send for the physician.");
    const lost = replies(page).last();
    await expect.poll(() => lost.textContent()).toContain(PLAY_TEXTS.interruptedReply);
    await expect.poll(() => balance(page)).toContain("20");
    expect(await control(page, "Retry").count()).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/interrupted-1280.png` });
    await page.setViewportSize({ width: 360, height: 740 });
    await page.screenshot({ path: `${SCREENSHOTS}/interrupted-360.png` });

    await control(page, "Send again").click();
    await replyDone(page);
    expect(await log(page).textContent()).not.toContain(PLAY_TEXTS.interruptedReply);
    expect(await playerMessages(page).last().textContent()).toContain("I send for the physician.");
    await expect.poll(() => balance(page)).toContain("19");
    expect(page.errors).toEqual([]);
  });

  test("a page still offering Retry on a reply lost meanwhile says why it can't, and shows the reply as lost", async ({
    server,
    player,
    open,
  }) => {
    const account = await player();
    const page = await open();
    await send(page, "I send for the scribes.");
    await replyDone(page);
    await expect.poll(() => balance(page)).toBe("19 Credits");
    // Lost behind the page's back (as when the page missed the story's notification).
    const [reply] = await server.connection.db
      .select({ id: gameMessages.id })
      .from(gameMessages)
      .where(and(eq(gameMessages.userId, account.userId), eq(gameMessages.role, "assistant")))
      .orderBy(desc(gameMessages.id))
      .limit(1);
    await server.connection.db.update(gameMessages).set({ status: "interrupted", content: "" }).where(eq(gameMessages.id, reply!.id));

    await control(page, "Retry").click();
    await expectToast(page, PLAY_TOASTS.sendFailed.title, STORY_REFUSALS.lost);
    await expect.poll(() => replies(page).last().textContent()).toContain(PLAY_TEXTS.interruptedReply);
    await control(page, "Send again").waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}/lost-retry-1280.png` });
    expect(await control(page, "Retry").count()).toBe(0);
    await expect.poll(() => balance(page)).toBe("19 Credits");
    // The refused Retry's 409 is the browser's own console line; nothing else went wrong.
    expect(page.errors.filter((error) => !error.includes("status of 409"))).toEqual([]);
  });
});

describe("credits in play", () => {
  test("warns quietly at 3 credits or fewer, and at 0 closes the composer with a Get credits link back to the story", async ({
    server,
    player,
    open,
  }) => {
    const account: TestAccount = await player({ credits: 1 });
    const page = await open();
    await page.getByText("1 credit left.").waitFor();
    await send(page, "I spend my last credit.");
    await replyDone(page);
    await page.getByText("You have no credits left").waitFor();
    expect(await input(page).isDisabled()).toBe(true);
    expect(await control(page, "Retry").isDisabled()).toBe(true);
    expect(await control(page, "Undo").isDisabled()).toBe(false);
    const getCredits = page.getByRole("link", { name: "Get credits" });
    expect(await getCredits.getAttribute("href")).toBe(`/credits?returnTo=${encodeURIComponent(`/play/${GAME}`)}`);
    await page.screenshot({ path: `${SCREENSHOTS}/no-credits-1280.png` });
    // Buying keeps the place: the credits page leads back to the same story.
    await getCredits.click();
    await page.waitForURL(/\/credits\?returnTo=/);
    await page.getByRole("link", { name: "Back to your story" }).click();
    await page.waitForURL(`${server.url}/play/${GAME}`);
    await expect.poll(() => playerMessages(page).last().textContent()).toContain("I spend my last credit.");
    // Credits bought elsewhere open the composer again at once.
    await setBalance(account, 5);
    await expect.poll(() => input(page).isDisabled()).toBe(false);
  });
});

describe("the play screen on a phone", () => {
  test("at 360 px: header and composer stay put, only the story scrolls, no footer, nothing overflows", async ({ player, open }) => {
    await player();
    const page = await open({ width: 360, height: 740 });
    await send(page, "I look out over the Forbidden City.");
    await replyDone(page);
    await send(page, "2");
    await replyDone(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    // The window itself does not scroll: the story does.
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(740);
    expect(await page.locator("footer").count()).toBe(0);
    for (const element of [input(page), page.getByRole("button", { name: "Send message" }), page.getByRole("heading", { level: 1 })]) {
      const box = await element.boundingBox();
      expect(box && box.y >= 0 && box.y + box.height <= 740).toBe(true);
    }
    await page.screenshot({ path: `${SCREENSHOTS}/play-360.png` });
    // The on-screen keyboard takes the bottom half: the composer rises with the visible area.
    await page.setViewportSize({ width: 360, height: 400 });
    const composer = await input(page).boundingBox();
    expect(composer && composer.y + composer.height <= 400).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(400);
    await page.screenshot({ path: `${SCREENSHOTS}/play-360-keyboard.png` });
    await input(page).focus();
    await input(page).press("ArrowUp");
    await page.screenshot({ path: `${SCREENSHOTS}/play-360-editing.png` });
    expect(page.errors).toEqual([]);
  });
});
