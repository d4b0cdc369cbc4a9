import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect } from "vitest";
import { games } from "#app/db/schema.ts";
import { ADMIN_TEXTS } from "#app/lib/admin-texts.ts";
import { expectToast, openAdminTab } from "#tests/helpers/admin-panel.ts";
import { seriousAccessibilityViolations } from "#tests/helpers/browser.ts";
import { browserTest } from "#tests/helpers/fixtures.ts";
import { beginStory } from "#tests/helpers/stories.ts";

/** Cover art as an admin and a visitor see it: upload in the game editor, the cover on the card. */

const PROJECT = path.resolve(import.meta.dirname, "../..");
const SHOTS = path.join(PROJECT, "test-results", "screenshots", "covers");

/** A painted-looking night scene (a picture, not a flat colour: it must survive re-encoding recognisably). */
async function scene() {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900">
    <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#0b1030"/><stop offset="0.7" stop-color="#5a2a5e"/><stop offset="1" stop-color="#d88a4e"/></linearGradient></defs>
    <rect width="1600" height="900" fill="url(#sky)"/>
    <circle cx="1210" cy="220" r="90" fill="#f4ede1" opacity="0.9"/>
    <path d="M0 700 L220 520 L400 640 L620 430 L860 660 L1080 500 L1300 650 L1600 470 L1600 900 L0 900Z" fill="#1c1529"/>
    <path d="M560 760 h480 v-180 h-40 v-60 h-60 v-90 l-70 -80 l-70 80 v90 h-60 v60 h-40 v-60 h-60 v60 h-40z" fill="#120d1c"/>
    <rect x="780" y="640" width="40" height="70" fill="#d8ae5e"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

const test = browserTest
  /** The picture the admin uploads, as a file on disk. */
  .extend("upload", { scope: "file" }, async () => {
    mkdirSync(SHOTS, { recursive: true });
    const upload = path.join(SHOTS, "night-palace.jpg");
    writeFileSync(upload, await scene());
    return upload;
  });

describe("cover art", () => {
  test("shows generated art on every card, with its size set and lazy below the first", async ({ server, browser }) => {
    const page = await browser.newPage({ width: 360, height: 780 });
    await page.goto(`${server.url}/games`);
    const covers = page.getByTestId("game-card").getByTestId("game-cover");
    expect(await covers.count()).toBeGreaterThanOrEqual(5);
    expect(await covers.first().getAttribute("loading")).toBe("eager");
    expect(await covers.nth(1).getAttribute("loading")).toBe("lazy");
    expect(await covers.first().getAttribute("width")).toBe("1200");
    await page.waitForFunction(() => {
      const image = document.querySelector<HTMLImageElement>('[data-testid="game-cover"]');
      return Boolean(image?.complete && image.naturalWidth > 0);
    });
    await page.screenshot({ path: path.join(SHOTS, "games-360.png"), fullPage: true });
    expect(page.errors).toEqual([]);
  });

  test("lets an admin upload a cover in the game editor, and the card shows it", async ({ server, browser, login, upload, page }) => {
    await login({ email: "cover-admin@example.com", admin: true });
    await page.goto(`${server.url}/admin`);
    await openAdminTab(page, "Games Management");
    await page.getByRole("button", { name: "Edit Celebrity Life" }).click();
    const field = page.getByRole("group", { name: "Cover art" });
    await field.locator('input[type="file"]').setInputFiles(upload);
    await expectToast(page, ADMIN_TEXTS.coverUploaded);
    const [game] = await server.connection.db.select({ coverHash: games.coverHash }).from(games).where(eq(games.slug, "celebrity-life"));
    expect(game?.coverHash).toMatch(/^[0-9a-f]{32}$/);
    await expect.poll(() => field.locator('source[type="image/avif"]').getAttribute("srcset")).toContain(`/covers/${game!.coverHash}-400.avif`);
    await field.getByRole("button", { name: "Remove cover" }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, "editor.png") });

    // Signed out, as a visitor: the catalogue's card for the game shows the upload.
    await browser.context.clearCookies();
    const catalogue = await browser.newPage();
    await catalogue.goto(`${server.url}/games`);
    const card = catalogue.getByTestId("game-card").filter({ hasText: "Celebrity Life" });
    expect(await card.locator('source[type="image/avif"]').getAttribute("srcset")).toContain(`/covers/${game!.coverHash}-400.avif 400w`);
    const cover = card.getByTestId("game-cover");
    await cover.scrollIntoViewIfNeeded();
    await expect
      .poll(() => cover.evaluate((image: HTMLImageElement) => (image.complete ? image.currentSrc : "")))
      .toMatch(new RegExp(`/covers/${game!.coverHash}-(400|800|1200)\\.avif$`));
    await catalogue.evaluate(() => window.scrollTo(0, 0));
    await catalogue.screenshot({ path: path.join(SHOTS, "games-1280.png"), fullPage: true });
    expect(catalogue.errors).toEqual([]);
  });

  test("leads the game page with its cover and shows covers in My Stories", async ({ server, browser, login, page }) => {
    await page.goto(`${server.url}/game/celebrity-life`);
    const hero = page.getByTestId("game-cover").first();
    expect(await hero.getAttribute("fetchpriority")).toBe("high");
    expect(await hero.getAttribute("loading")).toBe("eager");
    await page.screenshot({ path: path.join(SHOTS, "game-1280.png") });
    const phone = await browser.newPage({ width: 360, height: 780 });
    await phone.goto(`${server.url}/game/empress-simulator`);
    await phone.screenshot({ path: path.join(SHOTS, "game-360.png") });

    const player = await login();
    await beginStory(server, player, "celebrity-life");
    await beginStory(server, player, "empress-simulator");
    const library = await browser.newPage();
    await library.goto(`${server.url}/stories`);
    expect(await library.getByTestId("game-cover").count()).toBe(2);
    expect(await seriousAccessibilityViolations(library)).toEqual([]);
    await library.screenshot({ path: path.join(SHOTS, "stories-1280.png"), fullPage: true });
    const libraryPhone = await browser.newPage({ width: 360, height: 780 });
    await libraryPhone.goto(`${server.url}/stories`);
    await libraryPhone.screenshot({ path: path.join(SHOTS, "stories-360.png"), fullPage: true });
    await browser.context.clearCookies();
  });
});
