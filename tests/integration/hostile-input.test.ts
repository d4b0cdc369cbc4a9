import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_CODES } from "#app/lib/error-codes.ts";
import { makeAdmin, signUp, testClientAddress, type TestAccount } from "#tests/helpers/accounts.ts";
import { queryRows } from "#tests/helpers/database.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";

/**
 * Every API route and form action, tried as an attacker and as a careless client would: NUL bytes,
 * lone surrogates, wrong types, huge strings, wrong content types, a foreign Origin, no session,
 * someone else's ids. Every answer must be a 4xx — the API's in the one error shape — and nothing
 * that matters may change: credits, the ledger, stories, payments, content, accounts.
 */

let server: TestServer;
let player: TestAccount;
let stranger: TestAccount;
let admin: TestAccount;
let ids: { game: string; content: string; guide: string; strangersCheckout: string };
/** A draft of the stranger's (its id fixed, since forms are written before the server starts): the player may neither publish, like nor remix it. */
const STRANGERS_WORLD = "5e1f0000-0000-4000-8000-000000000036";
/** A lorebook entry of the stranger's draft: the player may neither change nor delete it. */
const STRANGERS_LORE_ENTRY = "5e1f0000-0000-4000-8000-000000000065";
/** An id nothing holds: a moderation action, an appeal. */
const NO_SUCH_ID = "5e1f0000-0000-4000-8000-000000000064";

beforeAll(async () => {
  server = await startTestServer({ CHAT_TURNS_PER_MINUTE: "100000", AI_OFFLINE_WORD_DELAY_MS: "0" });
  [player, stranger, admin] = [await signUp(server), await signUp(server), await signUp(server)];
  await makeAdmin(server, admin);
  const first = async <Row>(query: ReturnType<typeof sql>) => (await queryRows<Row>(server.connection.db, query))[0]!;
  const checkout = await server.fetch("/api/create-payment", {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: stranger.cookie },
    body: JSON.stringify({ packageType: "100" }),
  });
  const { url } = (await checkout.json()) as { url: string };
  ids = {
    game: (await first<{ id: string }>(sql`select id from games limit 1`)).id,
    content: (await first<{ id: string }>(sql`select id from game_content limit 1`)).id,
    guide: (await first<{ id: string }>(sql`select id from guides limit 1`)).id,
    strangersCheckout: url.split("/").at(-1)!,
  };
  await queryRows(
    server.connection.db,
    sql`insert into games (id, slug, title, description, prompt, creator_id, status, is_active)
        values (${STRANGERS_WORLD}, 'strangers-draft', 'A stranger''s draft', 'Theirs.', 'Private.', ${stranger.userId}, 'draft', false)`,
  );
  await queryRows(
    server.connection.db,
    sql`insert into game_lore_entries (id, game_slug, title, keys, content)
        values (${STRANGERS_LORE_ENTRY}, 'strangers-draft', 'Their secret', 'secret', 'Only theirs.')`,
  );
});

afterAll(() => server.close());

/** What must not change, as one fingerprint per table. */
const GUARDED_TABLES = [
  "profiles",
  "credit_ledger",
  "stories",
  "game_messages",
  "reply_versions",
  "payments",
  "contact_messages",
  "games",
  "game_lore_entries",
  "world_likes",
  "world_versions",
  "world_reports",
  "moderation_actions",
  "moderation_appeals",
  "hidden_worlds",
  "suspended_creators",
  "blocked_terms",
  "content_rules",
  "game_content",
  "guides",
  "user",
  "user_roles",
  "account",
] as const;

async function fingerprint() {
  const parts = GUARDED_TABLES.map(
    (table) =>
      sql`(select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) from ${sql.identifier(table)} t) as ${sql.identifier(table)}`,
  );
  const [row] = await queryRows<Record<string, string>>(server.connection.db, sql`select ${sql.join(parts, sql`, `)}`);
  return row;
}

type Who = "player" | "admin" | "nobody";

