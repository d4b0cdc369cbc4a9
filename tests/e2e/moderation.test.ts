import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { makeAdmin, makeModerator, signInBrowser, signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { seriousAccessibilityViolations } from "#tests/helpers/browser.ts";
import { browserTest } from "#tests/helpers/fixtures.ts";
import { createWorld, publishWorld } from "#tests/helpers/worlds.ts";

/** Issue 36's moderation in Chromium: a report, a moderator hides the world citing a rule, the creator appeals, another moderator decides. */

const SHOTS = path.resolve(import.meta.dirname, "../../test-results/screenshots/moderation");
const TITLE = "The Whispering Court";
mkdirSync(SHOTS, { recursive: true });

const test = browserTest
  /** A creator's public world, a player, and two moderators. */
  .extend("cast", { scope: "file" }, async ({ server }) => {
    const [creator, player, moderator, otherModerator] = await Promise.all([
      signUp(server, { name: "Cora Creator" }),
      signUp(server, { name: "Pia Player" }),
      signUp(server, { name: "Mona Moderator" }),
      signUp(server, { name: "Otto Moderator" }),
    ]);
    await makeModerator(server, moderator);
    await makeModerator(server, otherModerator);
    // Creating and publishing are not under test here (tests/e2e/world-community.test.ts drives them).
    const world = await createWorld(server, creator, { title: TITLE });
    expect((await publishWorld(server, creator, world.id, "public")).status).toBe(302);
    return { creator, player, moderator, otherModerator, world };
  })
  /** A new tab at `address`, signed in as `account` alone. */
  .extend("as", { scope: "file" }, ({ server, browser }) => async (account: TestAccount, address: string, width = 1280) => {
    await browser.closePages();
    await browser.context.clearCookies();
    await signInBrowser(browser.context, server, account);
    const page = await browser.newPage({ width, height: 900 });
    await page.goto(address);
    return page;
  });
test.override("serverEnv", { AI_OFFLINE_WORD_DELAY_MS: "0" });

async function looked(page: Page, name: string) {
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

describe("moderating a world", () => {
  test("goes from a report to a hidden world, the creator's appeal and another moderator's decision", async ({ as, cast }) => {
    const { creator, player, moderator, otherModerator, world } = cast;
    const reporting = await as(player, `/game/${world.slug}`, 360);
    await reporting.getByText("Report this world").click();
    await reporting.getByLabel("Reason").selectOption("Hate or harassment");
    await reporting.getByLabel("What did you see?").fill("The court mocks a real singer by name.");
    await reporting.getByRole("button", { name: "Send report" }).click();
    await reporting.getByRole("status").getByText("Thank you: a moderator will read your report.").waitFor();
    await looked(reporting, "report-360");

    for (const width of [360, 1280]) {
      const queue = await as(moderator, "/moderation", width);
      const reported = queue.getByRole("region", { name: "Reported worlds" });
      await reported.getByRole("link", { name: TITLE }).waitFor();
      await reported.getByText("The court mocks a real singer by name.").waitFor();
      await looked(queue, `queue-${width}`);
    }
    const queue = await as(moderator, "/moderation");
    const form = queue.getByRole("form", { name: `Act on ${TITLE}` });
    await form.getByLabel("Rule broken").selectOption("2");
    await form.getByLabel("Reason the creator will read").fill("It mocks a real singer by name.");
    await form.getByRole("button", { name: "Hide" }).click();
    await queue.getByRole("status").getByText("Done: the action is recorded").waitFor();
    const log = queue.getByRole("region", { name: "Audit log" });
    await log.getByRole("cell", { name: "Mona Moderator" }).waitFor();
    await log.getByRole("link", { name: "Rule 2 of version 1" }).waitFor();
    await looked(queue, "audit-log-1280");

    const own = await as(creator, `/create?world=${world.id}`, 360);
    const notice = own.getByRole("region", { name: "Moderation" });
    await notice.getByText("A moderator hid this world").waitFor();
    await notice.getByText("It mocks a real singer by name.").waitFor();
    await notice.getByRole("link", { name: "Rule 2 of version 1" }).waitFor();
    await notice.screenshot({ path: path.join(SHOTS, "notice-360.png") });
    await notice.getByLabel("Your appeal").fill("The singer is invented; the name is a coincidence.");
    await notice.getByRole("button", { name: "Send appeal" }).click();
    await notice.getByText("You appealed this decision.").waitFor();
    await looked(own, "appeal-360");

    const same = await as(moderator, "/moderation");
    await same.getByRole("region", { name: "Appeals" }).getByText("You took this decision, so another moderator decides its appeal.").waitFor();
    expect(await same.getByRole("form", { name: `Decide the appeal of ${TITLE}` }).count()).toBe(0);

    const other = await as(otherModerator, "/moderation", 360);
    const decide = other.getByRole("form", { name: `Decide the appeal of ${TITLE}` });
    await decide.getByLabel("Rule broken").selectOption("2");
    await decide.getByLabel("Reason the creator will read").fill("The name is invented: restored.");
    await looked(other, "decide-360");
    await decide.getByRole("button", { name: "Overturn" }).click();
    await other.getByRole("status").getByText("The appeal is decided").waitFor();

    const restored = await as(creator, `/game/${world.slug}`, 1280);
    await restored.getByRole("region", { name: "Moderation" }).getByText("the decision was overturned").waitFor();
    await looked(restored, "restored-1280");

    for (const width of [360, 1280]) {
      const rules = await as(player, "/rules", width);
      await rules.getByRole("heading", { name: "Version 1" }).waitFor();
      await rules.getByRole("navigation", { name: "Versions of the rules" }).waitFor();
      await looked(rules, `rules-${width}`);
      expect(rules.errors).toEqual([]);
    }
  });

  test("lets an admin block a term from the queue's page, which the admin panel links to", async ({ server, as }) => {
    const admin = await signUp(server, { name: "Ada Admin" });
    await makeAdmin(server, admin);
    const phone = await as(admin, "/admin", 375);
    await phone.getByRole("link", { name: "Blocked terms" }).waitFor();
    await phone.screenshot({ path: path.join(SHOTS, "admin-links-375.png") });
    const page = await as(admin, "/admin");
    await page.getByRole("link", { name: "Blocked terms" }).waitFor();
    await page.screenshot({ path: path.join(SHOTS, "admin-links-1280.png") });
    await page.getByRole("link", { name: "Blocked terms" }).click();
    await page.waitForURL(`${server.url}/moderation#blocked-terms`);
    const terms = page.getByRole("region", { name: "Blocked terms" });
    await terms.getByLabel("Term to block").fill("Gorgonzola");
    await terms.getByRole("button", { name: "Block term" }).click();
    await page.getByRole("button", { name: "Unblock gorgonzola" }).waitFor();
    // The header's bar still fits beside an admin's extra links.
    const signOut = await page.getByRole("button", { name: "Sign Out" }).first().boundingBox();
    expect((signOut?.x ?? 0) + (signOut?.width ?? 0)).toBeLessThanOrEqual(1280);
    await looked(page, "blocked-terms-admin-1280");
    await page.getByRole("button", { name: "Unblock gorgonzola" }).click();
    await terms.getByText("No term is blocked.").waitFor();
  });

  test("refuses a player at /moderation", async ({ as, cast }) => {
    const page = await as(cast.player, "/moderation");
    expect(await page.getByRole("heading", { level: 1 }).first().textContent()).not.toBe("Moderation queue");
    expect(await page.getByRole("link", { name: "Moderation" }).count()).toBe(0);
  });
});
