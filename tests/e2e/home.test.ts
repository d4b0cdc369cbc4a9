import { expect } from "vitest";
import { seriousAccessibilityViolations } from "#tests/helpers/browser.ts";
import { browserTest as test } from "#tests/helpers/fixtures.ts";

test("loads the home page in Chromium with the hero and no console errors", async ({ server, page }) => {
  await page.goto(server.url);
  await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Play as Empress");
  await page.waitForLoadState("networkidle");
  expect(page.errors).toEqual([]);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});

test("downloads the toast code only with the first toast (docs/decisions/010)", async ({ server, page }) => {
  const scripts: Promise<string>[] = [];
  page.on("response", (response) => {
    if (response.url().endsWith(".js")) scripts.push(response.text());
  });
  const toastCodeLoaded = async () => (await Promise.all(scripts)).some((body) => body.includes("data-sonner-toaster"));

  await page.goto(`${server.url}/game/empress-simulator`);
  await page.waitForLoadState("networkidle");
  expect(await toastCodeLoaded()).toBe(false);

  await page.goto(`${server.url}/auth`);
  await page.waitForLoadState("networkidle");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await page.locator("[data-sonner-toast]").filter({ hasText: "Please fill in all fields" }).waitFor();
  expect(await toastCodeLoaded()).toBe(true);
  expect(page.errors).toEqual([]);
});
