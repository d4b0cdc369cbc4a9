import { describe, expect } from "vitest";
import { signUpToPlayPath } from "#app/lib/auth.ts";
import { seedStory } from "#tests/helpers/stories.ts";
import { PLAY_TEXTS, PLAY_TOASTS } from "#app/lib/play-texts.ts";
import { signUp, testClientAddress, uniqueEmail } from "#tests/helpers/accounts.ts";
import { expectToast, seriousAccessibilityViolations } from "#tests/helpers/browser.ts";
import { browserTest as test } from "#tests/helpers/fixtures.ts";
import { GAME, log, playerMessages, replies } from "#tests/helpers/play-screen.ts";
import type { Page } from "playwright-core";

const SCREENSHOTS = "test-results/play";
/** A reply's stream is a few kilobytes: at this rate it takes seconds to arrive. */
const SLOW_DOWNLOAD_BYTES_PER_SECOND = 2_000;

// A readable pace, so the reply is seen arriving word by word.
test.override("serverEnv", { AI_OFFLINE_WORD_DELAY_MS: "4" });

function balances(page: Page) {
  return page.getByTestId("credits-balance").allTextContents();
}

async function expectBalance(page: Page, credits: number) {
  await expect.poll(() => balances(page)).toEqual(expect.arrayContaining([`${credits} Credits`]));
  expect(new Set(await balances(page))).toEqual(new Set([`${credits} Credits`]));
}

const input = (page: Page) => page.getByPlaceholder(PLAY_TEXTS.inputPlaceholder);

async function waitForReplyWithChoices(page: Page) {
  await page.getByRole("list", { name: "Suggested actions" }).waitFor({ timeout: 30_000 });
}

/** How far (px) the story is scrolled up from its end. */
function distanceFromEnd(page: Page) {
  return log(page).evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight);
}

