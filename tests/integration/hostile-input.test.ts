import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_CODES } from "#app/lib/error-codes.ts";
import { makeAdmin, signUp, testClientAddress, type TestAccount } from "#tests/helpers/accounts.ts";
import { queryRows } from "#tests/helpers/database.ts";
import { hostileRoutes, STRANGERS_LORE_ENTRY, STRANGERS_WORLD, type HostileIds, type Route, type Who } from "#tests/helpers/hostile-routes.ts";
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
let ids: HostileIds;
const ROUTES = hostileRoutes(() => ids);

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
