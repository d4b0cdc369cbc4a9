import { eq, sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { contactMessages, games, guides } from "#app/db/schema.ts";
import { ADMIN_TEXTS } from "#app/lib/admin-texts.ts";
import { adminApiTest as test, gameBody } from "#tests/helpers/admin-api.ts";

/**
 * The admin API's guides and contact messages, the requests it turns away, and the /admin page
 * (docs/spec.md §4, §5, §7), as an admin sees them over HTTP. Games and their content are
 * admin-api.test.ts.
 */

describe("guides", () => {
  test("creates a guide with SPEC's defaults; read time falls back to 10 when not a number", async ({ api }) => {
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

  test("requires title, slug, description and content, and a read time of at least 1", async ({ api }) => {
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

  test("refuses a slug in use, updates and deletes, and lists newest first", async ({ server, api }) => {
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
    expect(await server.connection.db.select().from(guides).where(eq(guides.id, id))).toEqual([]);
    expect((await api("DELETE", `/api/admin/guides/${id}`)).status).toBe(404);
  });
});

describe("contact messages", () => {
  test("are listed newest first with the total", async ({ server, api }) => {
    const base = Date.parse("2025-03-01T10:00:00Z");
    await server.connection.db.insert(contactMessages).values(
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
  test("answers 415 for a body that is not JSON and 400 for broken JSON", async ({ server, admin, api }) => {
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

  test("refuses a cross-site request even with the admin's cookie", async ({ server, api }) => {
    const before = await server.connection.db.select({ count: sql<number>`count(*)::int` }).from(games);
    const { status } = await api("POST", "/api/admin/games", gameBody({ slug: "csrf" }), { Origin: "https://evil.example" });
    expect(status).toBe(403);
    expect(await server.connection.db.select({ count: sql<number>`count(*)::int` }).from(games)).toEqual(before);
  });

  test("answers 405 with Allow for a method the address does not take", async ({ server, admin }) => {
    const response = await server.fetch("/api/admin/games", { method: "PATCH", headers: { Cookie: admin.cookie } });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, POST");
  });
});

describe("the /admin page for an admin", () => {
  test("renders the panel on the server with its tabs and lists", async ({ server, admin }) => {
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

  test("shows 'Failed to load games. Please try again.' when the games cannot be read, and the rest of the panel still", async ({
    server,
    admin,
  }) => {
    await server.connection.db.execute(sql`ALTER TABLE games RENAME TO games_unavailable`);
    try {
      const response = await server.fetch("/admin?tab=games", { headers: { Cookie: admin.cookie } });
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain(ADMIN_TEXTS.gamesLoadFailed);
      expect(html).toContain("Admin Panel");
    } finally {
      await server.connection.db.execute(sql`ALTER TABLE games_unavailable RENAME TO games`);
    }
  });
});
