import path from "node:path";
import { sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { contactMessages } from "#app/db/schema.ts";
import { UNSAVED_CHANGES_TEXTS } from "#app/components/admin/unsaved-changes.tsx";
import { fillGameForm } from "#tests/helpers/admin-panel.ts";
import { seriousAccessibilityViolations } from "#tests/helpers/browser.ts";
import { browserTest as test } from "#tests/helpers/fixtures.ts";
import type { TestServer } from "#tests/helpers/server.ts";

/**
 * The admin overview in Chromium: its charts draw the server's figures, each with a table to open,
 * and the period switch reads them again; the players and inbox tabs; and the unsaved-changes
 * guard on an edited form (another tab, Cancel, closing the browser tab).
 */

const SHOTS = path.resolve(import.meta.dirname, "../../test-results/screenshots/admin");

/** 90 days of a small site: players joining, turns, payments (a few failed or waiting), a grant. */
async function seedQuarter(server: TestServer) {
  const run = (query: string) => server.connection.db.execute(sql.raw(query));
  const when = "date_trunc('day', now()) - interval '1 day' * floor(90 * power(random(), 1.4)) + interval '1 hour' * floor(random() * 24)";
  await run(`insert into "user" (id, name, email, email_verified, created_at, updated_at)
    select 'e2e-' || g, 'Player ' || g, 'player' || g || '@example.com', true, t, t
    from generate_series(1, 240) as g, lateral (select ${when} + g * interval '0 s' as t) as joined`);
  await run(`insert into stories (user_id, game_slug) select 'e2e-' || g, (array['empress-simulator', 'mary-sue-campus'])[1 + g % 2]
    from generate_series(1, 240) as g`);
  await run(`insert into game_messages (user_id, game_slug, story_id, exchange, role, content, created_at)
    select stories.user_id, stories.game_slug, stories.id, turn.n, 'user', 'I act.', ${when}
    from stories, lateral generate_series(1, 4 + (hashtext(stories.id::text) & 15)) as turn(n) where stories.user_id like 'e2e-%'`);
  await run(`insert into credit_ledger (user_id, delta, balance_after, reason, reference, created_at)
    select user_id, -1, 10, 'chat_message', 'turn:' || id, created_at from game_messages where user_id like 'e2e-%'`);
  await run(`insert into payments (user_id, provider, session_id, package_id, credits, amount_cents, status, created_at, completed_at)
    select 'e2e-' || (1 + g * 7 % 240), 'test', 'e2e-session-' || g, (array['starter', 'popular', 'premium'])[1 + g % 3],
      (array[100, 300, 700])[1 + g % 3], (array[499, 1299, 2499])[1 + g % 3],
      case when g % 12 = 0 then 'failed' when g % 12 = 1 then 'pending' else 'completed' end, t,
      case when g % 12 > 1 then t + interval '2 minutes' end
    from generate_series(1, 90) as g, lateral (select ${when} + g * interval '0 s' as t) as started`);
  // This file's payments only: files sharing the server have theirs in the ledger already.
  await run(`insert into credit_ledger (user_id, delta, balance_after, reason, reference, created_at)
    select user_id, credits, 100, 'purchase', session_id, completed_at from payments where status = 'completed' and session_id like 'e2e-session-%'`);
}

test.beforeAll(async ({ server, login }) => {
  await login({ email: "overview-admin@example.com", name: "Ada Admin", admin: true });
  await seedQuarter(server);
  await server.connection.db.insert(contactMessages).values([
    { name: "Grace", email: "grace@example.com", subject: "Lost my story", message: "Where did my story go? It was long." },
    { name: "Lin", email: "lin@example.com", subject: "Refund for a failed turn", message: "A reply stopped halfway and I lost a credit." },
  ]);
});

/** The whole page from its top, so the sticky site header sits where a visitor first sees it. */
async function fullPageShot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SHOTS, name), fullPage: true });
}

