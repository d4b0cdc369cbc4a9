import { inArray } from "drizzle-orm";
import { mkdirSync } from "node:fs";
import type { Database } from "#app/db/client.server.ts";
import { gameLoreEntries } from "#app/db/schema.ts";
import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { seriousAccessibilityViolations } from "#tests/helpers/browser.ts";
import { control, GAME, input, log, playerMessages, playScreenTest as test, replies, settle, whenHydrated } from "#tests/helpers/play-screen.ts";
import { seedStory } from "#tests/helpers/stories.ts";

/**
 * The player's controls of issue 35 on the play screen, found by their accessible names in
 * Chromium: the Lorebook panel, Remember this, Do / Say / Story, and Read aloud (the browser's
 * speech synthesis, observed by wrapping the real API from the test's page).
 */

const SCREENSHOTS = "test-results/play-craft";
const PHONE = { width: 360, height: 780 };
const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 375, height: 780 };

test.override("serverEnv", { AI_OFFLINE_WORD_DELAY_MS: "2" });
mkdirSync(SCREENSHOTS, { recursive: true });

const REPLY = [
  "## The Harbour",
  "",
  "Mist rolls over the quay. **Captain Ilse Varn** waits by the *Grey Heron*, her hand on the rail.",
  "",
  "What do you do?",
  "",
  "1. Greet the **captain**",
  "2. Inspect the ship",
].join("\n");

/** The story of GAME of a player just signed in (`player({ begun: false })`), with one played exchange: the reply above. */
function storyWithReply(server: { connection: { db: Database } }, account: { userId: string }) {
  return seedStory(server.connection.db, { userId: account.userId, gameSlug: GAME, exchanges: [{ message: "I am ready.", reply: REPLY }] });
}

const chatRequest = (page: Page) => page.waitForRequest((request) => request.url().endsWith("/api/game-chat"));
const dialog = (page: Page, name: string) => page.getByRole("dialog", { name });

/** The story's lore entries as the API keeps them, read from the page (its session). */
function storedLore(page: Page, storyId: string) {
  return page.evaluate(async (id) => {
    const response = await fetch(`/api/stories/${id}/lore`);
    return ((await response.json()) as { entries: { title: string; keys: string; content: string; alwaysOn: boolean; priority: number }[] })
      .entries;
  }, storyId);
}

