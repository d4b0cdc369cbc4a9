import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { games } from "#app/db/schema.ts";
import { ADMIN_TEXTS } from "#app/lib/admin-texts.ts";
import { expectToast } from "#tests/helpers/admin-panel.ts";
import { seriousAccessibilityViolations } from "#tests/helpers/browser.ts";
import { browserTest as test } from "#tests/helpers/fixtures.ts";

/**
 * A game's model and context budget in the game editor (issue 34, docs/decisions/060): chosen by
 * their accessible names, with the estimated cost of an average turn from the price table and the
 * game's recent turns, and a sentence when there is no price or no history.
 */

const SHOTS = path.resolve(import.meta.dirname, "../../test-results/screenshots/admin");
const GAME = "empress-simulator";

test.beforeAll(async ({ server, login }) => {
  await login({ email: "game-models-admin@example.com", name: "Gm Admin", admin: true });
  const run = (query: string) => server.connection.db.execute(sql.raw(query));
  // The offline storyteller is the site's model in the browser tests; a larger one is priced beside it.
  await run(`insert into model_prices (provider, model, input_per_million, cached_input_per_million, output_per_million)
    values ('offline', 'offline-storyteller', 1, 0.1, 4), ('offline', 'storyteller-large', 3, 0.3, 15)`);
  // Ten turns of the game at the site's 8,000 tokens, their window full: 7,600 sent (3,000 cached), 400 written.
  await run(`insert into model_calls (kind, game_slug, provider, model, input_tokens, cached_input_tokens, output_tokens, estimated,
      total_ms, outcome, cost, currency)
    select 'send', '${GAME}', 'offline', 'offline-storyteller', 7600, 3000, 400, false, 1500, 'ok', 0.0065, 'USD'
    from generate_series(1, 10)`);
  // And the story summary written meanwhile, its share of the budget (6,400) full: 200 written.
  await run(`insert into model_calls (kind, game_slug, provider, model, input_tokens, cached_input_tokens, output_tokens, estimated,
      total_ms, outcome, cost, currency)
    values ('summary', '${GAME}', 'offline', 'offline-storyteller', 6400, 0, 200, false, 900, 'ok', 0.0072, 'USD')`);
});

describe("a game's model and context budget", () => {
  test("the editor chooses them and says what an average turn costs", async ({ server, page, browser }) => {
    await page.goto(`${server.url}/admin?tab=games`);
    await page.getByRole("button", { name: "Edit Empress Simulator" }).click();
    const model = page.getByRole("combobox", { name: "Model" });
    const budget = page.getByRole("textbox", { name: "Context budget (tokens)" });
    // (4,600 × 1 + 3,000 × 0.1 + 400 × 4) millionths of a dollar a turn, and a tenth of the
    // summary's (6,400 × 1 + 200 × 4).
    await page
      .getByText(
        "Estimated cost of an average turn at 8,000 tokens: $0.0072 (about 8,240 input and 420 output tokens, from the last 10 turns and their share of 1 story summary).",
      )
      .waitFor();
    expect(await model.textContent()).toBe("Site default (offline-storyteller)");

    await model.click();
    await page.getByRole("option", { name: "storyteller-large" }).click();
    await budget.fill("16000");
    // Full windows send twice as much, cached alike; the output stays: (9,200 × 3 + 6,000 × 0.3 + 400 × 15)
    // millionths, and a tenth of (12,800 × 3 + 200 × 15).
    await page.getByText("Estimated cost of an average turn at 16,000 tokens: $0.0395").waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByText("Estimated cost of an average turn").scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, "game-model-1280.png") });

    await budget.fill("500");
    await page.getByRole("button", { name: "Update Game" }).click();
    await page.getByText("The context budget is a whole number of tokens from 1,000 to 200,000, or empty for the site's.").waitFor();
    await budget.fill("16000");
    await page.getByRole("button", { name: "Update Game" }).click();
    await expectToast(page, ADMIN_TEXTS.gameUpdated);
    const [saved] = await server.connection.db
      .select({ model: games.model, contextTokens: games.contextTokens })
      .from(games)
      .where(eq(games.slug, GAME));
    expect(saved).toEqual({ model: "storyteller-large", contextTokens: 16_000 });

    // A game with no turns yet, and a model with no price.
    await page.getByRole("button", { name: "Edit Mary Sue Campus" }).click();
    await page.getByText("This game has no recorded turns yet, so a turn's cost cannot be estimated.").waitFor();
    await server.connection.db.execute(sql`delete from model_prices where model = 'offline-storyteller'`);
    const phone = await browser.newPage({ width: 360, height: 780 });
    await phone.goto(`${server.url}/admin?tab=games`);
    await phone.getByRole("button", { name: "Edit Mary Sue Campus" }).click();
    const note = phone.getByText("offline-storyteller has no price in the Models tab, so a turn's cost cannot be estimated.");
    await note.waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await note.scrollIntoViewIfNeeded();
    await phone.screenshot({ path: path.join(SHOTS, "game-model-360.png") });
    expect(page.errors).toEqual([]);
  });
});
