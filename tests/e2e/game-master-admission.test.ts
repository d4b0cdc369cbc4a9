import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { PLAY_TOASTS } from "#app/lib/play-texts.ts";
import { signInBrowser, signUp } from "#tests/helpers/accounts.ts";
import { expectToast } from "#tests/helpers/browser.ts";
import { browserTest as test } from "#tests/helpers/fixtures.ts";
import { balanceAndLedger, postChat, readTurn } from "#tests/helpers/game-chat.ts";
import { beginStory } from "#tests/helpers/stories.ts";

/**
 * Admission to the Game Master as a player meets it: with every place taken by another player's reply,
 * a message is refused at once; the play screen says the Game Master is busy, keeps the message
 * in the box, and spends nothing. Once the other reply ends, the same message goes through.
 */
const GAME = "empress-simulator";

// One place, and a reply slow enough (~200 words) to hold it while the browser sends.
test.override("serverEnv", { GAME_MASTER_MAX_STREAMS: "1", AI_OFFLINE_WORD_DELAY_MS: "25" });

const input = (page: Page) => page.getByLabel("Your action or response");

describe("admission to the Game Master on the play screen", () => {
  test("says the Game Master is busy, keeps the message and its credit, and sends it once a place is free", async ({ server, browser }) => {
    const other = await signUp(server);
    await beginStory(server, other, GAME);
    const account = await signUp(server);
    await beginStory(server, account, GAME);
    await signInBrowser(browser.context, server, account);
    const page = await browser.newPage();
    await page.goto(`/play/${GAME}`);
    await page.getByRole("log").waitFor();

    const holding = await postChat(server, other, { message: "I walk the palace gardens at dawn.", game_slug: GAME });
    expect(holding.status).toBe(200);
    await input(page).fill("I summon the Grand Chancellor.");
    await input(page).press("Enter");
    await expectToast(page, PLAY_TOASTS.gameMasterBusy.title, PLAY_TOASTS.gameMasterBusy.description);
    expect(await input(page).inputValue()).toBe("I summon the Grand Chancellor.");
    expect(await balanceAndLedger(account)).toEqual({ balance: 20, ledger: 20 });

    expect((await readTurn(holding)).done).toBe(true);
    await input(page).press("Enter");
    await page.getByRole("log").locator('li[data-role="user"]').filter({ hasText: "I summon the Grand Chancellor." }).waitFor();
    await page.getByRole("button", { name: "Retry", exact: true }).waitFor({ timeout: 30_000 });
    expect(await balanceAndLedger(account)).toEqual({ balance: 19, ledger: 19 });
  });
});
