import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { seriousAccessibilityViolations } from "#tests/helpers/browser.ts";
import { browserTest as test } from "#tests/helpers/fixtures.ts";
import { SUM_UP_GENERATED_MODEL_CALLS } from "#tests/helpers/model-spend.ts";

/**
 * Model spend in Chromium (issue 34): the overview's Model spend chart beside revenue, with its
 * table and the spend per game and per model; the Models tab's price table, set through its form.
 */

const SHOTS = path.resolve(import.meta.dirname, "../../test-results/screenshots/admin");

test.beforeAll(async ({ server, login }) => {
  await login({ email: "models-admin@example.com", name: "Mo Admin", admin: true });
  const run = (query: string) => server.connection.db.execute(sql.raw(query));
  const when = "date_trunc('day', now()) - interval '1 day' * floor(30 * random()) + interval '1 hour' * floor(random() * 24)";
  await run(`insert into model_calls (kind, game_slug, provider, model, input_tokens, cached_input_tokens, output_tokens, estimated,
      total_ms, outcome, cost, currency, created_at)
    select (array['send', 'send', 'send', 'retry', 'summary', 'send', 'advisory'])[1 + g % 7], (array['empress-simulator', 'mary-sue-campus'])[1 + g % 2],
      'openai-compatible', (array['gpt-story-mini', 'gpt-story-large'])[1 + g % 2], 6000, 3000 + g % 2000, 400, false, 1500, 'ok',
      0.002 + (g % 7) * 0.001, 'USD', ${when}
    from generate_series(1, 600) as g`);
  await run(SUM_UP_GENERATED_MODEL_CALLS);
  await run(`insert into payments (user_id, provider, session_id, package_id, credits, amount_cents, status, created_at, completed_at)
    select (select id from "user" limit 1), 'test', 'models-session-' || g, 'starter', 100, 499, 'completed', t, t
    from generate_series(1, 20) as g, lateral (select ${when} + g * interval '0 s' as t) as paid`);
});

describe("model spend", () => {
  test("the overview draws spend beside revenue, with its table and the spend per game and per model", async ({ server, page, browser }) => {
    await page.goto(`${server.url}/admin`);
    const chart = page.locator('[data-chart="spend"]');
    await chart.locator(".recharts-bar-rectangle").first().waitFor();
    const figure = page.getByRole("figure").filter({ hasText: "Model spend per day" });
    await figure.getByText("Show table").click();
    expect(await figure.getByRole("table").getByRole("row").count()).toBe(31);
    const perGame = page.getByRole("region", { name: "Model spend per game" });
    await perGame.getByText("Empress Simulator — summaries").waitFor();
    // Worlds' advisory ratings (docs/decisions/066) on lines of their own.
    await perGame
      .getByText(/ — advisory ratings$/)
      .first()
      .waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page
      .getByRole("region", { name: "Model spend per game", exact: true })
      .screenshot({ path: path.join(SHOTS, "model-spend-per-game-1280.png") });
    await figure.scrollIntoViewIfNeeded();
    await page.screenshot({
      path: path.join(SHOTS, "model-spend-1280.png"),
      clip: { x: 0, y: (await figure.boundingBox())!.y - 40, width: 1280, height: 900 },
    });

    const phone = await browser.newPage({ width: 360, height: 780 });
    await phone.goto(`${server.url}/admin`);
    const phoneFigure = phone.getByRole("figure").filter({ hasText: "Model spend per day" });
    await phone.locator('[data-chart="spend"] .recharts-bar-rectangle').first().waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await phoneFigure.screenshot({ path: path.join(SHOTS, "model-spend-360.png") });
    await phone
      .getByRole("region", { name: "Model spend per game", exact: true })
      .screenshot({ path: path.join(SHOTS, "model-spend-per-game-360.png") });
    expect(page.errors).toEqual([]);
  });

  test("the Models tab sets a price, and says what is wrong with a bad one", async ({ server, page }) => {
    await page.goto(`${server.url}/admin?tab=models`);
    await page.getByRole("heading", { name: "Models", level: 2 }).waitFor();
    await page.getByLabel("Model id").fill("gpt-story-mini");
    await page.getByLabel(/^Input per million tokens/).fill("-2");
    await page.getByLabel(/^Output per million tokens/).fill("8");
    await page.getByRole("button", { name: "Save price" }).click();
    await page.getByRole("alert").filter({ hasText: "The input price cannot be negative." }).waitFor();

    await page.getByLabel(/^Input per million tokens/).fill("2");
    await page.getByLabel("Cached input per million tokens").fill("0.2");
    await page.getByRole("button", { name: "Save price" }).click();
    await page.getByText("openai-compatible · input 2 USD · cached 0.2 USD · cache write as input · output 8 USD").waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SHOTS, "models-1280.png"), fullPage: true });
    // The refused price is the one failed request the browser reports.
    expect(page.errors).toEqual([expect.stringContaining("status of 400")]);
  });
});