describe("the admin overview", () => {
  test("opens on charts of the server's figures, each with its table, for 7, 30 or 90 days", async ({ server, page }) => {
    await page.goto(`${server.url}/admin`);
    await page.getByRole("heading", { name: "Overview" }).waitFor();
    // Each chart draws once the browser has measured it: bars for days with players, an area for turns.
    await page.locator('[data-chart="players"] .recharts-bar-rectangle').first().waitFor();
    await page.locator('[data-chart="turns"] .recharts-area-area').waitFor();
    await page.locator('[data-chart="revenue"] .recharts-bar-rectangle').first().waitFor();
    expect(await page.locator('[data-chart="credits"] .recharts-bar-rectangle').count()).toBeGreaterThan(0);

    const turnsTable = page.getByRole("figure").filter({ hasText: "Turns per day" });
    await turnsTable.getByText("Show table").click();
    expect(await turnsTable.getByRole("table").getByRole("row").count()).toBe(31);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await fullPageShot(page, "overview-1280.png");
    // With the Admin link and the credits, the header still holds Sign Out on a 1280 px screen.
    const signOut = await page.getByRole("banner").getByRole("button", { name: "Sign Out" }).boundingBox();
    expect(signOut!.x + signOut!.width).toBeLessThanOrEqual(1280);

    await page.getByRole("navigation", { name: "Period" }).getByRole("link", { name: "7 days" }).click();
    await page.getByText(/^The last 7 days/).waitFor();
    expect(new URL(page.url()).search).toBe("?days=7");
    // The table stays open across the change of period.
    expect(await turnsTable.getByRole("table").getByRole("row").count()).toBe(8);
    const csv = await page.getByRole("link", { name: "Download turns per day as CSV" }).getAttribute("href");
    expect(csv).toBe("/api/admin/dashboard/export?dataset=turns&days=7");
    expect(page.errors).toEqual([]);
  });

  test("fits a phone", async ({ server, browser }) => {
    const page = await browser.newPage({ width: 360, height: 780 });
    await page.goto(`${server.url}/admin?days=90`);
    await page.locator('[data-chart="turns"] .recharts-area-area').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await fullPageShot(page, "overview-360.png");
  });

  test("lists players and opens one with their ledger, payments and stories", async ({ server, page }) => {
    await page.goto(`${server.url}/admin?tab=players`);
    await page.getByRole("searchbox", { name: "Email or name" }).fill("player7");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByText(/players? match/).waitFor();
    await page.getByRole("link").filter({ hasText: "player7@example.com" }).click();
    await page.getByRole("heading", { name: "Player 7", level: 3 }).waitFor();
    await page.getByRole("region", { name: "Ledger" }).getByRole("table").waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await fullPageShot(page, "players-1280.png");
  });

  test("shows the inbox with its filter and a reply in the thread", async ({ server, page }) => {
    await page.goto(`${server.url}/admin?tab=messages`);
    const message = page.getByRole("article", { name: "Lost my story" });
    await message.getByLabel("Reply to Grace").fill("Your story is safe: open My Stories from the menu.");
    await message.getByRole("button", { name: "Send reply" }).click();
    await message.getByRole("list", { name: "Replies" }).getByText("Your story is safe").waitFor();
    await message.getByText("Handled", { exact: true }).waitFor();
    await page.getByRole("navigation", { name: "Show messages" }).getByRole("link", { name: "Unhandled" }).click();
    await page.getByRole("article", { name: "Lost my story" }).waitFor({ state: "detached" });
    await page.getByRole("article", { name: "Refund for a failed turn" }).waitFor();
    await page.getByRole("navigation", { name: "Show messages" }).getByRole("link", { name: "All" }).click();
    await page.getByRole("article", { name: "Lost my story" }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await fullPageShot(page, "inbox-1280.png");
  });
});

describe("unsaved changes", () => {
  test("are asked about before another tab, Cancel or closing the browser tab throws them away", async ({ server, browser, page }) => {
    await page.goto(`${server.url}/admin?tab=games`);
    await page.getByRole("button", { name: "Add New Game" }).click();
    await fillGameForm(page, { title: "Half-Written Saga" });
    const question = page.getByRole("alertdialog", { name: UNSAVED_CHANGES_TEXTS.title });

    // Another tab of the panel: asked, and staying keeps the form as it was.
    await page.getByRole("tab", { name: "Overview" }).click();
    await question.waitFor();
    await page.screenshot({ path: path.join(SHOTS, "unsaved-changes-1280.png") });
    await question.getByRole("button", { name: UNSAVED_CHANGES_TEXTS.stay }).click();
    await question.waitFor({ state: "detached" });
    expect(await page.getByLabel("Title").inputValue()).toBe("Half-Written Saga");
    expect(new URL(page.url()).search).toBe("?tab=games");

    // Closing the browser tab: the browser's own question (beforeunload).
    const dialog = new Promise<string>((resolve) => page.once("dialog", (shown) => void shown.dismiss().then(() => resolve(shown.type()))));
    await page.close({ runBeforeUnload: true });
    expect(await dialog).toBe("beforeunload");

    // Cancel: asked, and discarding closes the form.
    const again = await browser.newPage();
    await again.goto(`${server.url}/admin?tab=games`);
    await again.getByRole("button", { name: "Add New Game" }).click();
    await fillGameForm(again, { title: "Another Draft" });
    await again.getByRole("button", { name: "Cancel" }).click();
    const asked = again.getByRole("alertdialog", { name: UNSAVED_CHANGES_TEXTS.title });
    await asked.getByRole("button", { name: UNSAVED_CHANGES_TEXTS.leave }).click();
    await again.getByRole("button", { name: "Add New Game" }).waitFor();

    // A form left as it was opened closes without a question.
    await again.getByRole("button", { name: "Add New Game" }).click();
    await again.getByRole("button", { name: "Cancel" }).click();
    await again.getByRole("button", { name: "Add New Game" }).waitFor();
    expect(await asked.count()).toBe(0);
  });
});
