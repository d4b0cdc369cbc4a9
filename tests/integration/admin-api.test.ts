import { and, eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { gameContent, games } from "#app/db/schema.ts";
import { ADMIN_TEXTS } from "#app/lib/admin-texts.ts";
import { adminApiTest as test, gameBody, type AdminApi } from "#tests/helpers/admin-api.ts";

/**
 * The admin API's rules for games and their content (docs/spec.md §4, §5, §7) as an admin sees
 * them over HTTP. Guides, messages and what the API turns away are admin-api-guides.test.ts.
 */

describe("games", () => {
  test("creates a game with SPEC's defaults and the slug forced to lowercase with '-' for other characters", async ({ api }) => {
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

  test("refuses a game without title, slug, description or prompt, naming each field", async ({ api }) => {
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

  test("refuses values outside SPEC's lists", async ({ api }) => {
    const { status, body } = await api("POST", "/api/admin/games", gameBody({ slug: "odd", icon: "Skull", difficulty: "Expert" }));
    expect(status).toBe(400);
    expect(Object.keys(body.fieldErrors).sort()).toEqual(["difficulty", "icon"]);
  });

  test("refuses a slug already in use with a clear message, and changes nothing", async ({ server, api }) => {
    const { status, body } = await api("POST", "/api/admin/games", gameBody({ slug: "empress-simulator" }));
    expect(status).toBe(409);
    expect(body.error).toBe('The slug "empress-simulator" is already used by "Empress Simulator". Choose another slug.');
    expect(body.fieldErrors.slug).toBe(body.error);
    const rows = await server.connection.db.select().from(games).where(eq(games.slug, "empress-simulator"));
    expect(rows).toHaveLength(1);
  });

  test("updates a game; a new slug carries its content along", async ({ server, api }) => {
    const created = await api("POST", "/api/admin/games", gameBody({ title: "Jade Court", slug: "jade-court" }));
    const id = created.body.game.id as string;
    await server.connection.db
      .insert(gameContent)
      .values({ gameSlug: "jade-court", contentType: "introduction", title: "Intro", content: "Hello" });

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
    const moved = await server.connection.db.select().from(gameContent).where(eq(gameContent.gameSlug, "jade-court-2"));
    expect(moved.map((record) => record.title)).toEqual(["Intro"]);

    const clash = await api("PUT", `/api/admin/games/${id}`, gameBody({ slug: "mary-sue-campus" }));
    expect(clash.status).toBe(409);
    expect(clash.body.error).toContain('already used by "Mary Sue Campus"');
  });

  test("deletes softly: the row stays with is_active false and leaves every admin list, content included", async ({ server, api }) => {
    const created = await api("POST", "/api/admin/games", gameBody({ title: "Doomed", slug: "doomed" }));
    const id = created.body.game.id as string;
    const record = await api("POST", "/api/admin/game-content", { gameSlug: "doomed", title: "Doomed intro", content: "Soon gone." });
    expect(record.status).toBe(201);

    const { status, body } = await api("DELETE", `/api/admin/games/${id}`);
    expect(status).toBe(200);
    expect(body.game).toMatchObject({ id, title: "Doomed" });
    const [row] = await server.connection.db.select().from(games).where(eq(games.id, id));
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

  test("answers 404 for an id that names no game", async ({ api }) => {
    expect((await api("DELETE", "/api/admin/games/not-a-uuid")).status).toBe(404);
    expect((await api("DELETE", "/api/admin/games/00000000-0000-4000-8000-000000000000")).status).toBe(404);
  });
});

describe("game content", () => {
  test("creates content with SPEC's defaults: introduction, section order 0 when not a number, published", async ({ api }) => {
    const { status, body } = await api("POST", "/api/admin/game-content", {
      gameSlug: "empress-simulator",
      title: "A note",
      content: "Some words.",
      sectionOrder: "abc",
    });
    expect(status).toBe(201);
    expect(body.content).toMatchObject({ contentType: "introduction", sectionOrder: 0, isPublished: true, gameSlug: "empress-simulator" });
  });

  test("requires a title and content, and an existing game", async ({ api }) => {
    const missing = await api("POST", "/api/admin/game-content", { gameSlug: "empress-simulator", title: "", content: " " });
    expect(missing.status).toBe(400);
    expect(missing.body.fieldErrors).toEqual({ title: "Title is required.", content: "Content is required." });
    const unknown = await api("POST", "/api/admin/game-content", { gameSlug: "no-such-game", title: "T", content: "C" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.fieldErrors.gameSlug).toMatch(/Choose a game/);
  });

  test("updates, unpublishes and deletes a record", async ({ server, api }) => {
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
    expect(await server.connection.db.select().from(gameContent).where(eq(gameContent.id, id))).toEqual([]);
    expect((await api("DELETE", `/api/admin/game-content/${id}`)).status).toBe(404);
  });

  test("lists one game's content with ?game=", async ({ api }) => {
    const { body } = await api("GET", "/api/admin/game-content?game=mary-sue-campus");
    expect(body.content.length).toBeGreaterThan(0);
    const records = body.content as { gameSlug: string; gameTitle: string }[];
    expect(records.every((record) => record.gameSlug === "mary-sue-campus" && record.gameTitle === "Mary Sue Campus")).toBe(true);
  });
});

describe("the multi-section save", () => {
  async function freshGame(api: AdminApi, slug: string) {
    const created = await api("POST", "/api/admin/games", gameBody({ title: slug, slug }));
    return created.body.game as { id: string; slug: string };
  }

  test("answers 'Please select a game' without a game", async ({ api }) => {
    const { status, body } = await api("PUT", "/api/admin/game-content/sections", { gameSlug: "", sections: [] });
    expect(status).toBe(400);
    expect(body.error).toBe(ADMIN_TEXTS.selectGame);
  });

  test("updates existing sections, creates filled-in new ones, skips blank ones, with placeholder orders", async ({ server, api }) => {
    await freshGame(api, "sections-game");
    const [existing] = await server.connection.db
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
    const rows = await server.connection.db.select().from(gameContent).where(eq(gameContent.gameSlug, "sections-game"));
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

  test("is one transaction: a section that belongs to another game fails the save and nothing changes", async ({ server, api }) => {
    await freshGame(api, "atomic-game");
    const [foreign] = await server.connection.db.select().from(gameContent).where(eq(gameContent.gameSlug, "empress-simulator")).limit(1);
    const { status } = await api("PUT", "/api/admin/game-content/sections", {
      gameSlug: "atomic-game",
      sections: [
        { contentType: "story_background", title: "Would be created", content: "First, in the same transaction." },
        { id: foreign!.id, contentType: foreign!.contentType, title: "Hijack", content: "Not this game's." },
      ],
    });
    expect(status).toBe(404);
    expect(await server.connection.db.select().from(gameContent).where(eq(gameContent.gameSlug, "atomic-game"))).toEqual([]);
    const [untouched] = await server.connection.db.select().from(gameContent).where(eq(gameContent.id, foreign!.id));
    expect(untouched!.title).toBe(foreign!.title);
  });

  test("refuses to blank a section that exists", async ({ server, api }) => {
    const [existing] = await server.connection.db
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
