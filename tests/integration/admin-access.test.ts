import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactMessages, contactReplies, creditLedger, gameContent, games, guides, session, user, userRoles } from "#app/db/schema.ts";
import { ADMIN_TEXTS } from "#app/lib/admin-texts.ts";
import { makeAdmin, signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";

/**
 * PRODUCT.md 'Roles and security': every admin loader and API checks the role on the server.
 * For a visitor and for a signed-in player, each endpoint refuses (redirect, 401 or 403) and
 * the database is exactly as before — with bodies that an admin's request would have applied.
 */

let server: TestServer;
let player: TestAccount;
let admin: TestAccount;
const ids = { game: "", content: "", guide: "", message: "" };

beforeAll(async () => {
  server = await startTestServer();
  player = await signUp(server);
  admin = await signUp(server);
  await makeAdmin(server, admin);
  const db = server.connection.db;
  const [game] = await db.select().from(games).orderBy(asc(games.sortOrder)).limit(1);
  const [record] = await db.select().from(gameContent).limit(1);
  const [guide] = await db.select().from(guides).limit(1);
  if (!game || !record || !guide) throw new Error("the seed is missing games, content or guides");
  Object.assign(ids, { game: game.id, content: record.id, guide: guide.id });
  const [message] = await db
    .insert(contactMessages)
    .values({ name: "Ada", email: "ada@example.com", subject: "Private question", message: "Only admins may read this." })
    .returning({ id: contactMessages.id });
  ids.message = message!.id;
});

afterAll(async () => {
  await server.close();
});

const newGame = {
  title: "Forbidden Palace",
  slug: "forbidden-palace",
  description: "A game nobody but an admin may create.",
  prompt: "You are the Game Master.",
};
const content = { gameSlug: "empress-simulator", contentType: "introduction", title: "Changed", content: "Changed by an intruder." };
const guide = { title: "Intruder Guide", slug: "intruder-guide", description: "Should not exist.", content: "Should not exist." };
const sections = {
  gameSlug: "empress-simulator",
  sections: [{ contentType: "world_setting", title: "Intruder world", content: "Should not exist.", sectionOrder: "5" }],
};

interface Endpoint {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: () => string;
  body?: unknown;
  kind: "page" | "page-data" | "api";
}

const endpoints: Record<string, Endpoint> = {
  "the /admin page": { method: "GET", path: () => "/admin", kind: "page" },
  "the /admin page's data for a client-side visit": { method: "GET", path: () => "/admin.data?_routes=routes%2Fadmin", kind: "page-data" },
  "GET /api/admin/games": { method: "GET", path: () => "/api/admin/games", kind: "api" },
  "POST /api/admin/games": { method: "POST", path: () => "/api/admin/games", body: newGame, kind: "api" },
  "PUT /api/admin/games/:id": { method: "PUT", path: () => `/api/admin/games/${ids.game}`, body: { ...newGame, slug: "renamed" }, kind: "api" },
  "DELETE /api/admin/games/:id": { method: "DELETE", path: () => `/api/admin/games/${ids.game}`, kind: "api" },
  "GET /api/admin/game-content": { method: "GET", path: () => "/api/admin/game-content", kind: "api" },
  "POST /api/admin/game-content": { method: "POST", path: () => "/api/admin/game-content", body: content, kind: "api" },
  "PUT /api/admin/game-content/:id": { method: "PUT", path: () => `/api/admin/game-content/${ids.content}`, body: content, kind: "api" },
  "DELETE /api/admin/game-content/:id": { method: "DELETE", path: () => `/api/admin/game-content/${ids.content}`, kind: "api" },
  "PUT /api/admin/game-content/sections": { method: "PUT", path: () => "/api/admin/game-content/sections", body: sections, kind: "api" },
  "GET /api/admin/guides": { method: "GET", path: () => "/api/admin/guides", kind: "api" },
  "POST /api/admin/guides": { method: "POST", path: () => "/api/admin/guides", body: guide, kind: "api" },
  "PUT /api/admin/guides/:id": { method: "PUT", path: () => `/api/admin/guides/${ids.guide}`, body: guide, kind: "api" },
  "DELETE /api/admin/guides/:id": { method: "DELETE", path: () => `/api/admin/guides/${ids.guide}`, kind: "api" },
  "GET /api/admin/contact-messages": { method: "GET", path: () => "/api/admin/contact-messages", kind: "api" },
  "PATCH /api/admin/contact-messages/:id": {
    method: "PATCH",
    path: () => `/api/admin/contact-messages/${ids.message}`,
    body: { handled: true },
    kind: "api",
  },
  "POST /api/admin/contact-messages/:id/replies": {
    method: "POST",
    path: () => `/api/admin/contact-messages/${ids.message}/replies`,
    body: { body: "A reply nobody but an admin may send." },
    kind: "api",
  },
  "GET /api/admin/dashboard": { method: "GET", path: () => "/api/admin/dashboard?days=7", kind: "api" },
  "GET /api/admin/dashboard/export": { method: "GET", path: () => "/api/admin/dashboard/export?dataset=revenue&days=7", kind: "api" },
  "GET /api/admin/players": { method: "GET", path: () => "/api/admin/players?q=example", kind: "api" },
  "GET /api/admin/players/:id": { method: "GET", path: () => `/api/admin/players/${player.userId}`, kind: "api" },
  "PATCH /api/admin/players/:id": { method: "PATCH", path: () => `/api/admin/players/${admin.userId}`, body: { disabled: true }, kind: "api" },
  "POST /api/admin/players/:id/credits": {
    method: "POST",
    path: () => `/api/admin/players/${player.userId}/credits`,
    body: { credits: 1000, note: "Free money", requestId: "00000000-0000-4000-8000-000000000000" },
    kind: "api",
  },
};

/** Every table an admin endpoint reads or writes, as one comparable value. */
async function snapshot() {
  const db = server.connection.db;
  const [gameRows, contentRows, guideRows, messageRows, replyRows, ledgerRows, userRows, sessionRows] = await Promise.all([
    db.select().from(games).orderBy(asc(games.id)),
    db.select().from(gameContent).orderBy(asc(gameContent.id)),
    db.select().from(guides).orderBy(asc(guides.id)),
    db.select().from(contactMessages).orderBy(asc(contactMessages.id)),
    db.select().from(contactReplies).orderBy(asc(contactReplies.id)),
    db.select().from(creditLedger).orderBy(asc(creditLedger.id)),
    db.select().from(user).orderBy(asc(user.id)),
    db.select({ id: session.id }).from(session).orderBy(asc(session.id)),
  ]);
  return JSON.stringify({ gameRows, contentRows, guideRows, messageRows, replyRows, ledgerRows, userRows, sessionRows });
}

function call(endpoint: Endpoint, headers: Record<string, string>) {
  return server.fetch(endpoint.path(), {
    method: endpoint.method,
    headers: { ...headers, ...(endpoint.body ? { "Content-Type": "application/json" } : {}) },
    body: endpoint.body ? JSON.stringify(endpoint.body) : undefined,
  });
}

describe.each(Object.entries(endpoints))("%s", (_name, endpoint) => {
  it("sends a visitor to sign in (pages) or answers 401 (API), and changes nothing", async () => {
    const before = await snapshot();
    const response = await call(endpoint, {});
    const body = await response.text();
    if (endpoint.kind === "page") {
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/auth?redirectTo=%2Fadmin");
    } else if (endpoint.kind === "page-data") {
      // Single fetch answers a redirect as data the router follows.
      expect(response.status).toBe(202);
      expect(body).toContain("SingleFetchRedirect");
      expect(body).toContain('"/auth?redirectTo=%2Fadmin"');
    } else {
      expect(response.status).toBe(401);
      expect(JSON.parse(body)).toEqual({ error: "Please sign in to continue.", code: "unauthenticated" });
    }
    expect(await snapshot()).toBe(before);
  });

  it("refuses a signed-in player with 403 (pages: 'Access Denied'), and changes nothing", async () => {
    const before = await snapshot();
    const response = await call(endpoint, { Cookie: player.cookie });
    const body = await response.text();
    expect(response.status).toBe(403);
    if (endpoint.kind === "page") {
      expect(body).toContain(ADMIN_TEXTS.accessDeniedTitle);
      expect(body).toContain(ADMIN_TEXTS.accessDenied.replace("'", "&#x27;"));
      expect(body).toContain(ADMIN_TEXTS.goBack);
      expect(body).not.toContain("Empress Simulator</h3>");
    } else if (endpoint.kind === "page-data") {
      expect(body).toContain("Access Denied");
      expect(body).not.toContain("empress-simulator");
    } else {
      expect(JSON.parse(body)).toEqual({ error: "You don't have admin privileges for this action.", code: "forbidden" });
    }
    expect(await snapshot()).toBe(before);
  });
});

describe("API clients with a bearer token", () => {
  it("are refused as a player and served as an admin", async () => {
    const asPlayer = await server.fetch("/api/admin/contact-messages", { headers: { Authorization: `Bearer ${player.token}` } });
    expect(asPlayer.status).toBe(403);
    const asAdmin = await server.fetch("/api/admin/contact-messages", { headers: { Authorization: `Bearer ${admin.token}` } });
    expect(asAdmin.status).toBe(200);
    expect((await asAdmin.json()).messages[0]).toMatchObject({ subject: "Private question" });
  });

  it("lose access as soon as the admin role is revoked", async () => {
    const revoked = await signUp(server);
    await makeAdmin(server, revoked);
    expect((await server.fetch("/api/admin/games", { headers: { Cookie: revoked.cookie } })).status).toBe(200);
    await server.connection.db.delete(userRoles).where(eq(userRoles.userId, revoked.userId));
    expect((await server.fetch("/api/admin/games", { headers: { Cookie: revoked.cookie } })).status).toBe(403);
    expect((await server.fetch("/admin", { headers: { Cookie: revoked.cookie } })).status).toBe(403);
  });
});