interface Route {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: () => string;
  who: Who;
  /** A valid body: each probe spoils one part of it. */
  /** Read when the probes are made, after the fixtures exist. */
  json?: () => Record<string, unknown>;
  form?: Record<string, string>;
  /** Signed-out visitors may use it too (a contact form, signing out): "no session" is not a probe. */
  openToVisitors?: true;
  /** Query parameters that are not what the address takes, each tried in place of the valid ones. */
  spoiledQueries?: string[];
}

const loreEntry = { title: "Hostile", keys: "key", content: "Text.", alwaysOn: false, priority: 0, enabled: true };
const game = { title: "Hostile", slug: "hostile-game", description: "A game.", prompt: "Narrate.", icon: "Crown" };
const content = { gameSlug: "empress-simulator", contentType: "introduction", title: "Intro", content: "Text." };
const guide = { title: "Hostile guide", slug: "hostile-guide", description: "A guide.", content: "Text.", category: "general" };

/** Valid requests that would change something, so a probe that slips through shows in the fingerprint. */
const ROUTES: Record<string, Route> = {
  "game-chat": {
    method: "POST",
    path: () => "/api/game-chat",
    who: "player",
    json: () => ({ message: "I bow.", game_slug: "empress-simulator" }),
  },
  "game-messages PUT": {
    method: "PUT",
    path: () => "/api/game-messages",
    who: "player",
    json: () => ({ game_slug: "empress-simulator", messages: [] }),
  },
  "game-messages DELETE": { method: "DELETE", path: () => "/api/game-messages?game_slug=empress-simulator", who: "player" },
  "game-preview": {
    method: "POST",
    path: () => "/api/game-preview",
    who: "nobody",
    json: () => ({ game_slug: "empress-simulator", message: "I bow." }),
    openToVisitors: true,
  },
  "create-payment": { method: "POST", path: () => "/api/create-payment", who: "player", json: () => ({ packageType: "100" }) },
  "verify-payment": { method: "POST", path: () => "/api/verify-payment", who: "player", json: () => ({ sessionId: ids.strangersCheckout }) },
  "stripe webhook": { method: "POST", path: () => "/api/stripe/webhook", who: "nobody", json: () => ({ type: "checkout.session.completed" }) },
  "admin games POST": { method: "POST", path: () => "/api/admin/games", who: "admin", json: () => game },
  "admin game PUT": { method: "PUT", path: () => `/api/admin/games/${ids.game}`, who: "admin", json: () => game },
  "admin game DELETE": { method: "DELETE", path: () => `/api/admin/games/${ids.game}`, who: "admin" },
  "admin content POST": { method: "POST", path: () => "/api/admin/game-content", who: "admin", json: () => content },
  "admin content PUT": { method: "PUT", path: () => `/api/admin/game-content/${ids.content}`, who: "admin", json: () => content },
  "admin content DELETE": { method: "DELETE", path: () => `/api/admin/game-content/${ids.content}`, who: "admin" },
  "admin sections PUT": {
    method: "PUT",
    path: () => "/api/admin/game-content/sections",
    who: "admin",
    json: () => ({ gameSlug: "empress-simulator", sections: [{ contentType: "background", title: "Bg", content: "Text." }] }),
  },
  "admin guides POST": { method: "POST", path: () => "/api/admin/guides", who: "admin", json: () => guide },
  "admin guide PUT": { method: "PUT", path: () => `/api/admin/guides/${ids.guide}`, who: "admin", json: () => guide },
  "admin guide DELETE": { method: "DELETE", path: () => `/api/admin/guides/${ids.guide}`, who: "admin" },
  "admin contact messages": { method: "GET", path: () => "/api/admin/contact-messages", who: "admin" },
  "credits events": { method: "GET", path: () => "/api/credits/events", who: "player" },
  "game-messages GET": { method: "GET", path: () => "/api/game-messages?game_slug=empress-simulator", who: "player" },
  "game-messages GET, a page": {
    method: "GET",
    path: () => "/api/game-messages?game_slug=empress-simulator&limit=10&before=3",
    who: "player",
    spoiledQueries: ["limit=0", "limit=100000", "limit=x", "limit=%00", "before=0", "before=-1", "before=1e400", "before=x"].map(
      (query) => `game_slug=empress-simulator&${query}`,
    ),
  },
  "update-user": { method: "POST", path: () => "/api/auth/update-user", who: "player", json: () => ({ name: "Hostile" }) },
  "sign-up": {
    method: "POST",
    path: () => "/api/auth/sign-up/email",
    who: "nobody",
    json: () => ({ name: "New", email: "new-hostile@example.com", password: "a long enough password" }),
  },
  "sign-in": {
    method: "POST",
    path: () => "/api/auth/sign-in/email",
    who: "nobody",
    json: () => ({ email: "player@example.com", password: "a long enough password" }),
  },
  "password reset": {
    method: "POST",
    path: () => "/api/auth/request-password-reset",
    who: "nobody",
    json: () => ({ email: "player@example.com", redirectTo: "/auth/reset-password" }),
  },
  "contact form": {
    method: "POST",
    path: () => "/contact",
    who: "player",
    form: { name: "Ann", email: "ann@example.com", subject: "Hi", message: "Hello there." },
    openToVisitors: true,
  },
  "test checkout form": { method: "POST", path: () => `/checkout/test/${ids.strangersCheckout}`, who: "player", form: { intent: "pay" } },
  "sign-out form": { method: "POST", path: () => "/sign-out", who: "player", form: {}, openToVisitors: true },
  "publish form": {
    method: "POST",
    path: () => "/create",
    who: "player",
    form: { intent: "publish", worldId: STRANGERS_WORLD, visibility: "public" },
  },
  "unpublish form": { method: "POST", path: () => "/create", who: "player", form: { intent: "unpublish", worldId: STRANGERS_WORLD } },
  "world lore POST": { method: "POST", path: () => `/api/worlds/${STRANGERS_WORLD}/lore`, who: "player", json: () => loreEntry },
  "world lore PATCH": { method: "PATCH", path: () => `/api/worlds/${STRANGERS_WORLD}/lore`, who: "player", json: () => ({ scanDepth: 3 }) },
  "world lore entry PUT": {
    method: "PUT",
    path: () => `/api/worlds/${STRANGERS_WORLD}/lore/${STRANGERS_LORE_ENTRY}`,
    who: "player",
    json: () => loreEntry,
  },
  "world lore entry DELETE": { method: "DELETE", path: () => `/api/worlds/${STRANGERS_WORLD}/lore/${STRANGERS_LORE_ENTRY}`, who: "player" },
  "world lore world-info POST": {
    method: "POST",
    path: () => `/api/worlds/${STRANGERS_WORLD}/lore/world-info`,
    who: "player",
    json: () => ({ entries: [{ key: ["key"], comment: "Hostile", content: "Text." }] }),
  },
  "like a world": { method: "POST", path: () => `/worlds/${STRANGERS_WORLD}/like`, who: "player", form: {} },
  "remix a world": { method: "POST", path: () => `/worlds/${STRANGERS_WORLD}/remix`, who: "player", form: {} },
  "world cover form": { method: "POST", path: () => `/create/${STRANGERS_WORLD}/cover`, who: "player", form: { intent: "remove" } },
  "update a story's world version": {
    method: "POST",
    path: () => "/play/empress-simulator",
    who: "player",
    form: { intent: "update-world-version", storyId: "00000000-0000-4000-8000-000000000000" },
  },
  "settings form": { method: "POST", path: () => "/settings", who: "player", form: { mature: "confirm" } },
  "report a world": {
    method: "POST",
    path: () => `/worlds/${STRANGERS_WORLD}/report`,
    who: "player",
    form: { reason: "Spam or scam", details: "Links to a shop." },
  },
  "appeal a decision": { method: "POST", path: () => "/appeals", who: "player", form: { actionId: NO_SUCH_ID, text: "It was fair." } },
  "moderation: act on a world": {
    method: "POST",
    path: () => "/moderation",
    who: "admin",
    form: { intent: "act", action: "hide", worldId: NO_SUCH_ID, rule: "1", reason: "Spam." },
  },
  "moderation: decide an appeal": {
    method: "POST",
    path: () => "/moderation",
    who: "admin",
    form: { intent: "decide", appealId: NO_SUCH_ID, decision: "uphold", rule: "1", reason: "It stands." },
  },
  "moderation: block a term": { method: "POST", path: () => "/moderation", who: "admin", form: { intent: "add-term", term: "hostile" } },
  "moderation: unblock a term": {
    method: "POST",
    path: () => "/moderation",
    who: "admin",
    form: { intent: "remove-term", term: "never-blocked" },
  },
  "publish the content rules": { method: "POST", path: () => "/rules", who: "admin", form: { rules: "Be kind." } },
};

