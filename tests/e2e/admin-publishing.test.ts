import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { games } from "#app/db/schema.ts";
import { CONTENT_TYPES } from "#app/lib/constants.ts";
import {
  addContentInPanel,
  choose,
  createGameInPanel,
  createGuideInPanel,
  deleteGameInPanel,
  editGameInPanel,
  expectToast,
  openAdminTab,
  setContentPublishedInPanel,
} from "#tests/helpers/admin-panel.ts";
import { launchBrowser } from "#tests/helpers/browser.ts";
import { browserTest } from "#tests/helpers/fixtures.ts";

/**
 * What an admin changes in the panel reaches the public pages at once (docs/spec.md §4 cache refresh):
 * the panel drives the change through its real UI, the public pages are read as a visitor
 * reads them (server HTML, then a browser for the XSS checks).
 */

const test = browserTest
  .extend("admin", { scope: "file", auto: true }, ({ login }) => login({ admin: true }))
  /** A public page as a signed-out visitor's browser would receive it. */
  .extend("publicPage", { scope: "file" }, ({ server }) => async (pathname: string) => {
    const response = await server.fetch(pathname);
    return { status: response.status, location: response.headers.get("location"), html: await response.text() };
  })
  /** The admin API with the admin's session, for what the panel's UI is not under test for. */
  .extend("adminApi", { scope: "file" }, ({ server, admin }) => async (method: string, pathname: string, body: unknown) => {
    const response = await server.fetch(pathname, {
      method,
      headers: { Cookie: admin.cookie, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(response.status, `${method} ${pathname}`).toBeLessThan(300);
  });

describe("a game's life, from the panel to the public pages", () => {
  test("create → listed and has its page; edit → changed; content published → shown; unpublished → gone; deleted → gone everywhere", async ({
    server,
    publicPage,
    page,
  }) => {
    await page.goto(`${server.url}/admin?tab=games`);

    await createGameInPanel(page, {
      title: "Lantern Festival",
      slug: "lantern-festival",
      description: "Guide a river town through its festival night.",
      prompt: "You are the Game Master of the Lantern Festival.",
      tagline: "One night, ten thousand lights",
      difficulty: "Beginner",
    });
    expect((await publicPage("/games")).html).toContain("Lantern Festival");
    const detail = await publicPage("/game/lantern-festival");
    expect(detail.status).toBe(200);
    expect(detail.html).toContain("Lantern Festival");
    expect(detail.html).toContain("One night, ten thousand lights");

    await editGameInPanel(page, "Lantern Festival", { title: "Lantern Festival Nights", tagline: "Lights on the river" });
    expect((await publicPage("/games")).html).toContain("Lantern Festival Nights");
    const edited = await publicPage("/game/lantern-festival");
    expect(edited.html).toContain("Lantern Festival Nights");
    expect(edited.html).toContain("Lights on the river");
    expect(edited.html).not.toContain("One night, ten thousand lights");

    await addContentInPanel(page, {
      game: "Lantern Festival Nights",
      type: "Story Background",
      title: "Paper Lanterns",
      content: "The river glows with **ten thousand** paper lanterns.",
      published: true,
    });
    const withContent = (await publicPage("/game/lantern-festival")).html;
    expect(withContent).toContain("Rich Story Background");
    expect(withContent).toContain("<strong>ten thousand</strong>");

    await setContentPublishedInPanel(page, "Paper Lanterns", false);
    expect((await publicPage("/game/lantern-festival")).html).not.toContain("ten thousand");

    await openAdminTab(page, "SEO Content", "Multi-Section Editor");
    await choose(page, "Game", "Lantern Festival Nights");
    await page.locator("#section-sections-2-title").fill("River City");
    await page.locator("#section-sections-2-content").fill("Seven bridges of jade cross the river.");
    await page.getByRole("button", { name: "Save All Sections" }).click();
    await expectToast(page, "All sections saved successfully!");
    const withSections = (await publicPage("/game/lantern-festival")).html;
    expect(withSections).toContain("World Setting");
    expect(withSections).toContain("Seven bridges of jade cross the river.");

    await deleteGameInPanel(page, "Lantern Festival Nights");
    for (const list of ["/", "/games", "/games/category/beginner", "/games?search=lantern", "/sitemap.xml"]) {
      const { html } = await publicPage(list);
      expect(html, list).not.toContain("Lantern Festival");
      expect(html, list).not.toContain("/game/lantern-festival");
    }
    const gone = await publicPage("/game/lantern-festival");
    expect(gone.status).toBe(302);
    expect(gone.location).toBe("/games");
    const [row] = await server.connection.db.select().from(games).where(eq(games.slug, "lantern-festival"));
    expect(row).toMatchObject({ isActive: false, title: "Lantern Festival Nights" });
    expect(page.errors).toEqual([]);
    await page.close();
  });

  test("a new guide is listed on /guides with its own page", async ({ server, publicPage, page }) => {
    await page.goto(`${server.url}/admin?tab=content&section=guides`);
    await createGuideInPanel(page, {
      title: "Festival Etiquette",
      description: "What to bring, whom to bow to, and when to leave.",
      content: "## Bring a lantern\n\nEveryone carries one; *nobody* carries two.",
      category: "Tips",
    });
    const hub = await publicPage("/guides");
    expect(hub.html).toContain("Festival Etiquette");
    expect(hub.html).toContain('href="/guides/festival-etiquette"');
    const guide = await publicPage("/guides/festival-etiquette");
    expect(guide.status).toBe(200);
    expect(guide.html).toContain("Festival Etiquette");
    expect(guide.html).toContain("<em>nobody</em>");
    await page.close();
  });
});

describe("stored-XSS attempts in every rich field", () => {
  const attack = [
    "<script>window.__xss = 'script'</script>",
    `<img src="x" onerror="window.__xss = 'onerror'">`,
    "[javascript link](javascript:window.__xss='link')",
    `<a href="javascript:window.__xss='html link'">html link</a>`,
    `<iframe src="https://example.com/" srcdoc="<script>parent.__xss='iframe'</script>"></iframe>`,
    "<svg onload=\"window.__xss='svg'\"></svg>",
    "**The safe part still renders.**",
  ].join("\n\n");

  test("render inert on the public pages", async ({ server, adminApi }) => {
    await adminApi("POST", "/api/admin/games", {
      title: "Glass Garden",
      slug: "glass-garden",
      description: "A garden of glass.",
      prompt: "Game Master.",
    });
    for (const contentType of CONTENT_TYPES) {
      await adminApi("POST", "/api/admin/game-content", {
        gameSlug: "glass-garden",
        contentType,
        title: `XSS in ${contentType}`,
        content: attack,
      });
    }
    await adminApi("POST", "/api/admin/guides", { title: "XSS Guide", slug: "xss-guide", description: "d", content: attack });

    const visitor = await launchBrowser();
    try {
      for (const pathname of ["/game/glass-garden", "/game/glass-garden/guide", "/game/glass-garden/tips", "/guides/xss-guide"]) {
        const page = await visitor.newPage();
        let dialogs = 0;
        page.on("dialog", (dialog) => {
          dialogs += 1;
          void dialog.dismiss();
        });
        const response = await page.goto(`${server.url}${pathname}`);
        expect(response?.status(), pathname).toBe(200);
        expect(new URL(page.url()).pathname, pathname).toBe(pathname);
        await page.getByText("The safe part still renders.").first().waitFor();
        await page.waitForLoadState("networkidle");
        const findings = await page.evaluate(() => ({
          xss: (window as { __xss?: string }).__xss,
          iframes: document.querySelectorAll("iframe, object, embed").length,
          handlers: document.querySelectorAll("[onerror], [onload], [onclick]").length,
          scriptsWithPayload: [...document.scripts].filter((script) => !script.src && script.textContent.includes("__xss =")).length,
          javascriptLinks: [...document.querySelectorAll("a")].filter((link) =>
            link.getAttribute("href")?.trim().toLowerCase().startsWith("javascript:"),
          ).length,
        }));
        expect(findings, pathname).toEqual({ xss: undefined, iframes: 0, handlers: 0, scriptsWithPayload: 0, javascriptLinks: 0 });
        const link = page.getByText("javascript link").first();
        if (await link.count()) await link.click();
        expect(await page.evaluate(() => (window as { __xss?: string }).__xss), pathname).toBeUndefined();
        expect(dialogs, pathname).toBe(0);
        await page.close();
      }
    } finally {
      await visitor.close();
    }
  });
});
