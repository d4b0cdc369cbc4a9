import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect } from "vitest";
import { LORE_TEXTS } from "#app/lib/lorebook.ts";
import { expectToast, seriousAccessibilityViolations } from "#tests/helpers/browser.ts";
import { v3Card } from "#tests/helpers/character-cards.ts";
import { browserTest } from "#tests/helpers/fixtures.ts";
import { settle } from "#tests/helpers/play-screen.ts";

/** Issue 36 in Chromium: /create from the header, a draft saved with its errors shown, a card imported, the draft played. */

const SHOTS = path.resolve(import.meta.dirname, "../../test-results/screenshots/create");
mkdirSync(SHOTS, { recursive: true });

/** Where screenshots are looked at, outside the repository. */

/** Every test is the creator's, signed in once for the file. */
const test = browserTest.extend("creator", { scope: "file", auto: true }, ({ login }) => login({ name: "Cora Creator" }));
test.override("serverEnv", { AI_OFFLINE_WORD_DELAY_MS: "0" });

describe("creating a world", () => {
  test("saves a draft from the form, after showing what is missing, and plays it privately", async ({ browser }) => {
    const page = await browser.newPage();
    await page.goto(`/`);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Create" }).click();
    await page.getByRole("heading", { level: 1, name: "Create a world" }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, "create-1280.png"), fullPage: true });

    await page.getByLabel("Description").fill("A lady-in-waiting at the Tang court.");
    await page.getByLabel("Game Master instructions").fill("You are the Game Master of the Tang court.");
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByText("Title is required.").waitFor();
    expect(await page.getByLabel("Title").getAttribute("aria-invalid")).toBe("true");

    await page.getByLabel("Title").fill("The Jade Screen");
    await page.getByLabel("Content rating").selectOption("Teen");
    await page.getByLabel("Alternative opening 1").fill("Incense fills the hall.");
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByRole("status").getByText("Your draft is saved.").waitFor();
    await page
      .getByRole("region", { name: "My worlds" })
      .getByRole("link", { name: /The Jade Screen/ })
      .waitFor();
    expect(await page.getByLabel("Content rating").inputValue()).toBe("Teen");
    expect(await page.getByLabel("Alternative opening 1").inputValue()).toBe("Incense fills the hall.");

    await page.getByRole("link", { name: "Play privately" }).click();
    await page.getByRole("heading", { name: "The Jade Screen" }).first().waitFor();
    // The refused save answered 400, as a refused form does; nothing else may go wrong.
    expect(page.errors.filter((error) => !error.includes("status of 400"))).toEqual([]);
  });

  test("imports a character card as a draft that exports again", async ({ browser }) => {
    const page = await browser.newPage({ width: 390, height: 844 });
    await page.goto(`/create`);
    await page
      .getByLabel("Character card file")
      .setInputFiles({ name: "wu.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(v3Card)) });
    await page.getByRole("button", { name: "Import a character card" }).click();
    await page.getByRole("heading", { level: 1, name: "Empress Wu Zetian" }).waitFor();
    expect(await page.getByLabel("Creator notes").inputValue()).toBe("Works best with a slow, courtly pace.");
    expect(await page.getByLabel("Content rating").inputValue()).toBe("Mature");
    await page.getByRole("region", { name: "Lorebook", exact: true }).getByRole("heading", { name: "The gatekeeper" }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, "create-390.png"), fullPage: true });

    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export as JSON card" }).click();
    const file = await (await download).path();
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(v3Card);

    // An entry past the editor's limits is kept as the card has it, and the list says so.
    const [gatekeeper] = v3Card.data.character_book.entries;
    const longEntry = { ...gatekeeper, content: "The archive holds every decree of the court. ".repeat(60) };
    const long = {
      ...v3Card,
      data: { ...v3Card.data, name: "The Long Archive", character_book: { ...v3Card.data.character_book, entries: [longEntry] } },
    };
    await page.goto(`/create`);
    await page
      .getByLabel("Character card file")
      .setInputFiles({ name: "long.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(long)) });
    await page.getByRole("button", { name: "Import a character card" }).click();
    await page.getByRole("heading", { level: 1, name: "The Long Archive" }).waitFor();
    const entry = page.getByRole("region", { name: "Lorebook", exact: true }).getByRole("listitem").filter({ hasText: "The gatekeeper" });
    await entry.getByText(LORE_TEXTS.pastLimits).waitFor();

    await page
      .getByLabel("Character card file")
      .setInputFiles({ name: "bad.json", mimeType: "application/json", buffer: Buffer.from("{not json") });
    await page.getByRole("button", { name: "Import a character card" }).click();
    await page.getByText("The card's JSON cannot be read: the file is damaged or is not a character card.").waitFor();
    expect(page.errors.filter((error) => !error.includes("status of 400"))).toEqual([]);
  });

  test("edits the world's lorebook on /create: add, change, delete", async ({ browser }) => {
    const page = await browser.newPage();
    await page.goto(`/create`);
    await page.getByLabel("Title").fill("The Lantern Quay");
    await page.getByLabel("Description").fill("A harbour town at night.");
    await page.getByLabel("Game Master instructions").fill("You are the Game Master of the quay.");
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByRole("status").getByText("Your draft is saved.").waitFor();
    const lorebook = page.getByRole("region", { name: "Lorebook", exact: true });
    await lorebook.getByText(LORE_TEXTS.worldEmpty).waitFor();

    await lorebook.getByRole("button", { name: "Add entry", exact: true }).click();
    await lorebook.getByLabel("Title").fill("Harbormaster");
    await lorebook.getByLabel("Keys").fill("Ilse, /harbou?rmaster/");
    await lorebook.getByLabel("Content").fill("Ilse Varga counts every ship.");
    await lorebook.getByLabel("Priority").fill("7");
    await lorebook.getByRole("button", { name: "Add Entry", exact: true }).click();
    await expectToast(page, LORE_TEXTS.saved);
    await lorebook.getByRole("heading", { name: "Harbormaster" }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, "create-lorebook-1280.png"), fullPage: true });

    await lorebook.getByRole("button", { name: "Edit Harbormaster" }).click();
    await lorebook.getByLabel("Keys").fill("/(a+)+$/");
    await lorebook.getByRole("button", { name: "Update Entry", exact: true }).click();
    await lorebook
      .getByText(/could take too long to match/)
      .first()
      .waitFor();
    await lorebook.getByLabel("Keys").fill("Ilse");
    await lorebook.getByLabel("Title").fill("Ilse Varga");
    await lorebook.getByRole("button", { name: "Update Entry", exact: true }).click();
    await lorebook.getByRole("heading", { name: "Ilse Varga" }).waitFor();
    // The world's own form kept what it had while the lorebook changed.
    expect(await page.getByLabel("Title", { exact: true }).first().inputValue()).toBe("The Lantern Quay");

    await page.setViewportSize({ width: 375, height: 812 });
    // A toast still fading in is measured at its passing colours: wait for it to be drawn.
    await settle(page);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, "create-lorebook-375.png"), fullPage: true });
    await lorebook.screenshot({ path: path.join(SHOTS, "create-lorebook-section-375.png") });

    await lorebook.getByRole("button", { name: "Delete Ilse Varga" }).click();
    await page
      .getByRole("alertdialog")
      .getByRole("button", { name: /Delete/ })
      .click();
    await lorebook.getByText(LORE_TEXTS.worldEmpty).waitFor();
    expect(page.errors.filter((error) => !error.includes("status of 400"))).toEqual([]);
  });
});
