import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactMessages, gameContent, games, guides } from "#app/db/schema.ts";
import { ADMIN_TEXTS } from "#app/lib/admin-texts.ts";
import { makeAdmin, signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";

/** The admin API's rules (docs/spec.md §4, §5, §7) as an admin sees them over HTTP. */

let server: TestServer;
let admin: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signUp(server);
  await makeAdmin(server, admin);
});

afterAll(async () => {
  await server.close();
});

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await server.fetch(path, {
    method,
    headers: { Cookie: admin.cookie, ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const db = () => server.connection.db;

function gameBody(overrides: Record<string, unknown> = {}) {
  return {
    title: "Ice Palace",
    slug: "ice-palace",
    description: "Survive a winter court.",
    prompt: "You are the Game Master of a frozen court.",
    ...overrides,
  };
}

describe("games", () => {
  it("creates a game with SPEC's defaults and the slug forced to lowercase with '-' for other characters", async () => {
    const { status, body } = await api("POST", "/api/admin/games", gameBody({ slug: "Ice Palace", sortOrder: "not a number" }));
    expect(status).toBe(201);
    expect(body.game).toMatchObject({
      slug: "ice-palace",
      icon: "Crown",
      difficulty: "Beginner",
      category: "Adventure",
      sortOrder: 0,
      isActive: true,
      tagline: null,
      players: null,
    });
    const listed = await api("GET", "/api/admin/games");
    expect((listed.body.games as { slug: string }[]).map((game) => game.slug)).toContain("ice-palace");
  });

  it("refuses a game without title, slug, description or prompt, naming each field", async () => {
    const { status, body } = await api("POST", "/api/admin/games", { title: " ", slug: "", description: "", prompt: "" });
    expect(status).toBe(400);
    expect(body.fieldErrors).toEqual({
      title: "Title is required.",
      slug: "Slug is required.",
      description: "Description is required.",
      prompt: "Prompt is required.",
    });
    expect(body.error).toBe("Title is required.");
  });

  it("refuses values outside SPEC's lists", async () => {
    const { status, body } = await api("POST", "/api/admin/games", gameBody({ slug: "odd", icon: "Skull", difficulty: "Expert" }));
    expect(status).toBe(400);
    expect(Object.keys(body.fieldErrors).sort()).toEqual(["difficulty", "icon"]);
  });

  it("refuses a slug already in use with a clear message, and changes nothing", async () => {
    const { status, body } = await api("POST", "/api/admin/games", gameBody({ slug: "empress-simulator" }));
    expect(status).toBe(409);
    expect(body.error).toBe('The slug "empress-simulator" is already used by "Empress Simulator". Choose another slug.');
    expect(body.fieldErrors.slug).toBe(body.error);
    const rows = await db().select().from(games).where(eq(games.slug, "empress-simulator"));
    expect(rows).toHaveLength(1);
  });

  it("updates a game; a new slug carries its content along", async () => {
    const created = await api("POST", "/api/admin/games", gameBody({ title: "Jade Court", slug: "jade-court" }));
    const id = created.body.game.id as string;
    await db().insert(gameContent).values({ gameSlug: "jade-court", contentType: "introduction", title: "Intro", content: "Hello" });

    const { status, body } = await api(
      "PUT",
      `/api/admin/games/${id}`,
      gameBody({ title: "Jade Court Renamed", slug: "Jade Court 2", difficulty: "Advanced", category: "RPG", sortOrder: "7", isActive: true }),
    );
    expect(status).toBe(200);
    expect(body.game).toMatchObject({
      id,
      title: "Jade Court Renamed",
      slug: "jade-court-2",
      difficulty: "Advanced",
      category: "RPG",
      sortOrder: 7,
    });
    const moved = await db().select().from(gameContent).where(eq(gameContent.gameSlug, "jade-court-2"));
    expect(moved.map((record) => record.title)).toEqual(["Intro"]);

    const clash = await api("PUT", `/api/admin/games/${id}`, gameBody({ slug: "mary-sue-campus" }));
    expect(clash.status).toBe(409);
    expect(clash.body.error).toContain('already used by "Mary Sue Campus"');
  });

  it("deletes softly: the row stays with is_active false and leaves every admin list, content included", async () => {
    const created = await api("POST", "/api/admin/games", gameBody({ title: "Doomed", slug: "doomed" }));
    const id = created.body.game.id as string;
    const record = await api("POST", "/api/admin/game-content", { gameSlug: "doomed", title: "Doomed intro", content: "Soon gone." });
    expect(record.status).toBe(201);

    const { status, body } = await api("DELETE", `/api/admin/games/${id}`);
    expect(status).toBe(200);
    expect(body.game).toMatchObject({ id, title: "Doomed" });
    const [row] = await db().select().from(games).where(eq(games.id, id));
    expect(row).toMatchObject({ isActive: false, title: "Doomed" });
    expect(((await api("GET", "/api/admin/games")).body.games as { id: string }[]).some((game) => game.id === id)).toBe(false);
    const content = (await api("GET", "/api/admin/game-content")).body.content as { gameSlug: string }[];
    expect(content.some((item) => item.gameSlug === "doomed")).toBe(false);

    expect((await api("DELETE", `/api/admin/games/${id}`)).status).toBe(404);
    expect((await api("PUT", `/api/admin/games/${id}`, gameBody({ slug: "doomed" }))).status).toBe(404);
    const reuse = await api("POST", "/api/admin/games", gameBody({ slug: "doomed" }));
    expect(reuse.status).toBe(409);
    expect(reuse.body.error).toBe('The slug "doomed" is already used by the deleted game "Doomed". Choose another slug.');
  });

  it("answers 404 for an id that names no game", async () => {
    expect((await api("DELETE", "/api/admin/games/not-a-uuid")).status).toBe(404);
    expect((await api("DELETE", "/api/admin/games/00000000-0000-4000-8000-000000000000")).status).toBe(404);
  });
});

describe("game content", () => {
  it("creates content with SPEC's defaults: introduction, section order 0 when not a number, published", async () => {
    const { status, body } = await api("POST", "/api/admin/game-content", {
      gameSlug: "empress-simulator",
      title: "A note",
      content: "Some words.",
      sectionOrder: "abc",
    });
    expect(status).toBe(201);
    expect(body.content).toMatchObject({ contentType: "introduction", sectionOrder: 0, isPublished: true, gameSlug: "empress-simulator" });
  });

  it("requires a title and content, and an existing game", async () => {
    const missing = await api("POST", "/api/admin/game-content", { gameSlug: "empress-simulator", title: "", content: " " });
    expect(missing.status).toBe(400);
    expect(missing.body.fieldErrors).toEqual({ title: "Title is required.", content: "Content is required." });
    const unknown = await api("POST", "/api/admin/game-content", { gameSlug: "no-such-game", title: "T", content: "C" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.fieldErrors.gameSlug).toMatch(/Choose a game/);
  });

  it("updates, unpublishes and deletes a record", async () => {
    const created = await api("POST", "/api/admin/game-content", {
      gameSlug: "celebrity-life",
      contentType: "pro_tips",
      title: "Tips",
      content: "Be kind to the press.",
      sectionOrder: 40,
    });
    const id = created.body.content.id as string;
    const updated = await api("PUT", `/api/admin/game-content/${id}`, {
      gameSlug: "celebrity-life",
      contentType: "pro_tips",
      title: "Better tips",
      content: "Be kinder.",
      sectionOrder: "41",
      isPublished: false,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.content).toMatchObject({ title: "Better tips", sectionOrder: 41, isPublished: false });
    expect((await api("DELETE", `/api/admin/game-content/${id}`)).body.content).toEqual({ id, title: "Better tips" });
    expect(await db().select().from(gameContent).where(eq(gameContent.id, id))).toEqual([]);
    expect((await api("DELETE", `/api/admin/game-content/${id}`)).status).toBe(404);
  });

  it("lists one game's content with ?game=", async () => {
    const { body } = await api("GET", "/api/admin/game-content?game=mary-sue-campus");
    expect(body.content.length).toBeGreaterThan(0);
    const records = body.content as { gameSlug: string; gameTitle: string }[];
    expect(records.every((record) => record.gameSlug === "mary-sue-campus" && record.gameTitle === "Mary Sue Campus")).toBe(true);
  });
});

describe("the multi-section save", () => {
  async function freshGame(slug: string) {
    const created = await api("POST", "/api/admin/games", gameBody({ title: slug, slug }));
    return created.body.game as { id: string; slug: string };
  }

  it("answers 'Please select a game' without a game", async () => {
    const { status, body } = await api("PUT", "/api/admin/game-content/sections", { gameSlug: "", sections: [] });
    expect(status).toBe(400);
    expect(body.error).toBe(ADMIN_TEXTS.selectGame);
  });

  it("updates existing sections, creates filled-in new ones, skips blank ones, with placeholder orders", async () => {
    await freshGame("sections-game");
    const [existing] = await db()
      .insert(gameContent)
      .values({ gameSlug: "sections-game", contentType: "story_background", title: "Old", content: "Old story", sectionOrder: 3 })
      .returning();
    const { status, body } = await api("PUT", "/api/admin/game-content/sections", {
      gameSlug: "sections-game",
      sections: [
        { id: existing!.id, contentType: "story_background", title: "New story", content: "A new story.", sectionOrder: "3" },
        { contentType: "character_development", title: "Characters", content: "Who is who.", sectionOrder: "" },
        { contentType: "world_setting", title: "", content: "" },
        { contentType: "beginner_tips", title: "Only a title", content: "" },
        { contentType: "advanced_strategies", title: "Strategies", content: "Plan ahead.", sectionOrder: "99", isPublished: false },
      ],
    });
    expect(status).toBe(200);
    const rows = await db().select().from(gameContent).where(eq(gameContent.gameSlug, "sections-game"));
    const byType = Object.fromEntries(rows.map((row) => [row.contentType, row]));
    expect(body).toEqual({
      updated: 1,
      created: 2,
      skipped: ["beginner_tips"],
      ids: {
        story_background: existing!.id,
        character_development: byType.character_development!.id,
        advanced_strategies: byType.advanced_strategies!.id,
      },
    });
    expect(rows).toHaveLength(3);
    expect(byType.story_background).toMatchObject({ id: existing!.id, title: "New story", sectionOrder: 3 });
    expect(byType.character_development).toMatchObject({ title: "Characters", sectionOrder: 10, isPublished: true });
    expect(byType.advanced_strategies).toMatchObject({ sectionOrder: 99, isPublished: false });
  });

  it("is one transaction: a section that belongs to another game fails the save and nothing changes", async () => {
    await freshGame("atomic-game");
    const [foreign] = await db().select().from(gameContent).where(eq(gameContent.gameSlug, "empress-simulator")).limit(1);
    const { status } = await api("PUT", "/api/admin/game-content/sections", {
      gameSlug: "atomic-game",
      sections: [
        { contentType: "story_background", title: "Would be created", content: "First, in the same transaction." },
        { id: foreign!.id, contentType: foreign!.contentType, title: "Hijack", content: "Not this game's." },
      ],
    });
    expect(status).toBe(404);
    expect(await db().select().from(gameContent).where(eq(gameContent.gameSlug, "atomic-game"))).toEqual([]);
    const [untouched] = await db().select().from(gameContent).where(eq(gameContent.id, foreign!.id));
    expect(untouched!.title).toBe(foreign!.title);
  });

  it("refuses to blank a section that exists", async () => {
    const [existing] = await db()
      .select()
      .from(gameContent)
      .where(and(eq(gameContent.gameSlug, "sections-game"), eq(gameContent.contentType, "story_background")));
    const { status, body } = await api("PUT", "/api/admin/game-content/sections", {
      gameSlug: "sections-game",
      sections: [{ id: existing!.id, contentType: "story_background", title: "", content: "Still here" }],
    });
    expect(status).toBe(400);
    expect(body.fieldErrors).toEqual({ "sections.0.title": "Title is required for a section that already exists." });
  });
});

describe("guides", () => {
  it("creates a guide with SPEC's defaults; read time falls back to 10 when not a number", async () => {
    const { status, body } = await api("POST", "/api/admin/guides", {
      title: "Court Etiquette",
      slug: "Court Etiquette!",
      description: "Bow, never turn your back.",
      content: "## Bowing\n\nDeeply.",
      estimatedReadTime: "soon",
    });
    expect(status).toBe(201);
    expect(body.guide).toMatchObject({
      slug: "court-etiquette",
      category: "general",
      difficulty: "beginner",
      estimatedReadTime: 10,
      isPublished: true,
      featured: false,
    });
  });

  it("requires title, slug, description and content, and a read time of at least 1", async () => {
    const { status, body } = await api("POST", "/api/admin/guides", { title: "", slug: "", description: "", content: "", estimatedReadTime: "0" });
    expect(status).toBe(400);
    expect(body.fieldErrors).toEqual({
      title: "Title is required.",
      slug: "Slug is required.",
      description: "Description is required.",
      content: "Content is required.",
      estimatedReadTime: "Read time must be at least 1.",
    });
  });

  it("refuses a slug in use, updates and deletes, and lists newest first", async () => {
    const first = await api("POST", "/api/admin/guides", { title: "One", slug: "one", description: "d", content: "c" });
    const second = await api("POST", "/api/admin/guides", { title: "Two", slug: "two", description: "d", content: "c", featured: true });
    const taken = await api("POST", "/api/admin/guides", { title: "One again", slug: "one", description: "d", content: "c" });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe('The slug "one" is already used by "One". Choose another slug.');

    const listed = (await api("GET", "/api/admin/guides")).body.guides as { id: string }[];
    expect(listed.findIndex((guide) => guide.id === second.body.guide.id)).toBeLessThan(
      listed.findIndex((guide) => guide.id === first.body.guide.id),
    );

    const id = first.body.guide.id as string;
    const updated = await api("PUT", `/api/admin/guides/${id}`, {
      title: "One, revised",
      slug: "one",
      description: "d",
      content: "c",
      category: "strategy",
      difficulty: "advanced",
      estimatedReadTime: 25,
      isPublished: false,
      featured: true,
    });
    expect(updated.body.guide).toMatchObject({
      title: "One, revised",
      category: "strategy",
      difficulty: "advanced",
      estimatedReadTime: 25,
      isPublished: false,
      featured: true,
    });
    expect((await api("PUT", `/api/admin/guides/${id}`, { title: "x", slug: "two", description: "d", content: "c" })).status).toBe(409);

    expect((await api("DELETE", `/api/admin/guides/${id}`)).status).toBe(200);
    expect(await db().select().from(guides).where(eq(guides.id, id))).toEqual([]);
    expect((await api("DELETE", `/api/admin/guides/${id}`)).status).toBe(404);
  });
});

describe("contact messages", () => {
  it("are listed newest first with the total", async () => {
    const base = Date.parse("2025-03-01T10:00:00Z");
    await db()
      .insert(contactMessages)
      .values(
        ["older", "newest", "middle"].map((subject, index) => ({
          name: "Reader",
          email: "reader@example.com",
          subject,
          message: `Message ${subject}`,
          createdAt: new Date(base + [0, 2, 1][index]! * 60_000),
        })),
      );
    const { status, body } = await api("GET", "/api/admin/contact-messages");
    expect(status).toBe(200);
    expect(body.total).toBe(3);
    expect((body.messages as { subject: string }[]).map((message) => message.subject)).toEqual(["newest", "middle", "older"]);
  });
});

describe("requests the API turns away", () => {
  it("answers 415 for a body that is not JSON and 400 for broken JSON", async () => {
    const form = await api("POST", "/api/admin/games", undefined, { "Content-Type": "application/x-www-form-urlencoded" });
    expect(form.status).toBe(415);
    const broken = await server.fetch("/api/admin/games", {
      method: "POST",
      headers: { Cookie: admin.cookie, "Content-Type": "application/json" },
      body: "{ not json",
    });
    expect(broken.status).toBe(400);
    expect((await broken.json()).error).toBe("The request body is not valid JSON.");
  });

  it("refuses a cross-site request even with the admin's cookie", async () => {
    const before = await db()
      .select({ count: sql<number>`count(*)::int` })
      .from(games);
    const { status } = await api("POST", "/api/admin/games", gameBody({ slug: "csrf" }), { Origin: "https://evil.example" });
    expect(status).toBe(403);
    expect(
      await db()
        .select({ count: sql<number>`count(*)::int` })
        .from(games),
    ).toEqual(before);
  });

  it("answers 405 with Allow for a method the address does not take", async () => {
    const response = await server.fetch("/api/admin/games", { method: "PATCH", headers: { Cookie: admin.cookie } });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, POST");
  });
});

describe("the /admin page for an admin", () => {
  it("renders the panel on the server with its tabs and lists", async () => {
    const response = await server.fetch("/admin?tab=content&section=guides", { headers: { Cookie: admin.cookie } });
    expect(response.status).toBe(200);
    const html = await response.text();
    for (const text of [
      "Admin Panel",
      "Games Management",
      "SEO Content",
      "Game Content",
      "Multi-Section Editor",
      "Guides &amp; Articles",
      "Messages",
    ]) {
      expect(html).toContain(text);
    }
    expect(html).toContain('<meta name="robots" content="noindex, nofollow"/>');
  });

  it("shows 'Failed to load games. Please try again.' when the games cannot be read, and the rest of the panel still", async () => {
    await db().execute(sql`ALTER TABLE games RENAME TO games_unavailable`);
    try {
      const response = await server.fetch("/admin?tab=games", { headers: { Cookie: admin.cookie } });
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain(ADMIN_TEXTS.gamesLoadFailed);
      expect(html).toContain("Admin Panel");
    } finally {
      await db().execute(sql`ALTER TABLE games_unavailable RENAME TO games`);
    }
  });
});