interface Probe {
  name: string;
  request: RequestInit & { path: string };
}

const HUGE = "x".repeat(300_000);
const SPOILED_VALUES: [string, unknown][] = [
  ["a NUL byte", "bad\u0000text"],
  ["a lone surrogate", "bad\uD800text"],
  ["a number", 12345],
  ["an object", { nested: true }],
  ["null", null],
  ["a huge string", HUGE],
];

function cookieOf(who: Who) {
  return who === "admin" ? admin.cookie : who === "player" ? player.cookie : undefined;
}

function request(
  route: Route,
  {
    body,
    contentType,
    cookie = cookieOf(route.who),
    origin = server.url,
    path = route.path(),
  }: {
    body?: string;
    contentType?: string;
    cookie?: string;
    origin?: string;
    path?: string;
  },
): Probe["request"] {
  const headers: Record<string, string> = { Origin: origin, "X-Forwarded-For": testClientAddress() };
  if (cookie) headers.Cookie = cookie;
  if (contentType) headers["Content-Type"] = contentType;
  return { path, method: route.method, headers, body };
}

function probesOf(route: Route): Probe[] {
  const probes: Probe[] = [];
  const encode = (value: Record<string, unknown>) => JSON.stringify(value);
  const form = (value: Record<string, string>) => new URLSearchParams(value).toString();
  const formType = "application/x-www-form-urlencoded";
  const json = route.json?.();
  const validBody = json ? encode(json) : route.form ? form(route.form) : undefined;
  const validType = route.json ? "application/json" : route.form ? formType : undefined;

  for (const field of Object.keys(json ?? {})) {
    for (const [what, value] of SPOILED_VALUES) {
      probes.push({ name: `${what} in ${field}`, request: request(route, { body: encode({ ...json, [field]: value }), contentType: validType }) });
    }
  }
  for (const field of Object.keys(route.form ?? {})) {
    // A form is UTF-8 on the wire: a lone surrogate cannot be sent in one (it arrives as U+FFFD).
    for (const [what, value] of SPOILED_VALUES.filter(([what, value]) => typeof value === "string" && what !== "a lone surrogate")) {
      probes.push({
        name: `${what} in ${field}`,
        request: request(route, { body: form({ ...route.form, [field]: value as string }), contentType: formType }),
      });
    }
  }
  if (json) {
    probes.push({ name: "text/plain", request: request(route, { body: validBody, contentType: "text/plain" }) });
    probes.push({ name: "a form", request: request(route, { body: form({ message: "hi" }), contentType: formType }) });
    probes.push({ name: "broken JSON", request: request(route, { body: '{"message":', contentType: validType }) });
    probes.push({ name: "a JSON array", request: request(route, { body: "[1,2]", contentType: validType }) });
    probes.push({ name: "an escaped NUL key", request: request(route, { body: '{"\\u0000":1}', contentType: validType }) });
    probes.push({
      name: "over a megabyte",
      request: request(route, { body: encode({ ...json, padding: "x".repeat(1_100_000) }), contentType: validType }),
    });
  }
  probes.push({
    name: "a NUL in the query string",
    request: request(route, { body: validBody, contentType: validType, path: `${route.path()}${route.path().includes("?") ? "&" : "?"}q=%00` }),
  });
  for (const query of route.spoiledQueries ?? []) {
    probes.push({ name: `?${query}`, request: request(route, { path: `${route.path().split("?")[0]}?${query}` }) });
  }
  if (route.who !== "nobody" && route.method !== "GET") {
    probes.push({
      name: "a foreign Origin",
      request: request(route, { body: validBody, contentType: validType, origin: "https://evil.example" }),
    });
  }
  if (route.who !== "nobody" && !route.openToVisitors)
    probes.push({ name: "no session", request: request(route, { body: validBody, contentType: validType, cookie: "" }) });
  if (route.who === "admin")
    probes.push({ name: "a player's session", request: request(route, { body: validBody, contentType: validType, cookie: player.cookie }) });
  return probes;
}

