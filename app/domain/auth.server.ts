import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { bearer, genericOAuth, type GenericOAuthConfig } from "better-auth/plugins";
import { eq } from "drizzle-orm";
import { db } from "../db/database.server.ts";
import * as schema from "../db/schema.ts";
import { env, type Environment } from "../env.server.ts";
import { logger } from "../logger.server.ts";
import { ACCOUNT_DISABLED_MESSAGE, displayName, profileFieldsSchema, type ProfileFields } from "../lib/auth.ts";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, type UserRole } from "../lib/constants.ts";
import { confirmationMail, passwordResetMail } from "./account-mail.server.ts";
import { sendMail } from "./mail.server.ts";
import { CLIENT_ADDRESS_HEADER } from "./rate-limit.server.ts";
import { closeSessionStreams } from "./realtime.server.ts";
import { lookUpSession, renewalDueUntil, sessionCredentials, type SessionRef, type SessionSettings } from "./session-lookup.server.ts";

export const AUTH_BASE_PATH = "/api/auth";
const CONFIRMATION_LINK_HOURS = 24;
const PASSWORD_RESET_LINK_HOURS = 1;

/** Google through OpenID Connect (discovery, ID tokens checked against Google's keys), when configured. */
function googleProviders(config: Environment): GenericOAuthConfig[] {
  if (!config.GOOGLE_CLIENT_ID) return [];
  return [
    {
      providerId: "google",
      name: "Google",
      discoveryUrl: config.GOOGLE_DISCOVERY_URL,
      requireIdTokenVerification: true,
      clientId: config.GOOGLE_CLIENT_ID,
      clientSecret: config.GOOGLE_CLIENT_SECRET,
      scopes: ["openid", "email", "profile"],
      prompt: "select_account",
    },
  ];
}

/** Profile fields checked by the one rule for sign-up and updates, refused with its sentence. */
function parseProfile(fields: { name: unknown; image: unknown }): ProfileFields {
  const parsed = profileFieldsSchema.safeParse(fields);
  if (parsed.success) return parsed.data;
  throw new APIError("BAD_REQUEST", { message: parsed.error.issues[0]?.message ?? "Please check your profile and try again." });
}

/**
 * Where a caller who just proved who they are receives the session token for `Authorization:
 * Bearer` (the bearer plugin's flow: the body's `token` and the `set-auth-token` header).
 */
const TOKEN_ISSUING_PATHS = new Set(["/sign-in/email", "/sign-up/email"]);

/** Endpoints that answer `{ session, … }`; list-sessions answers a list of them. */
const SESSION_ANSWERING_PATHS = new Set(["/get-session", "/update-session"]);

/** A session as better-auth answers it, without the token that would let whoever reads it act as the player. */
function withoutToken(session: unknown): unknown {
  if (typeof session !== "object" || session === null || !("token" in session)) return session;
  const { token: _token, ...rest } = session;
  return rest;
}

/**
 * A page's script never sees a session token (docs/decisions/045): a script injected into a page
 * one day could otherwise send it elsewhere and act as the player, cookie or no cookie (HTTP-only).
 * The session endpoints answer without it, and `set-auth-token` — which the bearer plugin adds to
 * every answer that renews the session cookie — stays on sign-in and sign-up, where API clients
 * get their token.
 */
function sessionTokensStayWithSignIn(): BetterAuthPlugin {
  return {
    id: "session-tokens-stay-with-sign-in",
    hooks: {
      after: [
        {
          matcher: (context) => !TOKEN_ISSUING_PATHS.has(context.path ?? ""),
          handler: createAuthMiddleware(async (context) => {
            const headers = context.context.responseHeaders;
            if (headers?.has("set-auth-token")) {
              headers.delete("set-auth-token");
              const exposed = (headers.get("access-control-expose-headers") ?? "")
                .split(",")
                .map((name) => name.trim())
                .filter((name) => name && name.toLowerCase() !== "set-auth-token");
              if (exposed.length > 0) headers.set("access-control-expose-headers", exposed.join(", "));
              else headers.delete("access-control-expose-headers");
            }
            const returned = context.context.returned;
            if (SESSION_ANSWERING_PATHS.has(context.path) && typeof returned === "object" && returned !== null && "session" in returned) {
              return context.json({ ...returned, session: withoutToken(returned.session) });
            }
            if (context.path === "/list-sessions" && Array.isArray(returned)) return context.json(returned.map(withoutToken));
          }),
        },
      ],
    },
  };
}

