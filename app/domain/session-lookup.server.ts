import { createHmac, timingSafeEqual } from "node:crypto";
import { parseCookies } from "better-auth/cookies";
import { and, eq, isNull, sql } from "drizzle-orm";
import { preparedQuery } from "../db/prepared.server.ts";
import { session, user, userRoles } from "../db/schema.ts";
import type { UserRole } from "../lib/constants.ts";

/**
 * Reading a session on every request, in one prepared query. better-auth's own getSession runs
 * its endpoint machinery (context, validation, plugin hooks) and two queries, which made it the
 * largest part of a Game Master turn's latency. This reads the same session the same way — the
 * token from better-auth's signed cookie or a bearer token, valid while it has not expired — and
 * leaves to better-auth every case that writes: a session due for its daily renewal or expired
 * (which better-auth deletes), and signed bearer tokens, whose checks are the bearer plugin's.
 */

export interface SessionSettings {
  /** better-auth's session cookie name (with its __Secure- prefix on https). */
  cookieName: string;
  secret: string;
  expiresInSeconds: number;
  updateAgeSeconds: number;
}

/** Which session a request was signed in with: what its live streams are closed by (realtime.server.ts). */
export interface SessionRef {
  id: string;
  expiresAt: Date;
}

export interface StoredSessionUser {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  roles: UserRole[];
  session: SessionRef;
}

/** What a request's credentials say: no session, a token to look up, or a case for better-auth. */
export type SessionCredentials = { kind: "none" } | { kind: "token"; token: string } | { kind: "better-auth" };

/** better-call's signed cookie value: `token.signature`, the signature HMAC-SHA256 in padded base64. */
const SIGNATURE = /^[A-Za-z0-9+/]{43}=$/;

function verifiedToken(signedValue: string, secret: string): string | undefined {
  const dot = signedValue.lastIndexOf(".");
  if (dot < 1) return undefined;
  const token = signedValue.slice(0, dot);
  const signature = signedValue.slice(dot + 1);
  if (!SIGNATURE.test(signature)) return undefined;
  const expected = createHmac("sha256", secret).update(token).digest();
  return timingSafeEqual(Buffer.from(signature, "base64"), expected) ? token : undefined;
}

export function sessionCredentials(headers: Headers, settings: SessionSettings): SessionCredentials {
  const authorization = headers.get("authorization");
  if (authorization && authorization.slice(0, 7).toLowerCase() === "bearer ") {
    const bearer = authorization.slice(7).trim();
    // A raw token is the bearer plugin's common case: it signs it itself and uses it as the session.
    if (bearer && !bearer.includes(".")) return { kind: "token", token: bearer };
    if (bearer) return { kind: "better-auth" };
  }
  const cookieHeader = headers.get("cookie");
  if (!cookieHeader) return { kind: "none" };
  const signedValue = parseCookies(cookieHeader).get(settings.cookieName);
  if (!signedValue) return { kind: "none" };
  const token = verifiedToken(signedValue, settings.secret);
  return token ? { kind: "token", token } : { kind: "none" };
}

const sessionUserQuery = preparedQuery((database) =>
  database
    .select({
      id: user.id,
      email: user.email,
      name: user.name,
      emailVerified: user.emailVerified,
      sessionId: session.id,
      expiresAt: session.expiresAt,
      roles: sql<UserRole[]>`coalesce((select array_agg(${userRoles.role}::text) from ${userRoles} where ${userRoles.userId} = ${user.id}), '{}')`,
    })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    // A disabled account's sessions are deleted when it is disabled; this keeps one that slipped
    // in meanwhile from being used.
    .where(and(eq(session.token, sql.placeholder("token")), isNull(user.disabledAt)))
    .prepare("session_user"),
);

/** A session's user; no session; or a session better-auth must read, since it will write to it. */
export type SessionLookup = { kind: "user"; user: StoredSessionUser } | { kind: "none" } | { kind: "better-auth" };

/**
 * A session expiring at or before this moment is better-auth's to read: due for its daily renewal
 * (it was last renewed updateAge ago), or expired (which better-auth deletes).
 */
export function renewalDueUntil(settings: SessionSettings, now = Date.now()): Date {
  return new Date(now + (settings.expiresInSeconds - settings.updateAgeSeconds) * 1000);
}

/** The user of a session token, if the session can be read without better-auth writing anything. */
export async function lookUpSession(token: string, settings: SessionSettings, now = Date.now()): Promise<SessionLookup> {
  const [row] = await sessionUserQuery().execute({ token });
  if (!row) return { kind: "none" };
  if (row.expiresAt.getTime() <= renewalDueUntil(settings, now).getTime()) return { kind: "better-auth" };
  const { sessionId, expiresAt, ...stored } = row;
  return { kind: "user", user: { ...stored, session: { id: sessionId, expiresAt } } };
}
