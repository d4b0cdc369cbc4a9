import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gameContent, games, guides, publicContentVersion } from "#app/db/schema.ts";
import { signUp } from "#tests/helpers/accounts.ts";
import { hrefs, links, visibleText } from "#tests/helpers/html.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";

/**
 * What visitors see follows what is in the database: publishing, ordering, deactivation, guides,
 * failures. Pages the server keeps for visitors never outlive a change once it is heard: these
 * writes go around the server, as another instance's would, so each read waits for the
 * notification (milliseconds) instead of assuming it has arrived.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

const db = () => server.connection.db;

async function html(path: string, init?: RequestInit) {
  const response = await server.fetch(path, init);
  return {
    status: response.status,
    location: response.headers.get("location"),
    cache: response.headers.get("x-cache"),
    body: await response.text(),
  };
}

async function text(path: string) {
  return visibleText((await html(path)).body);
}

describe("published game content", () => {
  it("shows only the first published record of each type, by section_order", async () => {
    const slug = "celebrity-life";
    const before = await text(`/game/${slug}`);
    expect(before).toContain("Rich Story Background");

    await db()
      .insert(gameContent)
      .values([
        {
          gameSlug: slug,
          contentType: "story_background",
          title: "Draft",
          content: "A DRAFT BACKGROUND nobody should see.",
          sectionOrder: -20,
          isPublished: false,
        },
        { gameSlug: slug, contentType: "story_background", title: "New", content: "THE NEW OPENING CHAPTER of Halcyon.", sectionOrder: -10 },
        { gameSlug: slug, contentType: "world_setting", title: "Later", content: "A LATER WORLD SECTION that comes second.", sectionOrder: 500 },
      ]);

    await expect.poll(() => text(`/game/${slug}`)).toContain("THE NEW OPENING CHAPTER of Halcyon.");
    const after = await text(`/game/${slug}`);
    expect(after).not.toContain("A DRAFT BACKGROUND");
    expect(after).not.toContain("A LATER WORLD SECTION");
    // The record it replaced is no longer shown either.
    const [seeded] = await db()
      .select({ content: gameContent.content })
      .from(gameContent)
      .where(and(eq(gameContent.gameSlug, slug), eq(gameContent.contentType, "story_background"), eq(gameContent.sectionOrder, 0)));
    expect(after).not.toContain(visibleText(seeded!.content).slice(0, 60));
  });

  it("hides a section whose records are all unpublished", async () => {
    const slug = "cultivation-simulator";
    await expect.poll(() => text(`/game/${slug}`)).toContain("Community Insights");
    await db()
      .update(gameContent)
      .set({ isPublished: false })
      .where(and(eq(gameContent.gameSlug, slug), eq(gameContent.contentType, "community_insights")));
    await expect.poll(() => text(`/game/${slug}`)).not.toContain("Community Insights");
  });

  it("renders admin HTML sanitised: no scripts, no event handlers", async () => {
    await db().insert(gameContent).values({
      gameSlug: "mary-sue-campus",
      contentType: "character_development",
      title: "Hostile",
      content: '<p onclick="alert(1)">SAFE TEXT</p><script>window.hacked = true</script><a href="javascript:alert(2)">link</a>',
      sectionOrder: -1,
    });
    await expect.poll(() => text("/game/mary-sue-campus")).toContain("SAFE TEXT");
    const { body } = await html("/game/mary-sue-campus");
    expect(body).not.toContain("window.hacked");
    expect(body).not.toContain('onclick="alert(1)"');
    expect(body).not.toContain("javascript:alert(2)");
  });
});

describe("guide and tips pages", () => {
  it("link to each other only while both are published, and go back to the game once unpublished", async () => {
    const slug = "matriarch-harem-simulator";
    expect(links((await html(`/game/${slug}/guide`)).body).map((link) => link.text)).toContain("Quick Tips & Tricks");

    await db()
      .update(gameContent)
      .set({ isPublished: false })
      .where(and(eq(gameContent.gameSlug, slug), eq(gameContent.contentType, "pro_tips")));

    await expect.poll(async () => (await html(`/game/${slug}/tips`)).status).toBe(302);
    await expect.poll(async () => (await html(`/game/${slug}/tips`)).location).toBe(`/game/${slug}`);
    const guide = await html(`/game/${slug}/guide`);
    expect(guide.status).toBe(200);
    expect(links(guide.body).map((link) => link.text)).not.toContain("Quick Tips & Tricks");
    expect(hrefs((await html(`/game/${slug}`)).body)).not.toContain(`/game/${slug}/tips`);

    await db()
      .update(gameContent)
      .set({ isPublished: false })
      .where(and(eq(gameContent.gameSlug, slug), eq(gameContent.contentType, "strategy_guide")));
    await expect.poll(async () => (await html(`/game/${slug}/guide`)).location).toBe(`/game/${slug}`);
    const sitemap = (await html("/sitemap.xml")).body;
    expect(sitemap).not.toContain(`/game/${slug}/guide`);
    expect(sitemap).not.toContain(`/game/${slug}/tips`);
    expect(sitemap).toContain(`/game/${slug}<`);
  });
});

describe("inactive games", () => {
  it("disappear from every list and their pages redirect to /games", async () => {
    await db().insert(games).values({
      slug: "retired-tale",
      title: "Retired Tale",
      description: "A story about to be retired.",
      tagline: "Gone soon",
      prompt: "Once upon a time.",
      sortOrder: -5,
    });
    await expect.poll(() => text("/")).toContain("Retired Tale");
    await expect.poll(() => text("/games")).toContain("Retired Tale");
    await expect.poll(async () => (await html("/game/retired-tale")).status).toBe(200);

    await db().update(games).set({ isActive: false }).where(eq(games.slug, "retired-tale"));

    await expect.poll(() => text("/games")).not.toContain("Retired Tale");
    await expect.poll(() => text("/")).not.toContain("Retired Tale");
    await expect.poll(() => text("/games/category/beginner")).not.toContain("Retired Tale");
    await expect.poll(() => html("/game/retired-tale")).toMatchObject({ status: 302, location: "/games" });
    await expect.poll(async () => (await html("/sitemap.xml")).body).not.toContain("retired-tale");
  });

  it("shows an unknown icon name with the fallback icon", async () => {
    await db().insert(games).values({
      slug: "odd-icon",
      title: "Odd Icon",
      description: "Has an icon SPEC does not know.",
      icon: "Dragon",
      prompt: "Hi.",
      sortOrder: 900,
    });
    await expect.poll(() => text("/games")).toContain("Odd Icon");
    const card = (await html("/games")).body.split('data-testid="game-card"').find((part) => part.includes("/game/odd-icon")) ?? "";
    expect(card).toMatch(/lucide-gamepad-?2/);
  });
});

describe("guides from the guides table", () => {
  it("appear on the hub and their own page while published", async () => {
    await db().insert(guides).values({
      slug: "reading-the-room",
      title: "Reading the Room",
      description: "How to notice what the Game Master is telling you between the lines.",
      content: "## Watch the hands\n\nEVERY GESTURE IS A CLUE.",
      category: "strategy",
      difficulty: "intermediate",
      estimatedReadTime: 9,
      featured: true,
    });
    await expect.poll(() => text("/guides")).toContain("Reading the Room");
    await expect.poll(() => text("/guides")).toContain("9 min read");
    const page = await html("/guides/reading-the-room");
    expect(page.status).toBe(200);
    expect(page.body).toContain("<h2>Watch the hands</h2>");
    await expect.poll(async () => (await html("/sitemap.xml")).body).toContain("/guides/reading-the-room");

    await db().update(guides).set({ isPublished: false }).where(eq(guides.slug, "reading-the-room"));
    await expect.poll(async () => (await html("/guides/reading-the-room")).location).toBe("/guides");
    await expect.poll(() => text("/guides")).not.toContain("Reading the Room");
  });
});

describe("pages kept for visitors", () => {
  it("are served from memory until games, content or guides change, and not after the change is heard", async () => {
    await html("/blog");
    await expect.poll(async () => (await html("/blog")).cache).toBe("HIT");
    await html("/games?difficulty=advanced");
    await expect.poll(async () => (await html("/games?difficulty=advanced")).cache).toBe("HIT");

    // A change made outside the server (as on another instance) is heard by notification, in milliseconds.
    await db().update(games).set({ title: "Empress Simulator Deluxe" }).where(eq(games.slug, "empress-simulator"));
    await expect.poll(() => text("/games?difficulty=advanced")).toContain("Empress Simulator Deluxe");
    await db().update(games).set({ title: "Empress Simulator" }).where(eq(games.slug, "empress-simulator"));
    await expect.poll(() => text("/games?difficulty=advanced")).not.toContain("Deluxe");
  });

  it("are never given to signed-in players, whose pages are personal", async () => {
    const account = await signUp(server);
    await html("/");
    const signedIn = await html("/", { headers: { Cookie: account.cookie } });
    expect(signedIn.cache).toBe("BYPASS");
    expect(signedIn.body).toContain(account.email);
    await expect.poll(async () => (await html("/")).body).not.toContain(account.email);
  });
});

describe("when the games query fails", () => {
  it("lists show SPEC's error and the game page redirects to /games", async () => {
    await db().execute(sql`ALTER TABLE games RENAME TO games_offline`);
    // Renaming a table changes no content: move the version on by hand so no kept page hides the failure.
    await db()
      .update(publicContentVersion)
      .set({ version: sql`${publicContentVersion.version} + 1` });
    try {
      await expect.poll(async () => (await html("/games")).status).toBe(503);
      for (const path of ["/games", "/games/category/beginner"]) {
        const page = await html(path);
        expect(page.status, path).toBe(503);
        expect(visibleText(page.body)).toContain("Failed to load games");
        expect(visibleText(page.body)).toContain("Please try again later.");
      }
      await expect.poll(() => html("/game/empress-simulator")).toMatchObject({ status: 302, location: "/games" });
      // The built-in guides need no database.
      await expect.poll(async () => (await html("/guides")).status).toBe(200);
    } finally {
      await db().execute(sql`ALTER TABLE games_offline RENAME TO games`);
    }
    await expect.poll(async () => (await html("/games")).status).toBe(200);
  });
});