/** The checks each answer must pass; what failed, in words, for one readable assertion. */
async function judge(route: Route, probe: Probe): Promise<string | undefined> {
  const { path, ...init } = probe.request;
  const response = await server.fetch(path, { ...init, signal: AbortSignal.timeout(20_000) });
  const text = await response.text();
  const isApi = path.startsWith("/api/");
  // A page's form sends a visitor without a session to sign in, as a browser expects.
  const signInRedirect = !isApi && probe.name === "no session" && response.headers.get("location")?.startsWith("/auth");
  if (signInRedirect) return undefined;
  if (response.status < 400 || response.status >= 500) return `answered ${response.status}: ${text.slice(0, 200)}`;
  if (!isApi || path.startsWith("/api/auth/")) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`;
  }
  const { error, code } = body as { error?: unknown; code?: unknown };
  if (typeof error !== "string" || !error) return `answered ${response.status} without an error sentence: ${text.slice(0, 200)}`;
  if (!(ERROR_CODES as readonly unknown[]).includes(code)) return `answered ${response.status} with code ${String(code)}`;
  return undefined;
}

describe("hostile input", () => {
  for (const [name, route] of Object.entries(ROUTES)) {
    it(`${name}: every probe is refused with a 4xx and changes nothing`, async () => {
      const before = await fingerprint();
      const failures: string[] = [];
      for (const probe of probesOf(route)) {
        const failure = await judge(route, probe);
        if (failure) failures.push(`${probe.name}: ${failure}`);
      }
      expect(failures).toEqual([]);
      expect(await fingerprint()).toEqual(before);
    });
  }

  it("a page asked for with a NUL in its address shows the refusal as a page of the site", async () => {
    for (const path of ["/games?search=%00", "/guides/%00", "/game/empress-simulator?x=%00"]) {
      const response = await server.fetch(path);
      expect({ path, status: response.status, type: response.headers.get("content-type") }).toEqual({
        path,
        status: 400,
        type: "text/html; charset=utf-8",
      });
      const html = await response.text();
      expect(html).toContain("contains a character that cannot be stored");
      expect(html).toContain("We could not accept this request");
    }
  });

  it("someone else's ids: a stranger's checkout cannot be verified, paid or cancelled", async () => {
    const before = await fingerprint();
    const verify = await server.fetch("/api/verify-payment", {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: player.cookie },
      body: JSON.stringify({ sessionId: ids.strangersCheckout }),
    });
    expect(verify.status).toBe(404);
    expect(await verify.json()).toMatchObject({ code: "not_found" });
    for (const intent of ["pay", "cancel"]) {
      const submitted = await server.fetch(`/checkout/test/${ids.strangersCheckout}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: player.cookie },
        body: new URLSearchParams({ intent }).toString(),
      });
      expect(submitted.status).toBe(404);
    }
    expect(await fingerprint()).toEqual(before);
  });
});
