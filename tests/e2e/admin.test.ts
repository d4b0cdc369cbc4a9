import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { contactMessages, gameContent, games, guides } from "#app/db/schema.ts";
import { ADMIN_TEXTS } from "#app/lib/admin-texts.ts";
import {
  addContentInPanel,
  choose,
  createGameInPanel,
  createGuideInPanel,
  deleteGameInPanel,
  editGameInPanel,
  expectToast,
  fillGameForm,
  openAdminTab,
  setContentPublishedInPanel,
} from "#tests/helpers/admin-panel.ts";
import { seriousAccessibilityViolations } from "#tests/helpers/browser.ts";
import { browserTest } from "#tests/helpers/fixtures.ts";

/**
 * An admin at work in the panel, in Chromium: games, their content and sections, guides, the
 * inbox, stored-XSS attempts in the previews, and how the panel looks. Who gets in is
 * admin-gate.test.ts.
 */

const SHOTS = path.resolve(import.meta.dirname, "../../test-results/screenshots/admin");

// Signed in before the first test, for every test.
const test = browserTest.extend("admin", { scope: "file", auto: true }, ({ login }) => login({ email: "head-admin@example.com", admin: true }));

describe("an admin in the panel", () => {
  test("validates the game form in the browser, then refuses a slug in use with a clear message", async ({ server, page }) => {
    await page.goto(`${server.url}/admin?tab=games`);
    await page.getByRole("button", { name: "Add New Game" }).click();
    await page.getByRole("button", { name: "Create Game" }).click();
    for (const message of ["Title is required.", "Slug is required.", "Description is required.", "Prompt is required."]) {
      await page.getByText(message, { exact: true }).waitFor();
    }
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("game-title");

    await fillGameForm(page, { title: "Second Empress", slug: "Empress Simulator", description: "d", prompt: "p" });
    expect(await page.getByLabel("Slug").inputValue()).toBe("empress-simulator");
    await page.getByRole("button", { name: "Create Game" }).click();
    await expectToast(page, ADMIN_TEXTS.gameSaveFailed);
    await page.getByText('The slug "empress-simulator" is already used by "Empress Simulator". Choose another slug.').first().waitFor();
    expect(await page.getByLabel("Slug").getAttribute("aria-invalid")).toBe("true");
    expect(await server.connection.db.select().from(games).where(eq(games.title, "Second Empress"))).toEqual([]);
    await page.close();
  });

  test("creates, edits and soft-deletes a game; shows 'Saving...' and refreshes the list", async ({ server, page }) => {
    await page.goto(`${server.url}/admin?tab=games`);

    // The slug follows the title for a new game; the description hint counts live.
    await page.getByRole("button", { name: "Add New Game" }).click();
    await fillGameForm(page, {
      title: "Moonlit Court",
      description: "Serve a moon goddess whose court only meets at night.",
      prompt: "You are the Game Master of the Moonlit Court.",
      tagline: "Intrigue after dark",
      players: "Single player",
      difficulty: "Intermediate",
      category: "Fantasy",
      icon: "Star",
      sortOrder: "15",
    });
    expect(await page.getByLabel("Slug").inputValue()).toBe("moonlit-court");
    await page.getByText("53/160 characters — fits in search results").waitFor();
    await page.screenshot({ path: path.join(SHOTS, "game-form-1280.png"), fullPage: true });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/admin/games", async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("button", { name: "Create Game" }).click();
    const saving = page.getByRole("button", { name: ADMIN_TEXTS.saving });
    await saving.waitFor();
    expect(await saving.isDisabled()).toBe(true);
    release();
    await expectToast(page, ADMIN_TEXTS.gameCreated);
    await page.unroute("**/api/admin/games");

    const row = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Moonlit Court" }) });
    await row.waitFor();
    const text = await row.textContent();
    for (const part of ["Intrigue after dark", "Intermediate", "Fantasy", "#15", "Serve a moon goddess"]) expect(text).toContain(part);
    expect(await row.getByRole("link", { name: "View Moonlit Court (opens in a new tab)" }).getAttribute("href")).toBe("/game/moonlit-court");
    expect(await row.getByRole("link", { name: /View Moonlit Court/ }).getAttribute("target")).toBe("_blank");
    const [stored] = await server.connection.db.select().from(games).where(eq(games.slug, "moonlit-court"));
    expect(stored).toMatchObject({
      title: "Moonlit Court",
      difficulty: "Intermediate",
      category: "Fantasy",
      icon: "Star",
      sortOrder: 15,
      isActive: true,
    });

    await editGameInPanel(page, "Moonlit Court", { tagline: "Intrigue under the moon", sortOrder: "3" });
    await page.waitForFunction(() => document.activeElement?.getAttribute("aria-label") === "Edit Moonlit Court");
    await page.getByText("Intrigue under the moon").waitFor();
    await row.getByText("#3").waitFor();

    await deleteGameInPanel(page, "Moonlit Court");
    await page.getByRole("heading", { name: "Moonlit Court" }).waitFor({ state: "detached" });
    const [softDeleted] = await server.connection.db.select().from(games).where(eq(games.slug, "moonlit-court"));
    expect(softDeleted).toMatchObject({ isActive: false, tagline: "Intrigue under the moon" });
    await openAdminTab(page, "SEO Content", "Game Content");
    await page.getByRole("combobox", { name: "Game" }).click();
    expect(await page.getByRole("option", { name: "Moonlit Court" }).count()).toBe(0);
    await page.keyboard.press("Escape");
    expect(page.errors).toEqual([]);
    await page.close();
  });

  test("adds, unpublishes and deletes game content, with a sanitised preview and live word count", async ({ server, page }) => {
    await page.goto(`${server.url}/admin?tab=content`);
    await page.getByRole("button", { name: "Add Content" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("textbox", { name: "Content" }).fill("## The Night Court\n\nThe **moon** rises.");
    await dialog.getByText("6 words — aim for 500+ words for search engines").waitFor();
    await dialog.getByRole("button", { name: "Preview" }).click();
    await dialog.getByRole("heading", { name: "The Night Court" }).waitFor();
    await page.screenshot({ path: path.join(SHOTS, "content-dialog-1280.png") });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Discard changes" }).click();

    await addContentInPanel(page, {
      game: "Cultivation Simulator",
      type: "Pro Tips",
      title: "Night Meditation",
      content: "Meditate when the **moon** is full.",
      sectionOrder: "not a number",
    });
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Night Meditation" }) });
    await card.waitFor();
    expect(await card.textContent()).toContain("Pro Tips");
    expect(await card.textContent()).toContain("Published");
    expect(await card.textContent()).toContain("Cultivation Simulator · Order 0");
    expect(await card.textContent()).toContain("Meditate when the moon is full.");

    await setContentPublishedInPanel(page, "Night Meditation", false);
    await card.getByText("Unpublished").waitFor();
    const [record] = await server.connection.db.select().from(gameContent).where(eq(gameContent.title, "Night Meditation"));
    expect(record).toMatchObject({ isPublished: false, contentType: "pro_tips", sectionOrder: 0, gameSlug: "cultivation-simulator" });

    await card.getByRole("button", { name: "Delete Night Meditation" }).click();
    const confirm = page.getByRole("alertdialog");
    expect(await confirm.textContent()).toContain('Are you sure you want to delete "Night Meditation"? This action cannot be undone.');
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expectToast(page, ADMIN_TEXTS.contentDeleted);
    await card.waitFor({ state: "detached" });
    expect(page.errors).toEqual([]);
    await page.close();
  });

  test("shows 'No content yet' for a game without content, and 'Add First Content' opens the form for it", async ({ server, page }) => {
    await page.goto(`${server.url}/admin?tab=games`);
    await createGameInPanel(page, { title: "Empty Halls", description: "Nothing here yet.", prompt: "Game Master." });
    await openAdminTab(page, "SEO Content", "Game Content");
    await choose(page, "Game", "Empty Halls");
    await page.getByText(ADMIN_TEXTS.noContent).waitFor();
    await page.getByRole("button", { name: ADMIN_TEXTS.addFirstContent }).click();
    expect(await page.getByRole("dialog").getByRole("combobox", { name: "Game" }).textContent()).toContain("Empty Halls");
    await page.getByRole("dialog").getByRole("button", { name: "Create Content" }).click();
    await page.getByText("Title is required.").waitFor();
    await page.getByText("Content is required.").waitFor();
    await page.close();
  });

  test("saves the multi-section editor in one go: updates, creates, skips blanks", async ({ server, page }) => {
    await page.goto(`${server.url}/admin?tab=games`);
    await createGameInPanel(page, { title: "Sectioned Saga", description: "Six sections.", prompt: "Game Master." });
    await openAdminTab(page, "SEO Content", "Multi-Section Editor");

    await page.getByRole("button", { name: "Save All Sections" }).click();
    await expectToast(page, ADMIN_TEXTS.selectGame);
    await page.getByText(ADMIN_TEXTS.selectGame, { exact: true }).first().waitFor();

    await choose(page, "Game", "Sectioned Saga");
    await page.locator("#section-sections-0-title").fill("Before the Saga");
    await page.locator("#section-sections-0-content").fill("The saga began with a storm.");
    await page.locator("#section-sections-2-title").fill("A title without content");
    await page.locator("#section-sections-3-title").fill("First Steps");
    await page.locator("#section-sections-3-content").fill("Listen before you speak.");
    expect(await page.locator("#section-sections-3-sectionOrder").getAttribute("placeholder")).toBe("30");
    await page.screenshot({ path: path.join(SHOTS, "multi-section-1280.png"), fullPage: true });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Save All Sections" }).click();
    await expectToast(page, ADMIN_TEXTS.sectionsSaved);
    await page.getByText("Skipped (needs both a title and content): World Setting").waitFor();

    const rows = () => server.connection.db.select().from(gameContent).where(eq(gameContent.gameSlug, "sectioned-saga"));
    expect((await rows()).map((row) => [row.contentType, row.title, row.sectionOrder]).sort()).toEqual([
      ["beginner_tips", "First Steps", 30],
      ["story_background", "Before the Saga", 0],
    ]);

    // The saved sections are now existing ones: a second save updates them instead of adding copies.
    await page.locator("#section-sections-0-content").fill("The saga began with a quieter storm.");
    await page.getByRole("button", { name: "Save All Sections" }).click();
    await page.getByText("2 updated, 0 created.").waitFor();
    const after = await rows();
    expect(after).toHaveLength(2);
    expect(after.find((row) => row.contentType === "story_background")?.content).toBe("The saga began with a quieter storm.");
    expect(page.errors).toEqual([]);
    await page.close();
  });

  test("creates a guide with a slug generated from its title, edits and deletes it", async ({ server, page }) => {
    await page.goto(`${server.url}/admin?tab=content&section=guides`);
    await page.getByRole("button", { name: "Add Guide" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Title").fill("Winter Court: Survival Notes!");
    expect(await dialog.getByLabel("Slug").inputValue()).toBe("winter-court-survival-notes");
    await dialog.getByLabel("Slug").fill("Winter Court Notes");
    expect(await dialog.getByLabel("Slug").inputValue()).toBe("winter-court-notes");
    await dialog.getByLabel("Title").fill("Winter Court Survival Notes");
    expect(await dialog.getByLabel("Slug").inputValue()).toBe("winter-court-notes");
    // Closing a form with edits asks first (docs/decisions/034).
    await page.keyboard.press("Escape");
    await page.getByRole("alertdialog").getByRole("button", { name: "Discard changes" }).click();

    await createGuideInPanel(page, {
      title: "Winter Court Survival",
      description: "How to last a season at the winter court.",
      content: "## Keep warm\n\nTrust no one who offers a fur.",
      category: "Strategy",
      difficulty: "Intermediate",
      readTime: "",
      featured: true,
    });
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Winter Court Survival" }) });
    await card.waitFor();
    const text = await card.textContent();
    for (const part of [
      "Strategy",
      "Featured",
      "Published",
      "Intermediate",
      "10 min read",
      "/guides/winter-court-survival",
      "How to last a season",
    ]) {
      expect(text).toContain(part);
    }
    const [stored] = await server.connection.db.select().from(guides).where(eq(guides.slug, "winter-court-survival"));
    expect(stored).toMatchObject({ category: "strategy", difficulty: "intermediate", estimatedReadTime: 10, featured: true, isPublished: true });

    await card.getByRole("button", { name: "Edit Winter Court Survival" }).click();
    await dialog.getByLabel("Title").fill("Winter Court Survival, Revised");
    expect(await dialog.getByLabel("Slug").inputValue()).toBe("winter-court-survival");
    await dialog.getByRole("button", { name: "Update Guide" }).click();
    await expectToast(page, ADMIN_TEXTS.guideUpdated);
    const revised = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Winter Court Survival, Revised" }) });
    await revised.getByRole("button", { name: "Delete Winter Court Survival, Revised" }).click();
    expect(await page.getByRole("alertdialog").textContent()).toContain(
      'Are you sure you want to delete "Winter Court Survival, Revised"? This action cannot be undone.',
    );
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expectToast(page, ADMIN_TEXTS.guideDeleted);
    await revised.waitFor({ state: "detached" });
    expect(await server.connection.db.select().from(guides).where(eq(guides.slug, "winter-court-survival"))).toEqual([]);
    expect(page.errors).toEqual([]);
    await page.close();
  });

  test("lists contact messages newest first", async ({ server, page }) => {
    const at = (minutes: number) => new Date(Date.parse("2025-05-01T09:00:00Z") + minutes * 60_000);
    await server.connection.db.insert(contactMessages).values([
      { name: "Old Reader", email: "old@example.com", subject: "An older question", message: "First!", createdAt: at(0) },
      { name: "New Reader", email: "new@example.com", subject: "The newest question", message: "Line one\nLine two", createdAt: at(5) },
    ]);
    await page.goto(`${server.url}/admin?tab=messages`);
    // Other files on the same server leave messages of their own in the inbox: the order of this
    // file's two is what is checked.
    const ours = ["The newest question", "An older question"];
    const subjects = async () =>
      (await page.getByRole("article").getByRole("heading").allTextContents()).filter((subject) => ours.includes(subject));
    await expect.poll(subjects).toEqual(ours);
    expect(await page.getByRole("link", { name: "new@example.com" }).getAttribute("href")).toBe(
      "mailto:new@example.com?subject=Re%3A%20The%20newest%20question",
    );
    await page.getByText("May 1, 2025, 9:05 AM UTC").waitFor();
    await page.close();
  });
});

describe("stored-XSS attempts in the admin preview", () => {
  test("render inert in every rich field's preview", async ({ server, page }) => {
    let dialogs = 0;
    page.on("dialog", (dialog) => {
      // Each form is left with its edits: the browser's "leave the page?" is answered yes.
      if (dialog.type() === "beforeunload") {
        void dialog.accept();
        return;
      }
      dialogs += 1;
      void dialog.dismiss();
    });
    const attack = [
      "<script>window.__xss = 'script'</script>",
      `<img src="x" onerror="window.__xss = 'onerror'">`,
      "[javascript link](javascript:window.__xss='link')",
      `<a href="javascript:window.__xss='html link'">html link</a>`,
      `<iframe src="https://example.com/" srcdoc="<script>parent.__xss='iframe'</script>"></iframe>`,
      "**still bold**",
    ].join("\n\n");

    const fields = [
      { url: "/admin?tab=content", open: "Add Content", preview: "content-content-preview" },
      { url: "/admin?tab=content&section=guides", open: "Add Guide", preview: "guide-content-preview" },
    ];
    for (const field of fields) {
      await page.goto(`${server.url}${field.url}`);
      await page.getByRole("button", { name: field.open }).click();
      await page.getByRole("dialog").getByRole("textbox", { name: "Content" }).fill(attack);
      await page.getByRole("dialog").getByRole("button", { name: "Preview" }).click();
      const preview = page.getByTestId(field.preview);
      await preview.getByText("still bold").waitFor();
      await checkInert(preview);
    }

    await page.goto(`${server.url}/admin?tab=content&section=sections`);
    await choose(page, "Game", "Empress Simulator");
    await page.locator("#section-sections-0-content").fill(attack);
    await page.getByRole("group", { name: "Content view" }).first().getByRole("button", { name: "Preview" }).click();
    const sectionPreview = page.getByTestId("section-sections-0-content-preview");
    await sectionPreview.getByText("still bold").waitFor();
    await checkInert(sectionPreview);

    async function checkInert(preview: ReturnType<typeof page.getByTestId>) {
      expect(await preview.locator("script, iframe, object, embed").count()).toBe(0);
      expect(await preview.locator("[onerror], [onload], [onclick]").count()).toBe(0);
      for (const href of await preview.locator("a").evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""))) {
        expect(href.toLowerCase()).not.toContain("javascript:");
      }
      const link = preview.getByText("javascript link");
      if (await link.count()) await link.click();
      await page.waitForTimeout(100);
      expect(await page.evaluate(() => (window as { __xss?: string }).__xss)).toBeUndefined();
    }
    expect(dialogs).toBe(0);
    expect(page.url()).toContain("/admin");
    await page.close();
  });
});

describe("how the panel looks", () => {
  const views = [
    ["games", "/admin"],
    ["content", "/admin?tab=content"],
    ["sections", "/admin?tab=content&section=sections"],
    ["guides", "/admin?tab=content&section=guides"],
    ["messages", "/admin?tab=messages"],
  ] as const;

  // One test a width, and the forms apart: the eleven pages with their accessibility checks took
  // more than a test's limit together on a loaded CI machine.
  test.for([1280, 375])("is finished at %i px with no serious accessibility issues", async (width, { server, browser }) => {
    const page = await browser.newPage({ width, height: 900 });
    for (const [name, url] of views) {
      await page.goto(`${server.url}${url}`);
      await page.getByRole("heading", { name: "Admin Panel" }).waitFor();
      await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
      // Nothing may stick out sideways on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
    }
    expect(page.errors).toEqual([]);
    await page.close();
  });

  test("fits the game form and the guide dialog on a phone", async ({ server, browser }) => {
    const width = 375;
    const page = await browser.newPage({ width, height: 900 });
    await page.goto(`${server.url}/admin?tab=games`);
    await page.getByRole("button", { name: "Add New Game" }).click();
    await page.screenshot({ path: path.join(SHOTS, "game-form-375.png"), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.goto(`${server.url}/admin?tab=content&section=guides`);
    await page.getByRole("button", { name: "Add Guide" }).click();
    await page.getByRole("dialog").waitFor();
    await page.waitForTimeout(300); // the dialog's fade-in
    await page.screenshot({ path: path.join(SHOTS, "guide-dialog-375.png") });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect(page.errors).toEqual([]);
    await page.close();
  });
});
