import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export interface TestBrowser {
  context: BrowserContext;
  /** A new tab that records console errors and failed page scripts into `errors`. */
  newPage(options?: { width?: number; height?: number }): Promise<Page & { errors: string[] }>;
  /** Closes every open tab, so no test's live connections outlast it. */
  closePages(): Promise<void>;
  close(): Promise<void>;
}

const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Debian's Chromium, headless, with a fresh profile (never a downloaded browser); `baseURL` lets
 * its tabs go to a path (`page.goto("/games")`).
 */
export async function launchBrowser({ baseURL }: { baseURL?: string } = {}): Promise<TestBrowser> {
  const profile = mkdtempSync(path.join(tmpdir(), "pae-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    baseURL,
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: CHROMIUM_ARGS,
  });
  // The first, blank tab stays: a persistent browser with no tab left forgets its session cookies.
  const keeper = context.pages()[0] ?? (await context.newPage());
  return testBrowser(context, keeper, async () => {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  });
}

/** Debian's Chromium, headless, for several test files' browser contexts (browserContext). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/**
 * A browser of its own on a running Chromium: a new context, whose cookies, storage and cache no
 * other context sees (as a new profile would), and whose close() leaves Chromium running.
 */
export async function browserContext(browser: Browser, { baseURL }: { baseURL?: string } = {}): Promise<TestBrowser> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  return testBrowser(context, undefined, () => context.close());
}

function testBrowser(context: BrowserContext, keeper: Page | undefined, close: () => Promise<void>): TestBrowser {
  return {
    context,
    async newPage({ width = 1280, height = 800 } = {}) {
      const page = recordErrors(await context.newPage());
      await page.setViewportSize({ width, height });
      return page;
    },
    async closePages() {
      await Promise.all(
        context
          .pages()
          .filter((page) => page !== keeper)
          .map((page) => page.close()),
      );
    },
    close,
  };
}

/** Collects the page's console errors and failed scripts into `errors` (for tabs a page opened, too). */
export function recordErrors(page: Page): Page & { errors: string[] } {
  const recorded = Object.assign(page, { errors: [] as string[] });
  page.on("console", (message) => {
    if (message.type() === "error") recorded.errors.push(message.text());
  });
  page.on("pageerror", (error) => recorded.errors.push(error.message));
  return recorded;
}

/** Serious and critical accessibility violations on the page (axe-core). */
export async function seriousAccessibilityViolations(page: Page) {
  // Colours are judged at rest: a toast still fading in has, for a moment, a contrast of its own.
  // Endless animations (a spinner, a pulse) never settle and are not waited for.
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== "running" || animation.effect?.getTiming().iterations === Infinity),
  );
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`);
}

/**
 * Waits for a toast titled exactly `title` that says `description`: an earlier toast with the same
 * title may still be showing.
 */
export async function expectToast(page: Page, title: string, description?: string) {
  const titled = page.locator("[data-sonner-toast]").filter({ has: page.getByText(title, { exact: true }) });
  await (description ? titled.filter({ hasText: description }) : titled).first().waitFor();
}