function createAuth() {
  const config = env();
  return betterAuth({
    appName: config.SITE_NAME,
    baseURL: config.PUBLIC_URL,
    // Without PUBLIC_URL, a default start is opened as localhost or 127.0.0.1 alike.
    trustedOrigins: config.SITE_ORIGINS,
    basePath: AUTH_BASE_PATH,
    secret: config.AUTH_SECRET,
    database: drizzleAdapter(db(), {
      provider: "pg",
      transaction: true,
      schema: {
        user: schema.user,
        session: schema.session,
        account: schema.account,
        verification: schema.verification,
        rateLimit: schema.rateLimit,
      },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      autoSignIn: true,
      resetPasswordTokenExpiresIn: PASSWORD_RESET_LINK_HOURS * 60 * 60,
      revokeSessionsOnPasswordReset: true,
      async sendResetPassword({ user, url }) {
        await sendMail(
          passwordResetMail({ to: user.email, name: user.name, url, siteName: config.SITE_NAME, validHours: PASSWORD_RESET_LINK_HOURS }),
        );
      },
      // The reset link reached the player's mailbox, which proves the address as well as the link in
      // the confirmation mail would.
      async onPasswordReset({ user }) {
        if (!user.emailVerified) await db().update(schema.user).set({ emailVerified: true }).where(eq(schema.user.id, user.id));
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: CONFIRMATION_LINK_HOURS * 60 * 60,
      async sendVerificationEmail({ user, url }) {
        await sendMail(
          confirmationMail({ to: user.email, name: user.name, url, siteName: config.SITE_NAME, validHours: CONFIRMATION_LINK_HOURS }),
        );
      },
    },
    // Set by an admin (app/domain/players-admin.server.ts), never by the account's owner.
    user: { additionalFields: { disabledAt: { type: "date", required: false, input: false, returned: false } } },
    // A Google sign-in with the email of an existing account joins that account only once its
    // owner has confirmed the address (better-auth's default; docs/decisions/006).
    account: { accountLinking: { enabled: true } },
    databaseHooks: {
      // A disabled account gets no new session, whichever way it signs in (docs/decisions/034).
      // Read through better-auth's adapter: a sign-up or sign-in runs in its transaction, which
      // a query of our own would wait for (PGlite has one connection).
      session: {
        create: {
          async before(session, context) {
            const adapter = context?.context.internalAdapter ?? (await auth().$context).internalAdapter;
            // better-auth's user type leaves out additional fields; the row holds disabledAt.
            const owner = (await adapter.findUserById(session.userId)) as { disabledAt?: Date | null } | null;
            if (owner?.disabledAt) throw APIError.from("FORBIDDEN", { message: ACCOUNT_DISABLED_MESSAGE, code: "ACCOUNT_DISABLED" });
          },
        },
        // Whatever ends a session — signing out, revoking it or all of the account's, a password
        // reset — ends its live streams too, on every instance (docs/decisions/045). Runs once the
        // deletion commits.
        delete: {
          async after(session) {
            await closeSessionStreams(session.userId, session.id);
          },
        },
      },
      user: {
        create: {
          async before(user) {
            // A name longer than the form allows is not a name: refused, not cut, so nothing is kept of it.
            const profile = parseProfile({ name: user.name, image: user.image });
            return { data: { ...user, name: displayName(profile.name, user.email), image: profile.image ?? null } };
          },
        },
        update: {
          // Every later change of the profile (POST /api/auth/update-user) obeys the sign-up rules.
          async before(update) {
            if (update.name === undefined && update.image === undefined) return;
            const profile = parseProfile({ name: update.name, image: update.image });
            if (profile.name === "") throw new APIError("BAD_REQUEST", { message: "Your name cannot be empty." });
            return { data: { ...update, ...profile } };
          },
        },
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      // A session in use is renewed (its expiry pushed back) at most once a day.
      updateAge: 60 * 60 * 24,
    },
    // better-auth's own limiter keeps its counts in process memory by default; ours
    // (auth-rate-limit.server.ts) counts in the database, in front of the handler.
    rateLimit: { enabled: false },
    onAPIError: { errorURL: `${config.PUBLIC_URL}/auth` },
    advanced: {
      useSecureCookies: config.PUBLIC_URL.startsWith("https://"),
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
      // better-auth skips its Origin and CSRF checks under NODE_ENV=test; tests check what ships.
      disableOriginCheck: false,
      disableCSRFCheck: false,
    },
    // better-auth's own lines join the server's JSON log.
    logger: {
      level: "debug",
      log(level, message, ...details: unknown[]) {
        const err = details.find((detail) => detail instanceof Error);
        logger()[level]({ err, details: err || details.length === 0 ? undefined : details }, `better-auth: ${message}`);
      },
    },
    // After bearer(): its after hook is the one that hands out the token.
    plugins: [bearer(), genericOAuth({ config: googleProviders(config) }), sessionTokensStayWithSignIn()],
  });
}

type Auth = ReturnType<typeof createAuth>;
let instance: Auth | undefined;

/** The better-auth instance, created on first use (after configuration and the database exist). */
export function auth(): Auth {
  instance ??= createAuth();
  return instance;
}

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  roles: UserRole[];
  isAdmin: boolean;
  /** The session the request came with: live streams end with it. */
  session: SessionRef;
}

/** Whether Google sign-in is configured on this server. */
export function googleSignInEnabled(): boolean {
  return Boolean(env().GOOGLE_CLIENT_ID);
}

let sessionSettings: Promise<SessionSettings> | undefined;

function readSessionSettings(): Promise<SessionSettings> {
  sessionSettings ??= auth().$context.then((context) => ({
    cookieName: context.authCookies.sessionToken.name,
    secret: context.secret,
    expiresInSeconds: context.sessionConfig.expiresIn,
    updateAgeSeconds: context.sessionConfig.updateAge,
  }));
  return sessionSettings;
}

/**
 * Whether a Cookie header holds this site's session cookie, signed with its secret: a player's
 * request, told from a visitor's without reading the database (the session may have ended since).
 */
export async function carriesSignedSessionCookie(cookie: string | undefined): Promise<boolean> {
  if (!cookie) return false;
  return sessionCredentials(new Headers({ cookie }), await readSessionSettings()).kind === "token";
}

// A page's loaders each ask for the user of the same request: it is read once.
const sessionUsers = new WeakMap<Request, Promise<SessionUser | null>>();

/** The signed-in user of a request (session cookie or `Authorization: Bearer`), or null. */
export function getSessionUser(request: Request): Promise<SessionUser | null> {
  let sessionUser = sessionUsers.get(request);
  if (!sessionUser) {
    sessionUser = readSessionUser(request);
    sessionUsers.set(request, sessionUser);
  }
  return sessionUser;
}

async function readSessionUser(request: Request): Promise<SessionUser | null> {
  const settings = await readSessionSettings();
  const credentials = sessionCredentials(request.headers, settings);
  if (credentials.kind === "none") return null;
  if (credentials.kind === "token") {
    const lookup = await lookUpSession(credentials.token, settings);
    if (lookup.kind === "none") return null;
    if (lookup.kind === "user") return withRoles(lookup.user, lookup.user.roles);
  }
  const found = await auth().api.getSession({ headers: request.headers });
  if (!found) return null;
  const session = { id: found.session.id, expiresAt: found.session.expiresAt };
  return withRoles({ ...found.user, session }, await getUserRoles(found.user.id));
}

/**
 * The signed-in caller of a request, for a handler that reads the session in its own first
 * statement (a Game Master call: app/db/functions/begin_turn.sql), saving a round trip: the
 * session's token, checked for its signature but not yet looked up, with the moment before which
 * it would be better-auth's to read, and a way to read it the usual way when it is. A signed
 * bearer token is read the usual way at once. Null without credentials.
 */
export type SessionCaller =
  { kind: "user"; user: SessionUser } | { kind: "token"; token: string; renewalDueUntil: Date; readUser: () => Promise<SessionUser | null> };

export async function getSessionCaller(request: Request): Promise<SessionCaller | null> {
  const settings = await readSessionSettings();
  const credentials = sessionCredentials(request.headers, settings);
  if (credentials.kind === "none") return null;
  if (credentials.kind === "token") {
    return { kind: "token", token: credentials.token, renewalDueUntil: renewalDueUntil(settings), readUser: () => getSessionUser(request) };
  }
  const user = await getSessionUser(request);
  return user && { kind: "user", user };
}

function withRoles(user: Omit<SessionUser, "roles" | "isAdmin">, roles: UserRole[]): SessionUser {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    emailVerified: user.emailVerified,
    roles,
    isAdmin: roles.includes("admin"),
    session: user.session,
  };
}

export async function getUserRoles(userId: string): Promise<UserRole[]> {
  const rows = await db().select({ role: schema.userRoles.role }).from(schema.userRoles).where(eq(schema.userRoles.userId, userId));
  return rows.map((row) => row.role);
}
