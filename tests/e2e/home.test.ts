import { afterAll, beforeAll, expect, it } from "vitest";
import { launchBrowser, seriousAccessibilityViolations, type TestBrowser } from "#tests/helpers/browser.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";

let server: TestServer;
let browser: TestBrowser;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser.close();
  await server.close();
});

it("loads the home page in Chromium with the hero and no console errors", async () => {
  const page = await browser.newPage();
  await page.goto(server.url);
  await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Play as Empress");
  await page.waitForLoadState("networkidle");
  expect(page.errors).toEqual([]);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});
