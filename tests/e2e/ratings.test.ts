import type { Page } from "playwright-core";
import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { gameMessages, replyRatings } from "#app/db/schema.ts";
import { BAD_REPLY_REASON_LABELS } from "#app/lib/reply-ratings.ts";
import { signInBrowser, signUp, uniqueEmail, type TestAccount } from "#tests/helpers/accounts.ts";
import { expectToast, seriousAccessibilityViolations } from "#tests/helpers/browser.ts";
import { browserTest as test } from "#tests/helpers/fixtures.ts";
import type { TestServer } from "#tests/helpers/server.ts";
import { seedStory } from "#tests/helpers/stories.ts";

/**
 * Issue 33 in Chromium: Good reply / Bad reply under each reply, with the optional reason after
 * Bad reply, by their accessible names and from the keyboard; and the demo's sign-up toast, which
 * says where the confirmation mail is and leads to it.
 */

const GAME = "empress-simulator";

// The built-in test checkout and no SMTP_URL: the demo, as `npm run demo` starts it.
test.override("serverEnv", { AI_OFFLINE_WORD_DELAY_MS: "0", SMTP_URL: undefined });

const replies = (page: Page) => page.getByRole("log").locator('li[data-role="assistant"]');
const button = (scope: Page | ReturnType<typeof replies>, name: string) => scope.getByRole("button", { name, exact: true });
const reasons = (page: Page) => page.getByRole("group", { name: "What was wrong? (optional)" });

/** The player's stored ratings of a story's replies, by exchange. */
async function storedRatings(server: TestServer, account: TestAccount) {
  return server.connection.db
    .select({ exchange: gameMessages.exchange, rating: replyRatings.rating, reason: replyRatings.reason })
    .from(replyRatings)
    .innerJoin(gameMessages, eq(gameMessages.id, replyRatings.messageId))
    .where(eq(replyRatings.userId, account.userId))
    .orderBy(gameMessages.exchange);
}

describe("rating replies", () => {
  test("offers Good reply and Bad reply on each reply, asks why after Bad reply, and keeps the choice", async ({ server, browser }) => {
    const player = await signUp(server);
    await seedStory(server.connection.db, {
      userId: player.userId,
      gameSlug: GAME,
      exchanges: [
        { message: "I take the throne.", reply: "The court bows as one." },
        { message: "I summon the ministers.", reply: "Three ministers arrive; one is late." },
      ],
    });
    await signInBrowser(browser.context, server, player);
    const page = await browser.newPage();
    await page.goto(`/play/${GAME}`);
    await expect.poll(() => replies(page).count()).toBe(2);
    const [first, latest] = [replies(page).first(), replies(page).last()];

    await button(first, "Good reply").click();
    await expect.poll(() => button(first, "Good reply").getAttribute("aria-pressed")).toBe("true");
    await expect.poll(() => storedRatings(server, player)).toEqual([{ exchange: 1, rating: "good", reason: null }]);

    // Bad reply asks what was wrong, with the focus on the first reason; Escape gives the focus back.
    await button(latest, "Bad reply").click();
    await expect.poll(() => button(latest, "Bad reply").getAttribute("aria-pressed")).toBe("true");
    await reasons(page).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe(BAD_REPLY_REASON_LABELS.repeats);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await reasons(page).waitFor({ state: "detached" });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Bad reply");

    // From the keyboard: reopen the list, move to "Wrong facts", choose it.
    await button(latest, "Say why this reply was bad").click();
    await reasons(page).waitFor();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await button(latest, `Why this reply was bad: ${BAD_REPLY_REASON_LABELS.wrong_facts}`).waitFor();
    await expect
      .poll(() => storedRatings(server, player))
      .toEqual([
        { exchange: 1, rating: "good", reason: null },
        { exchange: 2, rating: "bad", reason: "wrong_facts" },
      ]);

    await page.reload();
    await expect.poll(() => replies(page).count()).toBe(2);
    expect(await button(replies(page).first(), "Good reply").getAttribute("aria-pressed")).toBe("true");
    expect(await button(replies(page).last(), "Bad reply").getAttribute("aria-pressed")).toBe("true");
    expect(await button(replies(page).last(), "Good reply").getAttribute("aria-pressed")).toBe("false");

    // The pressed one pressed again clears the rating.
    await button(replies(page).first(), "Good reply").click();
    await expect.poll(() => button(replies(page).first(), "Good reply").getAttribute("aria-pressed")).toBe("false");
    await expect.poll(() => storedRatings(server, player)).toEqual([{ exchange: 2, rating: "bad", reason: "wrong_facts" }]);
    expect(page.errors).toEqual([]);
  });
});

describe("the demo's mail", () => {
  test("is where the sign-up toast says: the demo mailbox, whose link confirms the account", async ({ browser }) => {
    await browser.context.clearCookies();
    const email = uniqueEmail("toast");
    const page = await browser.newPage();
    await page.goto(`/auth?tab=signup`);
    await page.getByRole("textbox", { name: "Email" }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill("correct horse battery");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expectToast(page, "Welcome to Play as Empress!", "This demo sends no real email");

    await page.getByRole("link", { name: "demo mailbox" }).click();
    await page.getByRole("heading", { name: "Demo mailbox", level: 1 }).waitFor();
    const mail = page.getByRole("article", { name: "Confirm your email for Play as Empress" }).filter({ hasText: email });
    await mail.waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await mail.getByRole("link", { name: /verify-email/ }).click();
    await page.getByRole("heading", { name: "Email Confirmed" }).waitFor();
    expect(page.errors).toEqual([]);
  });
});