describe("playing a game", () => {
  test("sign up, 'Start Playing Now', two turns with the offline storyteller, kept across a reload, saved, then started over", async ({
    server,
    browser,
    page,
  }) => {
    const account = { email: uniqueEmail(), password: "correct horse battery" };
    await browser.context.clearCookies();
    await page.setExtraHTTPHeaders({ "X-Forwarded-For": testClientAddress() });
    await page.goto(`${server.url}/auth`);
    await page.getByRole("tab", { name: "Sign Up" }).click();
    await page.locator("#signup-email").fill(account.email);
    await page.locator("#signup-password").fill(account.password);
    await page.getByRole("button", { name: "Create Account" }).click();
    await page.waitForURL((url) => url.pathname !== "/auth");

    await page.goto(`${server.url}/game/${GAME}`);
    await page.getByRole("link", { name: "Start Playing Now" }).first().click();
    await page.waitForURL(`${server.url}/play/${GAME}`);

    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Empress Simulator");
    const welcome = replies(page).first();
    await expect
      .poll(() => welcome.textContent())
      .toContain("Welcome to Empress Simulator! Rule from behind the pearl curtain until the boy comes of age");
    expect(await welcome.textContent()).toContain("I am your AI Game Master. Are you ready to begin your adventure?");
    expect(await page.getByText(`Playing as: ${account.email}`).count()).toBe(1);
    expect(await page.getByText(PLAY_TEXTS.offlineBadge).count()).toBe(1);
    expect(await page.getByRole("link", { name: "Back to Games" }).getAttribute("href")).toBe("/games");
    expect(await page.getByRole("button", { name: "Save Chat" }).isDisabled()).toBe(true);
    await expectBalance(page, 20);
    await page.screenshot({ path: `${SCREENSHOTS}/welcome-1280.png` });

    // Turn 1: typed, sent with Enter. Shift+Enter only adds a line.
    await input(page).fill("I am ready.");
    await input(page).press("Shift+Enter");
    expect(await input(page).inputValue()).toBe("I am ready.\n");
    expect(await playerMessages(page).count()).toBe(0);
    await input(page).press("Enter");
    expect(await input(page).inputValue()).toBe("");
    await expect.poll(() => playerMessages(page).first().textContent()).toContain("I am ready.");
    await waitForReplyWithChoices(page);
    const firstReply = (await replies(page).last().textContent()) ?? "";
    expect(firstReply).toContain("The Jingyuan Emperor is dead at thirty-four");
    // The opening scene is free.
    await expectBalance(page, 20);

    // Turn 2: a suggested choice is sent as soon as it is picked (docs/decisions/048). (Once the
    // reply is done: its controls are back.)
    await page.getByRole("button", { name: "Retry", exact: true }).waitFor();
    const choice = page.getByRole("list", { name: "Suggested actions" }).getByRole("button").first();
    const choiceText = ((await choice.textContent()) ?? "").replace(/^1/, "");
    const turnRequest = page.waitForRequest((request) => request.url().endsWith("/api/game-chat"));
    await choice.click();
    // The server owns the story: however long it is, the page sends the new message alone.
    expect(JSON.parse((await turnRequest).postData() ?? "")).toEqual({
      message: choiceText,
      game_slug: GAME,
      story_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    await expect.poll(() => playerMessages(page).count()).toBe(2);
    await waitForReplyWithChoices(page);
    await expectBalance(page, 19);
    await page.screenshot({ path: `${SCREENSHOTS}/story-1280.png` });

    // Both exchanges are still there after a reload; the welcome is not.
    await page.reload();
    await expect
      .poll(() => playerMessages(page).allTextContents())
      .toEqual([expect.stringContaining("I am ready."), expect.stringContaining(choiceText)]);
    expect(await replies(page).count()).toBe(2);
    expect(await log(page).textContent()).not.toContain("Are you ready to begin your adventure?");
    await expectBalance(page, 19);

    // Save Chat.
    await page.getByRole("button", { name: "Save Chat" }).click();
    await page.getByText(PLAY_TOASTS.saved.title).waitFor();
    await page.getByText(PLAY_TOASTS.saved.description).waitFor();

    // Start Over: confirmed, the story is gone, the welcome is back, and stays after a reload.
    await page.getByRole("button", { name: "Start Over" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Start Over" }).click();
    await page.getByText(PLAY_TOASTS.restarted.title).waitFor();
    await expect.poll(() => playerMessages(page).count()).toBe(0);
    expect(await replies(page).count()).toBe(1);
    expect(await replies(page).first().textContent()).toContain("Are you ready to begin your adventure?");
    await page.reload();
    await expect.poll(() => replies(page).count()).toBe(1);
    expect(await playerMessages(page).count()).toBe(0);

    expect(page.errors).toEqual([]);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });

  test("shows 'The Game Master is thinking...' until the first words arrive, with sending blocked", async ({ server, page, login }) => {
    await login();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/game-chat", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${server.url}/play/${GAME}`);
    await input(page).fill("I look around the hall.");
    await input(page).press("Enter");
    await page.getByText(PLAY_TEXTS.thinking).waitFor();
    const send = page.getByRole("button", { name: "Send message" });
    await input(page).fill("A second message while waiting");
    expect(await send.isDisabled()).toBe(true);
    await input(page).press("Enter");
    expect(await playerMessages(page).count()).toBe(1);
    release();
    await waitForReplyWithChoices(page);
    expect(await page.getByText(PLAY_TEXTS.thinking).count()).toBe(0);
    expect(await send.isDisabled()).toBe(false);
    expect(page.errors).toEqual([]);
  });

  test("a 402 answer: the Insufficient Credits toast with a link to /credits, and no error message in the chat", async ({
    server,
    page,
    login,
  }) => {
    await login();
    await page.route("**/api/game-chat", (route) =>
      route.fulfill({
        status: 402,
        contentType: "application/json",
        body: JSON.stringify({ error: PLAY_TOASTS.insufficientCredits.description, code: "insufficient_credits" }),
      }),
    );
    await page.goto(`${server.url}/play/${GAME}`);
    await input(page).fill("I summon the ministers.");
    await input(page).press("Enter");
    await page.getByText(PLAY_TOASTS.insufficientCredits.title, { exact: true }).waitFor();
    await page.getByText(PLAY_TOASTS.insufficientCredits.description).waitFor();
    expect(await page.getByRole("link", { name: "Buy credits" }).getAttribute("href")).toBe(
      `/credits?returnTo=${encodeURIComponent(`/play/${GAME}`)}`,
    );
    expect(await playerMessages(page).count()).toBe(0);
    expect(await replies(page).count()).toBe(1); // the welcome only
    expect(await log(page).textContent()).not.toContain(PLAY_TEXTS.errorReply);
    expect(await input(page).inputValue()).toBe("I summon the ministers.");
    await page.screenshot({ path: `${SCREENSHOTS}/insufficient-credits-1280.png` });
  });

  test("when a turn fails: the Error toast and the apology, and no credit is spent", async ({ server, page, login }) => {
    await login();
    await page.route("**/api/game-chat", (route) => route.fulfill({ status: 500, contentType: "application/json", body: '{"error":"boom"}' }));
    await page.goto(`${server.url}/play/${GAME}`);
    await input(page).fill("I open the sealed letter.");
    await input(page).press("Enter");
    await page.getByText(PLAY_TOASTS.sendFailed.description).waitFor();
    await expect.poll(() => replies(page).last().textContent()).toContain(PLAY_TEXTS.errorReply);
    await expectBalance(page, 20);
  });

  test("Save Chat says 'Saving...' and is disabled while saving; a failed save shows SPEC's error and keeps the story", async ({
    server,
    page,
    login,
  }) => {
    await login();
    await page.goto(`${server.url}/play/${GAME}`);
    await input(page).fill("I receive the ministers.");
    await input(page).press("Enter");
    await waitForReplyWithChoices(page);

    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === "/api/game-messages",
      async (route) => {
        if (route.request().method() !== "PUT") return route.continue();
        await held;
        await route.fulfill({ status: 500, contentType: "application/json", body: '{"error":"The database is not answering."}' });
      },
    );
    await page.getByRole("button", { name: "Save Chat" }).click();
    const saving = page.getByRole("button", { name: PLAY_TEXTS.saving });
    await saving.waitFor();
    expect(await saving.isDisabled()).toBe(true);
    release();

    await expectToast(page, PLAY_TOASTS.saveFailed.title, PLAY_TOASTS.saveFailed.description);
    await expect.poll(() => page.getByRole("button", { name: "Save Chat" }).isDisabled()).toBe(false);
    expect(await playerMessages(page).allTextContents()).toEqual([expect.stringContaining("I receive the ministers.")]);
    expect(await replies(page).count()).toBe(1);
  });

  test("a reply stream that yields no text: SPEC's apology, and no error toast", async ({ server, page, login }) => {
    await login();
    await page.route("**/api/game-chat", (route) => route.fulfill({ status: 200, contentType: "text/event-stream", body: "data: [DONE]\n\n" }));
    await page.goto(`${server.url}/play/${GAME}`);
    await input(page).fill("I wait in silence.");
    await input(page).press("Enter");
    await expect.poll(() => replies(page).last().textContent()).toContain(PLAY_TEXTS.emptyReply);
    expect(await page.locator("[data-sonner-toast]").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Send message" }).isDisabled()).toBe(true); // the input is empty
    await input(page).fill("Again.");
    expect(await page.getByRole("button", { name: "Send message" }).isDisabled()).toBe(false);
  });

  test("follows the reply as it streams, but not a player who scrolled up to reread", async ({ server, page, login }) => {
    const account = await login();
    // A story long enough to scroll.
    const paragraph = "The court waits on your word while the lanterns burn low in the Hall of Supreme Harmony. ".repeat(6);
    await seedStory(server.connection.db, {
      userId: account.userId,
      gameSlug: GAME,
      exchanges: Array.from({ length: 8 }, (_, index) => ({ message: `Move ${index + 1}: I consider my options.`, reply: paragraph })),
    });
    await page.goto(`${server.url}/play/${GAME}`);
    await expect.poll(() => playerMessages(page).count()).toBe(8);
    await expect.poll(() => distanceFromEnd(page)).toBeLessThan(2);

    // Reading along: the view keeps up with the reply until its start reaches the top, and rests there.
    await input(page).fill("I read the memorial aloud.");
    await input(page).press("Enter");
    await waitForReplyWithChoices(page);
    const replyTop = () =>
      log(page).evaluate((story) => {
        const reply = [...story.querySelectorAll('li[data-role="assistant"]')].at(-1);
        return (reply?.getBoundingClientRect().top ?? NaN) - story.getBoundingClientRect().top;
      });
    await expect.poll(replyTop).toBeGreaterThanOrEqual(0);
    expect(await replyTop()).toBeLessThan(40);

    // Scrolling up with the wheel while the next reply streams: the view stays where the player put it.
    // The reply arrives over a slow connection, so it is still arriving when the wheel turns however
    // busy the machine is.
    const network = await page.context().newCDPSession(page);
    await network.send("Network.enable");
    await network.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: SLOW_DOWNLOAD_BYTES_PER_SECOND,
      uploadThroughput: -1,
    });
    await input(page).fill("I summon the chief eunuch.");
    await input(page).press("Enter");
    await page.waitForFunction(
      () => {
        const streaming = document.querySelector('[role="log"] li[data-role="assistant"][aria-busy="true"]');
        return streaming !== null && streaming.querySelector('[role="status"]') === null;
      },
      undefined,
      { polling: "raf" },
    );
    await log(page).hover();
    await page.mouse.wheel(0, -2000);
    const streamingAfterScroll = await page.locator('[role="log"] li[aria-busy="true"]').count();
    await waitForReplyWithChoices(page);
    await network.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    // The reply was still arriving after the player scrolled up, and the view did not follow it.
    expect(streamingAfterScroll).toBe(1);
    expect(await distanceFromEnd(page)).toBeGreaterThan(1000);
    await page.getByRole("button", { name: "Latest" }).waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}/reading-back-1280.png` });

    // "Latest" brings the player back to the end, and the view follows again.
    await page.getByRole("button", { name: "Latest" }).click();
    await expect.poll(() => distanceFromEnd(page)).toBeLessThan(2);
    await expect.poll(() => page.getByRole("button", { name: "Latest" }).count()).toBe(0);
    expect(page.errors).toEqual([]);
  });

  test("works one-handed at 375 px: nothing overflows, the composer and balance stay in view", async ({ server, browser, login }) => {
    await login();
    const page = await browser.newPage({ width: 375, height: 740 });
    await page.goto(`${server.url}/play/${GAME}`);
    await input(page).fill("I take the emperor's hand.");
    await page.getByRole("button", { name: "Send message" }).click();
    await waitForReplyWithChoices(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // One balance on a phone: the navigation bar's.
    const balance = page.locator('[data-testid="credits-balance"]:visible');
    expect(await balance.count()).toBe(1);
    for (const element of [input(page), page.getByRole("button", { name: "Send message" }), balance]) {
      expect(await element.isVisible()).toBe(true);
      const box = await element.boundingBox();
      expect(box && box.y + box.height).toBeLessThanOrEqual(740);
    }
    await page.screenshot({ path: `${SCREENSHOTS}/story-375.png` });
    expect(page.errors).toEqual([]);
  });
});

describe("arriving at the play screen", () => {
  test("signed out: the Sign Up form without an error, and a sign-in from there returns to the game", async ({ server, browser, page }) => {
    const account = await signUp(server);
    await browser.context.clearCookies();
    await page.goto(`${server.url}/play/${GAME}`);
    expect(page.url()).toBe(`${server.url}${signUpToPlayPath(GAME)}`);
    expect(await page.getByRole("tab", { name: "Sign Up" }).getAttribute("aria-selected")).toBe("true");
    expect(await page.getByText(PLAY_TOASTS.authenticationRequired.title).count()).toBe(0);

    await page.getByRole("tab", { name: "Sign In" }).click();
    await page.locator("#signin-email").fill(account.email);
    await page.locator("#signin-password").fill(account.password);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.waitForURL(`${server.url}/play/${GAME}`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Empress Simulator");
    await page.getByText(`Playing as: ${account.email}`).waitFor();
  });

  test("an unknown game: 'Game not found', then the games list", async ({ server, page, login }) => {
    await login();
    await page.goto(`${server.url}/play/no-such-game`);
    await page.getByText(PLAY_TOASTS.gameNotFound.title).waitFor();
    await page.getByText(PLAY_TOASTS.gameNotFound.description).waitFor();
    await page.waitForURL(`${server.url}/games`);
  });
});