describe("the Lorebook panel", () => {
  test("adds an entry (the form's messages first), edits and deletes it, by keyboard and by name", async ({ player, server, open }) => {
    const storyId = await storyWithReply(server, await player({ begun: false }));
    const page = await open(WIDE);
    await page.getByRole("button", { name: "Lorebook", exact: true }).click();
    const panel = dialog(page, "Lorebook");
    await panel.getByText("This story's lorebook has no entries yet.", { exact: false }).waitFor();

    await panel.getByRole("button", { name: "Add entry", exact: true }).click();
    await panel.getByRole("button", { name: "Add Entry", exact: true }).click();
    await panel.getByText("Give the entry a title.").waitFor();
    expect(await panel.getByLabel("Title").getAttribute("aria-invalid")).toBe("true");

    await panel.getByLabel("Title").fill("Captain Ilse Varn");
    await panel.getByLabel("Keys", { exact: true }).fill("Ilse, captain, /gr[ae]y heron/");
    await panel.getByLabel("Content").fill("Ilse Varn owes the player's family a debt she will not name.");
    await panel.getByRole("switch", { name: "Always on" }).click();
    await panel.getByLabel("Priority").fill("5");
    await panel.getByLabel("Priority").press("Enter");
    await panel.getByRole("listitem").filter({ hasText: "Captain Ilse Varn" }).waitFor();
    expect(await storedLore(page, storyId)).toMatchObject([
      { title: "Captain Ilse Varn", keys: "Ilse, captain, /gr[ae]y heron/", alwaysOn: true, priority: 5 },
    ]);
    expect(await panel.getByRole("status").textContent()).toBe("The lorebook entry has been saved.");
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await settle(page);
    await page.screenshot({ path: `${SCREENSHOTS}/lorebook-1280.png` });

    // The server's own check: a pattern that could backtrack for ever is refused, by its field.
    await panel.getByRole("button", { name: "Edit Captain Ilse Varn" }).click();
    await panel.getByLabel("Keys", { exact: true }).fill("/(a+)+$/");
    await panel.getByRole("button", { name: "Update Entry" }).click();
    const keysNote = panel.locator(`[id="${(await panel.getByLabel("Keys", { exact: true }).getAttribute("id")) ?? ""}-note"]`);
    // The field is marked when the server's answer arrives; its note then says why.
    await expect.poll(() => panel.getByLabel("Keys", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    expect(await keysNote.textContent()).toMatch(/\/\(a\+\)\+\$\//);
    // The browser logs that refusal (a 400) as an error of its own; it was the one expected.
    expect(page.errors.splice(0)).toEqual(["Failed to load resource: the server responded with a status of 400 (Bad Request)"]);

    await panel.getByLabel("Keys", { exact: true }).fill("Ilse");
    await panel.getByLabel("Content").fill("Ilse Varn smuggles for the Empress.");
    await panel.getByRole("button", { name: "Update Entry" }).click();
    await panel.getByText("Ilse Varn smuggles for the Empress.").waitFor();
    expect(await storedLore(page, storyId)).toMatchObject([{ keys: "Ilse", content: "Ilse Varn smuggles for the Empress." }]);

    await panel.getByRole("button", { name: "Delete Captain Ilse Varn" }).click();
    await panel.getByText('"Captain Ilse Varn" has been deleted from the lorebook.').waitFor();
    expect(await storedLore(page, storyId)).toEqual([]);
    await page.keyboard.press("Escape");
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent.trim())).toBe("Lorebook");
    expect(page.errors).toEqual([]);
  });

  test("lists the game's entries its admins show to players, read-only, beside the story's own, and never the hidden ones", async ({
    player,
    server,
    open,
  }) => {
    await storyWithReply(server, await player({ begun: false }));
    const db = server.connection.db;
    const seeded = await db
      .insert(gameLoreEntries)
      .values([
        {
          gameSlug: GAME,
          title: "The Grey Heron",
          keys: "heron, ship",
          content: "A smuggler's sloop, faster than any cutter.",
          shownToPlayers: true,
        },
        { gameSlug: GAME, title: "The Empress's secret", keys: "Empress", content: "She has no heir." },
      ])
      .returning({ id: gameLoreEntries.id });
    try {
      for (const [size, name] of [
        [WIDE, "1280"],
        [NARROW, "375"],
      ] as const) {
        const page = await open(size);
        if (size === WIDE) await page.getByRole("button", { name: "Lorebook", exact: true }).click();
        else {
          await page.getByRole("button", { name: "More", exact: true }).click();
          await page.getByRole("menuitem", { name: "Lorebook" }).click();
        }
        const panel = dialog(page, "Lorebook");
        const fromGame = panel.getByRole("region", { name: "From the game" });
        await fromGame.getByRole("heading", { name: "The Grey Heron" }).waitFor();
        expect(await fromGame.getByRole("listitem").allInnerTexts()).toEqual([
          expect.stringMatching(/The Grey Heron\s+heron, ship\s+A smuggler's sloop, faster than any cutter\./),
        ]);
        // Read-only: nothing in the game's group edits or deletes.
        expect(await fromGame.getByRole("button").count()).toBe(0);
        await panel
          .getByRole("region", { name: "This story's entries" })
          .getByText("This story's lorebook has no entries yet.", { exact: false })
          .waitFor();
        expect(await panel.getByText("The Empress's secret").count()).toBe(0);
        expect(await seriousAccessibilityViolations(page)).toEqual([]);
        await settle(page);
        await page.screenshot({ path: `${SCREENSHOTS}/lorebook-game-entries-${name}.png` });
        expect(page.errors).toEqual([]);
        await page.close();
      }
    } finally {
      await db.delete(gameLoreEntries).where(
        inArray(
          gameLoreEntries.id,
          seeded.map((entry) => entry.id),
        ),
      );
    }
  });

  test("is in the More menu on a phone, with Remember this and the read-aloud settings at 360 px", async ({ player, server, open }) => {
    await storyWithReply(server, await player({ begun: false }));
    const page = await open(PHONE);
    await page.getByRole("button", { name: "More", exact: true }).click();
    await page.getByRole("menuitem", { name: "Lorebook" }).click();
    await dialog(page, "Lorebook").getByRole("button", { name: "Add entry", exact: true }).click();
    await dialog(page, "Lorebook").getByLabel("Title").waitFor();
    await settle(page);
    await page.screenshot({ path: `${SCREENSHOTS}/lorebook-360.png` });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");

    // The reply's own tools on a phone, where a selection's button may sit under the system's menu.
    await replies(page).last().getByRole("button", { name: "Remember this" }).click();
    await dialog(page, "Remember this")
      .getByRole("radio", { name: /A pinned fact/ })
      .check();
    await settle(page);
    await page.screenshot({ path: `${SCREENSHOTS}/remember-this-360.png` });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Read aloud settings" }).click();
    await dialog(page, "Read aloud").getByLabel("Speed").waitFor();
    await settle(page);
    await page.screenshot({ path: `${SCREENSHOTS}/read-aloud-settings-360.png` });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
});

/** Selects the words `text` in the latest reply, as a mouse would. */
async function select(page: Page, text: string) {
  await replies(page)
    .last()
    .evaluate((reply, words) => {
      const walker = document.createTreeWalker(reply, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent?.indexOf(words) ?? -1;
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + words.length);
        window.getSelection()?.removeAllRanges();
        window.getSelection()?.addRange(range);
        return;
      }
      throw new Error(`"${words}" is not in the reply.`);
    }, text);
}

describe("Remember this", () => {
  test("offers selected words of a reply as a pinned fact, and a reply's tools as a lore entry", async ({ player, server, open }) => {
    const storyId = await storyWithReply(server, await player({ begun: false }));
    const page = await open(WIDE);
    // A selection made before the page is React's would be offered nothing: nothing listened yet.
    await whenHydrated(input(page));
    await select(page, "Mist rolls over the quay.");
    // The button by the selection, outside the reply's own tools.
    const offered = page.getByRole("button", { name: "Remember this" }).and(page.locator(".fixed"));
    await offered.click();
    const remembering = dialog(page, "Remember this");
    expect(await remembering.getByLabel("Content").inputValue()).toBe("Mist rolls over the quay.");
    await settle(page);
    await page.screenshot({ path: `${SCREENSHOTS}/remember-this-1280.png` });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await remembering.getByRole("radio", { name: /A pinned fact/ }).check();
    await remembering.getByRole("button", { name: "Pin fact" }).click();
    await remembering.waitFor({ state: "hidden" });
    await page.getByRole("button", { name: "Memory", exact: true }).click();
    expect(await dialog(page, "Memory").getByLabel("Pinned facts").inputValue()).toBe("Mist rolls over the quay.");
    await page.keyboard.press("Escape");

    // From the keyboard: the reply's tools, with nothing selected, offer the reply without its choices.
    await page.evaluate(() => window.getSelection()?.removeAllRanges());
    await replies(page).last().getByRole("button", { name: "Remember this" }).focus();
    await page.keyboard.press("Enter");
    const content = await remembering.getByLabel("Content").inputValue();
    expect(content).toContain("Mist rolls over the quay. Captain Ilse Varn waits by the Grey Heron");
    expect(content).not.toMatch(/Inspect the ship|[#*]/);
    await remembering.getByLabel("Title").fill("The harbour");
    await remembering.getByLabel("Keys", { exact: true }).fill("harbour, quay");
    await remembering.getByRole("button", { name: "Add Entry", exact: true }).click();
    await remembering.waitFor({ state: "hidden" });
    expect(await storedLore(page, storyId)).toMatchObject([{ title: "The harbour", keys: "harbour, quay" }]);
    expect(page.errors).toEqual([]);
  });
});

describe("Do / Say / Story", () => {
  test("rewrites what is sent, shows it before sending, and is remembered", async ({ player, server, open }) => {
    await storyWithReply(server, await player({ begun: false }));
    const page = await open(PHONE);
    const modes = page.getByRole("group", { name: "Send your text as" });
    expect(await modes.getByRole("radio", { name: "Story" }).isChecked()).toBe(true);

    await modes.getByRole("radio", { name: "Do" }).check();
    await input(page).fill("I draw my sword and greet my sister");
    expect(await page.locator("#play-input-sent-as").innerText()).toBe("Sends: You draw your sword and greet your sister.");
    await settle(page);
    await page.screenshot({ path: `${SCREENSHOTS}/do-360.png` });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    const sent = chatRequest(page);
    await input(page).press("Enter");
    expect(JSON.parse((await sent).postData() ?? "{}")).toMatchObject({ message: "You draw your sword and greet your sister." });
    await expect.poll(() => playerMessages(page).last().textContent()).toContain("You draw your sword and greet your sister.");
    await control(page, "Retry").waitFor({ timeout: 30_000 });

    // The keyboard moves between the modes like any radio group.
    await modes.getByRole("radio", { name: "Do" }).focus();
    await page.keyboard.press("ArrowRight");
    expect(await modes.getByRole("radio", { name: "Say" }).isChecked()).toBe(true);
    await input(page).fill("who goes there");
    const said = chatRequest(page);
    await input(page).press("Enter");
    expect(JSON.parse((await said).postData() ?? "{}")).toMatchObject({ message: 'You say, "Who goes there."' });
    await control(page, "Retry").waitFor({ timeout: 30_000 });

    await page.reload();
    await log(page).waitFor();
    await expect.poll(() => page.getByRole("group", { name: "Send your text as" }).getByRole("radio", { name: "Say" }).isChecked()).toBe(true);
    expect(page.errors).toEqual([]);
  });
});

/** Wraps the page's real speechSynthesis: what it is asked to say (text and rate) and how often it is stopped. */
const RECORD_SPEECH = `
  window.spoken = [];
  window.speechStops = 0;
  const speak = speechSynthesis.speak.bind(speechSynthesis);
  const cancel = speechSynthesis.cancel.bind(speechSynthesis);
  speechSynthesis.speak = (utterance) => { window.spoken.push({ text: utterance.text, rate: utterance.rate }); speak(utterance); };
  speechSynthesis.cancel = () => { window.speechStops += 1; cancel(); };
`;

type Spoken = { text: string; rate: number }[];

describe("Read aloud", () => {
  test("reads a reply without its marks, choices in words; Auto-read, speed remembered; a new turn stops it", async ({
    player,
    server,
    browser,
  }) => {
    await storyWithReply(server, await player({ begun: false }));
    const page = await browser.newPage(WIDE);
    await page.addInitScript(RECORD_SPEECH);
    await page.goto(`${server.url}/play/${GAME}`);
    await log(page).waitFor();

    await replies(page).last().getByRole("button", { name: "Read aloud", exact: true }).click();
    const spoken = () => page.evaluate(() => (window as unknown as { spoken: Spoken }).spoken);
    expect(await spoken()).toEqual([
      {
        text: "The Harbour\n\nMist rolls over the quay. Captain Ilse Varn waits by the Grey Heron, her hand on the rail.\n\nWhat do you do?\n\nChoice 1: Greet the captain.\n\nChoice 2: Inspect the ship.",
        rate: 1,
      },
    ]);

    await page.getByRole("button", { name: "Read aloud settings" }).click();
    const settings = dialog(page, "Read aloud");
    await settings.getByRole("switch", { name: "Auto-read" }).click();
    await settings.getByLabel("Speed", { exact: true }).selectOption({ label: "1.5×" });
    expect(await settings.getByLabel("Voice", { exact: true }).locator("option").first().textContent()).toBe("The browser's default voice");
    await settle(page);
    await page.screenshot({ path: `${SCREENSHOTS}/read-aloud-settings-1280.png` });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");

    const stops = () => page.evaluate(() => (window as unknown as { speechStops: number }).speechStops);
    const before = await stops();
    await input(page).fill("I wait.");
    const sent = chatRequest(page);
    await input(page).press("Enter");
    await sent;
    await expect.poll(stops).toBeGreaterThan(before);
    await control(page, "Retry").waitFor({ timeout: 30_000 });
    // Auto-read: the new reply, once stored, at the chosen speed.
    await expect.poll(async () => (await spoken()).length).toBe(2);
    const latest = (await spoken())[1];
    expect(latest?.rate).toBe(1.5);
    expect(latest?.text).not.toMatch(/[*#]|^\s*\d+\./m);

    await page.reload();
    await log(page).waitFor();
    await page.getByRole("button", { name: "Read aloud settings" }).click();
    expect(await dialog(page, "Read aloud").getByRole("switch", { name: "Auto-read" }).getAttribute("aria-checked")).toBe("true");
    expect(await dialog(page, "Read aloud").getByLabel("Speed", { exact: true }).inputValue()).toBe("1.5");
    expect(page.errors).toEqual([]);
  });
});
