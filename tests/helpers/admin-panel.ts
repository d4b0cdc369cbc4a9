import { expect } from "vitest";
import type { Locator, Page } from "playwright-core";

/**
 * Steps through the admin panel's real UI, shared by the admin journeys. Each waits for the
 * toast that SPEC names, so the change is saved and the panel's lists are fresh when it returns.
 */

export async function openAdminTab(
  page: Page,
  tab: "Games Management" | "SEO Content" | "Messages",
  section?: "Game Content" | "Multi-Section Editor" | "Guides & Articles",
) {
  await page.getByRole("tab", { name: tab }).click();
  if (section) await page.getByRole("tab", { name: section }).click();
}

export async function expectToast(page: Page, text: string) {
  await page.locator("[data-sonner-toast]").filter({ hasText: text }).first().waitFor();
}

/**
 * Picks an option of a Radix select by the select's label. A select closes when its window loses
 * focus for a moment, which a loaded test machine sometimes does just as the list opens; the list
 * is then opened again, up to three times.
 */
export async function choose(page: Page, label: string, option: string) {
  const select = page.getByRole("combobox", { name: label, exact: true });
  for (let attempt = 1; ; attempt += 1) {
    await select.click();
    try {
      await page.getByRole("option", { name: option, exact: true }).click({ timeout: 5_000 });
      break;
    } catch (error) {
      if (attempt === 3) throw error;
      await page.getByRole("listbox").waitFor({ state: "detached" });
    }
  }
  expect(await select.textContent()).toContain(option);
}

export interface GameFields {
  title: string;
  slug?: string;
  description: string;
  prompt: string;
  tagline?: string;
  players?: string;
  difficulty?: string;
  category?: string;
  icon?: string;
  sortOrder?: string;
}

export async function fillGameForm(page: Page, fields: Partial<GameFields>) {
  const form = page.locator("form");
  if (fields.title !== undefined) await form.getByLabel("Title").fill(fields.title);
  if (fields.slug !== undefined) await form.getByLabel("Slug").fill(fields.slug);
  if (fields.tagline !== undefined) await form.getByLabel("Tagline").fill(fields.tagline);
  if (fields.players !== undefined) await form.getByLabel("Players").fill(fields.players);
  if (fields.description !== undefined) await form.getByLabel("Description").fill(fields.description);
  if (fields.prompt !== undefined) await form.getByLabel("Prompt").fill(fields.prompt);
  if (fields.icon) await choose(page, "Icon", fields.icon);
  if (fields.difficulty) await choose(page, "Difficulty", fields.difficulty);
  if (fields.category) await choose(page, "Category", fields.category);
  if (fields.sortOrder !== undefined) await form.getByLabel("Sort order").fill(fields.sortOrder);
}

export async function createGameInPanel(page: Page, fields: GameFields) {
  await openAdminTab(page, "Games Management");
  await page.getByRole("button", { name: "Add New Game" }).click();
  await fillGameForm(page, fields);
  await page.getByRole("button", { name: "Create Game" }).click();
  await expectToast(page, "Game created successfully!");
}

export async function editGameInPanel(page: Page, title: string, fields: Partial<GameFields>) {
  await openAdminTab(page, "Games Management");
  await page.getByRole("button", { name: `Edit ${title}` }).click();
  await fillGameForm(page, fields);
  await page.getByRole("button", { name: "Update Game" }).click();
  await expectToast(page, "Game updated successfully!");
}

export async function deleteGameInPanel(page: Page, title: string) {
  await openAdminTab(page, "Games Management");
  await page.getByRole("button", { name: `Delete ${title}` }).click();
  const dialog = page.getByRole("alertdialog");
  expect(await dialog.textContent()).toContain(`Are you sure you want to delete "${title}"? This action cannot be undone.`);
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expectToast(page, `"${title}" has been deleted successfully.`);
}

export interface ContentFields {
  game: string;
  type: string;
  title: string;
  content: string;
  sectionOrder?: string;
  published?: boolean;
}

async function setSwitch(scope: Locator, label: string, on: boolean) {
  const toggle = scope.getByRole("switch", { name: label });
  if ((await toggle.getAttribute("aria-checked")) !== String(on)) await toggle.click();
  expect(await toggle.getAttribute("aria-checked")).toBe(String(on));
}

export async function addContentInPanel(page: Page, fields: ContentFields) {
  await openAdminTab(page, "SEO Content", "Game Content");
  await page.getByRole("button", { name: "Add Content" }).click();
  const dialog = page.getByRole("dialog");
  await choose(page, "Game", fields.game);
  await choose(page, "Content type", fields.type);
  await dialog.getByLabel("Title").fill(fields.title);
  if (fields.sectionOrder !== undefined) await dialog.getByLabel("Section order").fill(fields.sectionOrder);
  await dialog.getByRole("textbox", { name: "Content" }).fill(fields.content);
  if (fields.published !== undefined) await setSwitch(dialog, "Published", fields.published);
  await dialog.getByRole("button", { name: "Create Content" }).click();
  await expectToast(page, "Content created successfully!");
  await dialog.waitFor({ state: "detached" });
}

export async function setContentPublishedInPanel(page: Page, title: string, published: boolean) {
  await openAdminTab(page, "SEO Content", "Game Content");
  await page.getByRole("button", { name: `Edit ${title}` }).click();
  const dialog = page.getByRole("dialog");
  await setSwitch(dialog, "Published", published);
  await dialog.getByRole("button", { name: "Update Content" }).click();
  await expectToast(page, "Content updated successfully!");
  await dialog.waitFor({ state: "detached" });
}

export interface GuideFields {
  title: string;
  slug?: string;
  description: string;
  content: string;
  category?: string;
  difficulty?: string;
  readTime?: string;
  featured?: boolean;
  published?: boolean;
}

export async function createGuideInPanel(page: Page, fields: GuideFields) {
  await openAdminTab(page, "SEO Content", "Guides & Articles");
  await page.getByRole("button", { name: "Add Guide" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Title").fill(fields.title);
  if (fields.slug !== undefined) await dialog.getByLabel("Slug").fill(fields.slug);
  await dialog.getByLabel("Description").fill(fields.description);
  await dialog.getByRole("textbox", { name: "Content" }).fill(fields.content);
  if (fields.category) await choose(page, "Category", fields.category);
  if (fields.difficulty) await choose(page, "Difficulty", fields.difficulty);
  if (fields.readTime !== undefined) await dialog.getByLabel("Read time (minutes)").fill(fields.readTime);
  if (fields.featured !== undefined) await setSwitch(dialog, "Featured", fields.featured);
  if (fields.published !== undefined) await setSwitch(dialog, "Published", fields.published);
  await dialog.getByRole("button", { name: "Create Guide" }).click();
  await expectToast(page, "Guide created successfully!");
  await dialog.waitFor({ state: "detached" });
}
