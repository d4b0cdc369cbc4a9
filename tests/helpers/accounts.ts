import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { BrowserContext } from "playwright-core";
import { session as sessions, userRoles, user as users } from "#app/db/schema.ts";
import type { StreamOwner } from "#app/domain/realtime.server.ts";
import type { UserRole } from "#app/lib/constants.ts";
import type { TestServer } from "./server.ts";

export interface TestAccount {
  userId: string;
  email: string;
  password: string;
  /** `name=value` of the session cookie, for the Cookie header. */
  cookie: string;
  /** The session token, for `Authorization: Bearer`. */
  token: string;
}

/** How a test calls the JSON API: GET without a body, POST with one, unless `method` says otherwise. */
export interface ApiInit {
  method?: string;
  body?: unknown;
}

/** A JSON API request as a player (by their bearer token), or as a visitor (`null`). */
export function apiRequest(server: Pick<TestServer, "fetch">, account: TestAccount | null, path: string, init: ApiInit = {}) {
  return server.fetch(path, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: {
      ...(account ? { Authorization: `Bearer ${account.token}` } : {}),
      ...(init.body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

/**
 * A client address from the benchmarking range 198.18.0.0/15, sent as X-Forwarded-For (the test
 * client is a trusted loopback proxy), so helpers do not share one per-address rate limit.
 */
export function testClientAddress() {
  const [a = 0, b = 0, c = 0] = randomBytes(3);
  return `198.${18 + (a % 2)}.${b}.${1 + (c % 254)}`;
}

export function uniqueEmail(prefix = "player") {
  return `${prefix}-${randomBytes(5).toString("hex")}@example.com`;
}

/**
 * A signed-up, signed-in player created through the real sign-up endpoint (the UI is not under
 * test where this is used).
 */
export function signUp(
  server: Pick<TestServer, "url" | "fetch">,
  { email = uniqueEmail(), password = "correct horse battery", name = "Test Player" } = {},
): Promise<TestAccount> {
  return authenticate(server, "sign-up", { email, password, name });
}

/** An existing player signed in through the real sign-in endpoint. */
export function signIn(server: Pick<TestServer, "url" | "fetch">, { email, password }: { email: string; password: string }): Promise<TestAccount> {
  return authenticate(server, "sign-in", { email, password });
}

async function authenticate(
  server: Pick<TestServer, "url" | "fetch">,
  action: "sign-up" | "sign-in",
  fields: { email: string; password: string; name?: string },
): Promise<TestAccount> {
  const response = await server.fetch(`/api/auth/${action}/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: server.url, "X-Forwarded-For": testClientAddress() },
    body: JSON.stringify(fields),
  });
  if (!response.ok) throw new Error(`${action} failed: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { token: string; user: { id: string } };
  const setCookie = response.headers.getSetCookie().find((header) => header.includes("session_token="));
  if (!setCookie) throw new Error(`${action} set no session cookie`);
  return { userId: body.user.id, email: fields.email, password: fields.password, cookie: setCookie.split(";")[0]!, token: body.token };
}

export async function grantRole(server: TestServer, account: TestAccount, role: UserRole) {
  await server.connection.db.insert(userRoles).values({ userId: account.userId, role }).onConflictDoNothing();
}

export const makeAdmin = (server: TestServer, account: TestAccount) => grantRole(server, account, "admin");
export const makeModerator = (server: TestServer, account: TestAccount) => grantRole(server, account, "moderator");

export async function findUserId(server: TestServer, email: string) {
  const [row] = await server.connection.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row?.id;
}

/** Puts the account's session cookie into a browser profile. */
export async function signInBrowser(context: BrowserContext, server: Pick<TestServer, "url">, account: TestAccount) {
  const [name, ...value] = account.cookie.split("=");
  await context.addCookies([{ name: name!, value: value.join("="), url: server.url, httpOnly: true, sameSite: "Lax" }]);
}

/** The account's session as the owner of live streams (app/domain/realtime.server.ts), read from the database. */
export async function streamOwner(server: Pick<TestServer, "connection">, account: TestAccount): Promise<StreamOwner> {
  const [row] = await server.connection.db
    .select({ id: sessions.id, expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(eq(sessions.token, account.token));
  if (!row) throw new Error("The account has no session");
  return { userId: account.userId, session: row };
}
