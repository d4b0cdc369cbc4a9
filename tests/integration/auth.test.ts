import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account, creditLedger, rateLimit, session, user } from "#app/db/schema.ts";
import { ledgerTotal, getBalance } from "#app/domain/credits.server.ts";
import {
  EMAIL_TAKEN_MESSAGE,
  INVALID_CREDENTIALS_MESSAGE,
  MAX_PROFILE_IMAGE_LENGTH,
  NAME_TOO_LONG_MESSAGE,
  PASSWORD_TOO_SHORT_MESSAGE,
  PROFILE_IMAGE_MESSAGE,
} from "#app/lib/auth.ts";
import { MAX_USERNAME_LENGTH, STARTER_CREDITS } from "#app/lib/constants.ts";
import { findUserId, signUp, testClientAddress, uniqueEmail, type TestAccount } from "#tests/helpers/accounts.ts";
import { CookieJar } from "#tests/helpers/cookie-jar.ts";
import { visibleText } from "#tests/helpers/html.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";
import { startOidcProvider, type FakeOidcProvider, type OidcIdentity } from "#tests/fakes/oidc.ts";
import { startSmtpServer, type FakeSmtpServer } from "#tests/fakes/smtp.ts";

let server: TestServer;
let google: FakeOidcProvider;
let smtp: FakeSmtpServer;

beforeAll(async () => {
  google = await startOidcProvider();
  smtp = await startSmtpServer();
  server = await startTestServer({
    SMTP_URL: smtp.url,
    MAIL_FROM: "Play as Empress <hello@playasempress.test>",
    GOOGLE_CLIENT_ID: "play-as-empress-test",
    GOOGLE_CLIENT_SECRET: "google-test-secret",
    GOOGLE_DISCOVERY_URL: google.discoveryUrl,
  });
});

afterAll(async () => {
  await server.close();
  await smtp.close();
  await google.stop();
});

interface PostOptions {
  cookie?: string;
  address?: string;
}

function postAuth(path: string, body: unknown, { cookie, address = testClientAddress() }: PostOptions = {}) {
  return server.fetch(`/api/auth${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Origin: server.url,
      "X-Forwarded-For": address,
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: JSON.stringify(body),
  });
}

async function signupBonusRows(userId: string) {
  return server.connection.db
    .select()
    .from(creditLedger)
    .where(and(eq(creditLedger.userId, userId), eq(creditLedger.reason, "signup_bonus")));
}

async function expectStarterCreditsOnce(userId: string) {
  expect(await getBalance(userId, server.connection.db)).toBe(STARTER_CREDITS);
  expect(await ledgerTotal(userId, server.connection.db)).toBe(STARTER_CREDITS);
  const rows = await signupBonusRows(userId);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ delta: STARTER_CREDITS, balanceAfter: STARTER_CREDITS, reference: userId });
}

async function pageFor(path: string, headers: Record<string, string>) {
  const response = await server.fetch(path, { headers });
  return { response, html: await response.text() };
}

/** The confirmation link of the newest mail to `email`. */
async function confirmationLink(email: string) {
  const mail = await smtp.waitForMail((candidate) => candidate.to.includes(email));
  const link = /https?:\/\/\S+\/api\/auth\/verify-email\?token=[^\s"<]+/.exec(mail.text)?.[0];
  expect(link).toBeTruthy();
  return { mail, link: new URL(link!) };
}

/** A whole Google sign-in the way a browser does it: start, the provider's page, the callback. */
async function googleSignIn(identity: OidcIdentity | undefined, { redirectTo = "/" } = {}) {
  google.signInAs(identity);
  const jar = new CookieJar();
  const back = redirectTo === "/" ? "" : `&redirectTo=${encodeURIComponent(redirectTo)}`;
  const start = await postAuth("/sign-in/social", {
    provider: "google",
    callbackURL: `/auth?welcome=back${back}`,
    newUserCallbackURL: `/auth?welcome=new${back}`,
    errorCallbackURL: `/auth?${back.slice(1)}`,
  });
  expect(start.status).toBe(200);
  jar.store(start);
  const { url } = (await start.json()) as { url: string };
  expect(url.startsWith(google.issuer)).toBe(true);
  const authorization = new URL(url);
  expect(authorization.searchParams.get("code_challenge")).toBeTruthy();
  expect(authorization.searchParams.get("scope")).toContain("email");

  const consent = await fetch(url, { redirect: "manual" });
  expect(consent.status).toBe(302);
  const callback = new URL(consent.headers.get("location")!);
  expect(callback.origin + callback.pathname).toBe(`${server.url}/api/auth/callback/google`);

  const finish = await server.fetch(`${callback.pathname}${callback.search}`, {
    headers: { Cookie: jar.header() ?? "", "X-Forwarded-For": testClientAddress() },
  });
  expect(finish.status).toBe(302);
  jar.store(finish);
  return { location: finish.headers.get("location")!, jar };
}

describe("sign-up with email and password", () => {
  it("creates the player with 20 credits as one signup_bonus ledger row, and signs them in with an HTTP-only cookie", async () => {
    const email = uniqueEmail("signup");
    const response = await postAuth("/sign-up/email", { email, password: "correct horse battery", name: "Empress Lin" });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { token: string; user: { id: string; email: string; name: string; emailVerified: boolean } };
    expect(body.user).toMatchObject({ email, name: "Empress Lin", emailVerified: false });
    expect(body.token).toBeTruthy();

    const cookie = response.headers.getSetCookie().find((header) => header.startsWith("better-auth.session_token="));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i); // PUBLIC_URL is http here; auth-https.test.ts covers https

    await expectStarterCreditsOnce(body.user.id);

    const { html } = await pageFor("/", { Cookie: cookie!.split(";")[0]! });
    expect(html).toContain(`${STARTER_CREDITS} Credits`);
    expect(html).toContain(email);
    expect(html).not.toContain(">Sign In<");
  });

  it("uses the email's first part as the name when no username is given", async () => {
    const email = uniqueEmail("noname");
    const response = await postAuth("/sign-up/email", { email, password: "correct horse battery", name: "   " });
    expect(response.status).toBe(200);
    const [row] = await server.connection.db.select({ name: user.name }).from(user).where(eq(user.email, email));
    expect(row?.name).toBe(email.split("@")[0]);
  });

  it("refuses an email that already has an account, with a message a person understands", async () => {
    const existing = await signUp(server);
    const response = await postAuth("/sign-up/email", { email: existing.email.toUpperCase(), password: "another password", name: "" });
    expect(response.status).toBe(422);
    expect((await response.json()).message).toBe(EMAIL_TAKEN_MESSAGE);
    const users = await server.connection.db.select().from(user).where(eq(user.email, existing.email));
    expect(users).toHaveLength(1);
  });

  it("refuses passwords shorter than 8 characters on the server and creates nothing", async () => {
    const email = uniqueEmail("short");
    const response = await postAuth("/sign-up/email", { email, password: "1234567", name: "" });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(PASSWORD_TOO_SHORT_MESSAGE);
    expect(await findUserId(server, email)).toBeUndefined();
  });

  it("refuses an email address that is not one", async () => {
    const response = await postAuth("/sign-up/email", { email: "not-an-email", password: "correct horse battery", name: "" });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe("Please enter a valid email address");
  });
});

describe("profile updates (POST /api/auth/update-user) obey the sign-up rules", () => {
  async function storedProfile(userId: string) {
    const [row] = await server.connection.db
      .select({ name: user.name, image: user.image, updatedAt: user.updatedAt })
      .from(user)
      .where(eq(user.id, userId));
    return row;
  }

  it("refuses a name over 50 characters with a sentence, and stores nothing", async () => {
    const player = await signUp(server);
    const before = await storedProfile(player.userId);
    for (const name of ["x".repeat(MAX_USERNAME_LENGTH + 1), "x".repeat(900_000)]) {
      const response = await postAuth("/update-user", { name }, { cookie: player.cookie });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: NAME_TOO_LONG_MESSAGE, code: "invalid_input" });
    }
    expect(await storedProfile(player.userId)).toEqual(before);
  });

  it("refuses a picture that is not an https address or a path on this site, and stores nothing", async () => {
    const player = await signUp(server);
    const before = await storedProfile(player.userId);
    for (const image of [
      "javascript:alert(1)",
      "http://example.com/me.png",
      "//evil.example/me.png",
      "data:image/png;base64,AAAA",
      "https://user:secret@example.com/me.png",
      `https://example.com/${"x".repeat(MAX_PROFILE_IMAGE_LENGTH)}`,
      42,
    ]) {
      const response = await postAuth("/update-user", { image }, { cookie: player.cookie });
      expect(response.status, String(image)).toBe(400);
      expect(await response.json()).toMatchObject({ error: PROFILE_IMAGE_MESSAGE, code: "invalid_input" });
    }
    const named = await postAuth("/update-user", { name: null }, { cookie: player.cookie });
    expect(named.status).toBe(400);
    expect((await named.json()).error).toBe("Your name must be text.");
    expect(await storedProfile(player.userId)).toEqual(before);
  });

  it("stores a name of at most 50 characters as sign-up does, and a picture that is an https address, a site path or off", async () => {
    const player = await signUp(server);
    const name = "y".repeat(MAX_USERNAME_LENGTH - "Lady ".length);
    expect(
      (await postAuth("/update-user", { name: `  Lady   ${name} `, image: "https://cdn.example.com/me.png" }, { cookie: player.cookie })).status,
    ).toBe(200);
    expect(await storedProfile(player.userId)).toMatchObject({ name: `Lady ${name}`, image: "https://cdn.example.com/me.png" });
    expect((await postAuth("/update-user", { image: "/covers/me.png" }, { cookie: player.cookie })).status).toBe(200);
    expect((await storedProfile(player.userId))?.image).toBe("/covers/me.png");
    expect((await postAuth("/update-user", { image: null }, { cookie: player.cookie })).status).toBe(200);
    expect((await storedProfile(player.userId))?.image).toBeNull();
  });

  it("refuses the same picture at sign-up, creating nothing", async () => {
    const email = uniqueEmail("image");
    const response = await postAuth("/sign-up/email", { email, password: "correct horse battery", name: "Lin", image: "javascript:alert(1)" });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe(PROFILE_IMAGE_MESSAGE);
    expect(await findUserId(server, email)).toBeUndefined();
  });
});

describe("session tokens stay out of page script", () => {
  const DAY_MS = 24 * 60 * 60 * 1000;

  it("get-session and list-sessions answer without a token, even with the session renewed", async () => {
    const player = await signUp(server);
    // Due for its daily renewal: get-session sets the cookie again, which the bearer plugin would hand out.
    await server.connection.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() + 28 * DAY_MS) })
      .where(eq(session.userId, player.userId));
    const current = await server.fetch("/api/auth/get-session", { headers: { Cookie: player.cookie } });
    expect(current.headers.getSetCookie().some((header) => header.includes("session_token="))).toBe(true);
    expect(current.headers.get("set-auth-token")).toBeNull();
    const body = await current.text();
    expect(JSON.parse(body)).toMatchObject({ user: { email: player.email }, session: { userId: player.userId } });
    expect(body).not.toContain(player.token);

    const listed = await server.fetch("/api/auth/list-sessions", { headers: { Cookie: player.cookie } });
    expect(listed.status).toBe(200);
    const sessions = (await listed.json()) as Record<string, unknown>[];
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ id: expect.any(String), userId: player.userId });
    expect(sessions[0]).not.toHaveProperty("token");
  });

  it("nor does a profile update, which sets the cookie again", async () => {
    const player = await signUp(server);
    const updated = await postAuth("/update-user", { name: "Consort" }, { cookie: player.cookie });
    expect(updated.status).toBe(200);
    expect(updated.headers.get("set-auth-token")).toBeNull();
    expect(await updated.text()).not.toContain(player.token);
  });

  it("while sign-in still hands an API client its bearer token, in the body and the set-auth-token header", async () => {
    const player = await signUp(server);
    const response = await postAuth("/sign-in/email", { email: player.email, password: player.password });
    expect(response.status).toBe(200);
    const { token } = (await response.json()) as { token: string };
    expect(response.headers.get("set-auth-token")).toBeTruthy();
    const current = await server.fetch("/api/auth/get-session", { headers: { Authorization: `Bearer ${token}` } });
    expect(((await current.json()) as { user: { email: string } }).user.email).toBe(player.email);
  });
});

describe("email confirmation", () => {
  it("mails a confirmation link through SMTP on sign-up; the link confirms and signs in", async () => {
    const email = uniqueEmail("confirm");
    const response = await postAuth("/sign-up/email", {
      email,
      password: "correct horse battery",
      name: "Lin",
      callbackURL: "/auth/verify-email",
    });
    expect(response.status).toBe(200);
    const { mail, link } = await confirmationLink(email);
    expect(mail.from).toBe("hello@playasempress.test");
    expect(mail.subject).toBe("Confirm your email for Play as Empress");
    expect(mail.text).toContain("Hello Lin,");
    expect(mail.html).toContain("Confirm my email");
    expect(link.searchParams.get("callbackURL")).toBe("/auth/verify-email");

    const confirmed = await server.fetch(`${link.pathname}${link.search}`);
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("location")).toBe("/auth/verify-email");
    const [row] = await server.connection.db.select({ emailVerified: user.emailVerified }).from(user).where(eq(user.email, email));
    expect(row?.emailVerified).toBe(true);

    const jar = new CookieJar();
    jar.store(confirmed);
    const { html } = await pageFor("/auth/verify-email", { Cookie: jar.header()! });
    expect(html).toContain("Email Confirmed");
    expect(html).toContain(email);
  });

  it("resends the link to a signed-in player who has not confirmed yet", async () => {
    const player = await signUp(server);
    await confirmationLink(player.email);
    const before = smtp.messages.filter((mail) => mail.to.includes(player.email)).length;

    const page = await pageFor("/auth/verify-email", { Cookie: player.cookie });
    expect(page.html).toContain("Confirm Your Email");
    expect(page.html).toContain("Resend confirmation email");

    const resend = await postAuth(
      "/send-verification-email",
      { email: player.email, callbackURL: "/auth/verify-email" },
      { cookie: player.cookie },
    );
    expect(resend.status).toBe(200);
    await expect.poll(() => smtp.messages.filter((mail) => mail.to.includes(player.email)).length).toBe(before + 1);
  });

  it("explains an invalid link and offers a new one", async () => {
    const player = await signUp(server);
    const response = await server.fetch("/api/auth/verify-email?token=not-a-token&callbackURL=%2Fauth%2Fverify-email");
    expect(response.status).toBe(302);
    const location = response.headers.get("location")!;
    expect(location).toBe("/auth/verify-email?error=INVALID_TOKEN");
    const { html } = await pageFor(location, { Cookie: player.cookie });
    expect(html).toContain("Confirmation Failed");
    expect(html).toContain("This confirmation link is not valid.");
    expect(html).toContain("Resend confirmation email");
  });

  it("sends a signed-out visitor of the confirmation page to sign in first", async () => {
    const response = await server.fetch("/auth/verify-email");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/auth?redirectTo=%2Fauth%2Fverify-email");
  });
});

describe("sign-in and sign-out", () => {
  let player: TestAccount;
  beforeAll(async () => {
    player = await signUp(server);
  });

  it("signs in with the right password", async () => {
    const response = await postAuth("/sign-in/email", { email: player.email, password: player.password });
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie().some((header) => header.startsWith("better-auth.session_token="))).toBe(true);
  });

  it("says 'Invalid email or password' for a wrong password and for an unknown email alike", async () => {
    const wrong = await postAuth("/sign-in/email", { email: player.email, password: "not the password" });
    expect(wrong.status).toBe(401);
    // The site's one error shape, with better-auth's message and code kept for its client.
    expect(await wrong.json()).toEqual({
      error: INVALID_CREDENTIALS_MESSAGE,
      code: "unauthenticated",
      message: INVALID_CREDENTIALS_MESSAGE,
      authCode: "INVALID_EMAIL_OR_PASSWORD",
    });
    const unknown = await postAuth("/sign-in/email", { email: uniqueEmail("nobody"), password: "not the password" });
    expect(unknown.status).toBe(401);
    expect((await unknown.json()).message).toBe(INVALID_CREDENTIALS_MESSAGE);
  });

  it("signs out: the session is deleted, the cookie cleared and no longer accepted", async () => {
    const other = await signUp(server);
    const response = await server.fetch("/sign-out", {
      method: "POST",
      headers: { Cookie: other.cookie, Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/");
    const cleared = response.headers.getSetCookie().find((header) => header.startsWith("better-auth.session_token="));
    expect(cleared).toMatch(/Max-Age=0/i);
    const sessions = await server.connection.db.select().from(session).where(eq(session.userId, other.userId));
    expect(sessions).toHaveLength(0);

    const { html } = await pageFor("/", { Cookie: other.cookie });
    expect(html).not.toContain(other.email);
    expect(html).toContain("Sign In");
  });
});

describe("password reset", () => {
  async function resetLink(email: string) {
    const mail = await smtp.waitForMail((candidate) => candidate.to.includes(email) && candidate.subject.startsWith("Reset your"));
    const link = /https?:\/\/\S+\/api\/auth\/reset-password\/[^\s"<]+/.exec(mail.text)?.[0];
    expect(link).toBeTruthy();
    return new URL(link!);
  }

  it("mails a one-time link that sets a new password, confirms the email and signs out every session", async () => {
    const player = await signUp(server);
    const request = await postAuth("/request-password-reset", { email: player.email, redirectTo: "/auth/reset-password" });
    expect(request.status).toBe(200);
    const link = await resetLink(player.email);

    const landing = await server.fetch(`${link.pathname}${link.search}`);
    expect(landing.status).toBe(302);
    const target = new URL(landing.headers.get("location")!, server.url);
    expect(target.pathname).toBe("/auth/reset-password");
    const token = target.searchParams.get("token")!;
    expect(token).toBeTruthy();
    expect(await (await server.fetch(`${target.pathname}${target.search}`)).text()).toContain("Choose a New Password");

    const tooShort = await postAuth("/reset-password", { newPassword: "short", token });
    expect(tooShort.status).toBe(400);
    expect((await tooShort.json()).message).toBe(PASSWORD_TOO_SHORT_MESSAGE);

    const reset = await postAuth("/reset-password", { newPassword: "a brand new passphrase", token });
    expect(reset.status).toBe(200);
    expect((await postAuth("/sign-in/email", { email: player.email, password: player.password })).status).toBe(401);
    expect((await postAuth("/sign-in/email", { email: player.email, password: "a brand new passphrase" })).status).toBe(200);
    const old = await server.fetch("/api/auth/get-session", { headers: { Cookie: player.cookie } });
    expect(await old.json()).toBeNull();
    const [row] = await server.connection.db.select({ emailVerified: user.emailVerified }).from(user).where(eq(user.id, player.userId));
    expect(row?.emailVerified).toBe(true);

    const again = await postAuth("/reset-password", { newPassword: "yet another passphrase", token });
    expect(again.status).toBe(400);
    expect((await again.json()).message).toBe("This link has expired or was already used. Please ask for a new one.");
    const spent = await server.fetch(`${link.pathname}${link.search}`);
    expect(spent.headers.get("location")).toBe(`${server.url}/auth/reset-password?error=INVALID_TOKEN`);
    expect(await (await server.fetch("/auth/reset-password?error=INVALID_TOKEN")).text()).toContain("This link has expired or was already used.");
  });

  it("answers the same for an unknown address and sends nothing", async () => {
    const email = uniqueEmail("unknown");
    const response = await postAuth("/request-password-reset", { email, redirectTo: "/auth/reset-password" });
    expect(response.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.messages.some((mail) => mail.to.includes(email))).toBe(false);
  });

  it("lets a Google player add a password to the same account", async () => {
    const identity = { sub: "google-password-1", email: uniqueEmail("google-pw") };
    await googleSignIn(identity);
    const userId = (await findUserId(server, identity.email))!;
    await postAuth("/request-password-reset", { email: identity.email, redirectTo: "/auth/reset-password" });
    const link = await resetLink(identity.email);
    const token = new URL((await server.fetch(`${link.pathname}${link.search}`)).headers.get("location")!, server.url).searchParams.get("token");
    expect((await postAuth("/reset-password", { newPassword: "my own passphrase", token })).status).toBe(200);
    const signIn = await postAuth("/sign-in/email", { email: identity.email, password: "my own passphrase" });
    expect(signIn.status).toBe(200);
    expect(((await signIn.json()) as { user: { id: string } }).user.id).toBe(userId);
    await expectStarterCreditsOnce(userId);
  });
});

describe("bearer tokens", () => {
  it("accept `Authorization: Bearer <token>` wherever a session is read", async () => {
    const player = await signUp(server);
    const session = await server.fetch("/api/auth/get-session", { headers: { Authorization: `Bearer ${player.token}` } });
    expect(session.status).toBe(200);
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe(player.email);

    const { html } = await pageFor("/", { Authorization: `Bearer ${player.token}` });
    expect(html).toContain(player.email);

    const forged = await server.fetch("/api/auth/get-session", { headers: { Authorization: "Bearer forged-token" } });
    expect(await forged.json()).toBeNull();
  });

  it("stop working after sign-out", async () => {
    const player = await signUp(server);
    const signOut = await postAuth("/sign-out", {}, { cookie: player.cookie });
    expect(signOut.status).toBe(200);
    const session = await server.fetch("/api/auth/get-session", { headers: { Authorization: `Bearer ${player.token}` } });
    expect(await session.json()).toBeNull();
  });
});

describe("sessions read on every request", () => {
  const DAY_MS = 24 * 60 * 60 * 1000;

  async function storedSession(userId: string) {
    const [row] = await server.connection.db.select().from(session).where(eq(session.userId, userId));
    return row;
  }

  it("accept the signed bearer token (set-auth-token) as well as the raw one, and no cookie whose signature was altered", async () => {
    const player = await signUp(server);
    const signedToken = player.cookie.slice(player.cookie.indexOf("=") + 1);
    expect((await pageFor("/", { Authorization: `Bearer ${signedToken}` })).html).toContain(player.email);

    const [name, value] = player.cookie.split("=") as [string, string];
    const signature = decodeURIComponent(value).split(".")[1]!;
    const altered = `${name}=${encodeURIComponent(`${player.token}.${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`)}`;
    const { html } = await pageFor("/", { Cookie: altered });
    expect(html).not.toContain(player.email);
    const forgedToken = `${name}=${encodeURIComponent(`${"x".repeat(32)}.${signature}`)}`;
    expect((await pageFor("/", { Cookie: forgedToken })).html).not.toContain(player.email);
  });

  it("renew a session in use once a day, pushing its expiry back 30 days", async () => {
    const player = await signUp(server);
    const renewedTwoDaysAgo = new Date(Date.now() + 28 * DAY_MS);
    await server.connection.db.update(session).set({ expiresAt: renewedTwoDaysAgo }).where(eq(session.userId, player.userId));
    expect((await pageFor("/", { Cookie: player.cookie })).html).toContain(player.email);
    const renewed = await storedSession(player.userId);
    expect(renewed!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * DAY_MS);
  });

  it("renew a session due for it on a Game Master call too, which then plays", async () => {
    const player = await signUp(server);
    const renewedTwoDaysAgo = new Date(Date.now() + 28 * DAY_MS);
    await server.connection.db.update(session).set({ expiresAt: renewedTwoDaysAgo }).where(eq(session.userId, player.userId));
    const turn = await server.fetch("/api/game-chat", {
      method: "POST",
      headers: { Cookie: player.cookie, "Content-Type": "application/json" },
      body: JSON.stringify({ message: "I look around.", game_slug: "empress-simulator" }),
    });
    expect(turn.status).toBe(200);
    expect(await turn.text()).toContain("data: [DONE]");
    const renewed = await storedSession(player.userId);
    expect(renewed!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * DAY_MS);
  });

  it("refuse an expired session and delete it", async () => {
    const player = await signUp(server);
    await server.connection.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(session.userId, player.userId));
    expect((await pageFor("/", { Cookie: player.cookie })).html).not.toContain(player.email);
    const refused = await server.fetch("/api/game-chat", {
      method: "POST",
      headers: { Authorization: `Bearer ${player.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ message: "Hello", game_slug: "empress-simulator" }),
    });
    expect(refused.status).toBe(401);
    expect(await storedSession(player.userId)).toBeUndefined();
  });
});

describe("the /auth page", () => {
  it("renders both tabs, the email field of type email and Google sign-in, for visitors", async () => {
    const { response, html } = await pageFor("/auth", {});
    expect(response.status).toBe(200);
    for (const text of ["Sign In", "Sign Up", "Continue with Google"]) expect(html).toContain(text);
    expect(html).toMatch(/<input[^>]*id="signin-email"[^>]*type="email"/);
    expect(html).not.toContain("Google sign-in is not configured on this server");
    expect(html).toContain('<meta name="robots" content="noindex"/>');
  });

  it("sends a signed-in visitor to / or to a same-site redirectTo, never off-site", async () => {
    const player = await signUp(server);
    const cases: [string, string][] = [
      ["/auth", "/"],
      ["/auth?redirectTo=%2Fplay%2Fempress-simulator", "/play/empress-simulator"],
      ["/auth?redirectTo=https%3A%2F%2Fevil.example%2Fsteal", "/"],
      ["/auth?redirectTo=%2F%2Fevil.example", "/"],
      ["/auth?redirectTo=%2F%5Cevil.example", "/"],
    ];
    for (const [path, target] of cases) {
      const response = await server.fetch(path, { headers: { Cookie: player.cookie } });
      expect(response.status, path).toBe(302);
      expect(response.headers.get("location"), path).toBe(target);
    }
  });
});

describe("the /auth page for a visitor who pressed Start Playing", () => {
  const reasonLine = `Create a free account to play Empress Simulator — you start with ${STARTER_CREDITS} free credits.`;

  it("opens on the Sign Up tab, says why with the game's title, and comes back to the game", async () => {
    const play = await server.fetch("/play/empress-simulator");
    expect(play.status).toBe(302);
    const location = play.headers.get("location")!;
    expect(new URL(location, server.url).searchParams.get("redirectTo")).toBe("/play/empress-simulator");

    const { response, html } = await pageFor(location, {});
    expect(response.status).toBe(200);
    expect(visibleText(html)).toContain(reasonLine);
    expect(html).toMatch(/<button[^>]*aria-selected="true"[^>]*>Sign Up<\/button>/);
    expect(html).toMatch(/<form[^>]*aria-label="Sign up with email"/);
  });

  it("says nothing about a game it does not know, and never shows the address's text", async () => {
    const injected = "Injected Title <b>bold</b>";
    for (const game of [injected, "no-such-game", ""]) {
      const path = `/auth?tab=signup&reason=play&game=${encodeURIComponent(game)}&redirectTo=%2Fplay%2Fempress-simulator`;
      const { response, html } = await pageFor(path, {});
      expect(response.status, path).toBe(200);
      const text = visibleText(html);
      expect(text, path).not.toContain("Create a free account to play");
      expect(text, path).toContain("Sign in to continue your adventures");
      expect(html, path).not.toContain("Injected Title");
    }
    // The reason comes with `reason=play` only.
    expect(visibleText((await pageFor("/auth?tab=signup&game=empress-simulator", {})).html)).not.toContain("Create a free account to play");
  });
});

describe("Google sign-in (OpenID Connect)", () => {
  it("creates the player with 20 credits on the first sign-in and adds none on the second", async () => {
    const identity = { sub: "google-first-1", email: uniqueEmail("google"), name: "Consort Mei" };
    const first = await googleSignIn(identity, { redirectTo: "/play/empress-simulator" });
    expect(first.location).toBe("/auth?welcome=new&redirectTo=%2Fplay%2Fempress-simulator");
    const userId = await findUserId(server, identity.email);
    expect(userId).toBeDefined();
    const [created] = await server.connection.db.select().from(user).where(eq(user.id, userId!));
    expect(created).toMatchObject({ name: "Consort Mei", emailVerified: true });
    await expectStarterCreditsOnce(userId!);

    // Back on /auth, signed in: the page greets, then goes on to where the player was headed.
    const landing = await server.fetch(first.location, { headers: { Cookie: first.jar.header()! } });
    expect(landing.status).toBe(200);
    expect(await landing.text()).toContain("Signing you in...");

    const second = await googleSignIn(identity);
    expect(second.location).toBe("/auth?welcome=back");
    const users = await server.connection.db.select().from(user).where(eq(user.email, identity.email));
    expect(users).toHaveLength(1);
    await expectStarterCreditsOnce(userId!);
    const { html } = await pageFor("/", { Cookie: second.jar.header()! });
    expect(html).toContain(identity.email);
  });

  it("signs a Google account into the existing password account with the same (confirmed) email", async () => {
    const email = uniqueEmail("linked");
    const signup = await postAuth("/sign-up/email", { email, password: "correct horse battery", name: "Lin" });
    expect(signup.status).toBe(200);
    const { link } = await confirmationLink(email);
    expect((await server.fetch(`${link.pathname}${link.search}`)).status).toBe(302);
    const userId = (await findUserId(server, email))!;

    const { location, jar } = await googleSignIn({ sub: "google-linked-1", email: email.toUpperCase() });
    expect(location).toBe("/auth?welcome=back");
    const users = await server.connection.db.select().from(user).where(eq(user.email, email));
    expect(users).toHaveLength(1);
    const providers = await server.connection.db.select({ providerId: account.providerId }).from(account).where(eq(account.userId, userId));
    expect(providers.map((row) => row.providerId).sort()).toEqual(["credential", "google"]);
    await expectStarterCreditsOnce(userId);
    const { html } = await pageFor("/", { Cookie: jar.header()! });
    expect(html).toContain(email);

    // The password still works too.
    expect((await postAuth("/sign-in/email", { email, password: "correct horse battery" })).status).toBe(200);
  });

  it("does not join an unconfirmed password account (it may not be the owner's), and explains why", async () => {
    const squatter = await signUp(server);
    const { location } = await googleSignIn({ sub: "google-victim-1", email: squatter.email });
    expect(location).toBe("/auth?error=account_not_linked");
    const users = await server.connection.db.select().from(user).where(eq(user.email, squatter.email));
    expect(users).toHaveLength(1);
    const providers = await server.connection.db
      .select({ providerId: account.providerId })
      .from(account)
      .where(eq(account.userId, squatter.userId));
    expect(providers.map((row) => row.providerId)).toEqual(["credential"]);

    const { html } = await pageFor(location, {});
    expect(html).toContain("This email already has an account with a password.");
  });

  it("reports a sign-in the player cancelled at Google", async () => {
    const { location } = await googleSignIn(undefined, { redirectTo: "/credits" });
    expect(location).toBe("/auth?redirectTo=%2Fcredits&error=access_denied");
    const { html } = await pageFor(location, {});
    expect(html).toContain("Google sign-in was cancelled.");
  });
});

describe("rate limits", () => {
  it("answer 429 with a clear message after 10 sign-in attempts a minute from one address, kept in the database", async () => {
    const address = testClientAddress();
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      const response = await postAuth("/sign-in/email", { email: uniqueEmail("guess"), password: "guess guess" }, { address });
      expect(response.status, `attempt ${attempt}`).toBe(401);
    }
    const limited = await postAuth("/sign-in/email", { email: uniqueEmail("guess"), password: "guess guess" }, { address });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await limited.json()).error).toMatch(/^Too many sign-in attempts\. Please wait (\d+ seconds?|1 minute) and try again\.$/);

    const [counter] = await server.connection.db
      .select()
      .from(rateLimit)
      .where(eq(rateLimit.key, `auth-sign-in:${address}`));
    expect(counter?.count).toBe(11);

    const elsewhere = await postAuth("/sign-in/email", { email: uniqueEmail("guess"), password: "guess guess" });
    expect(elsewhere.status).toBe(401);
  });

  it("limit account creation and confirmation mails per address", async () => {
    const address = testClientAddress();
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      const response = await postAuth("/sign-up/email", { email: uniqueEmail("burst"), password: "correct horse battery", name: "" }, { address });
      expect(response.status, `sign-up ${attempt}`).toBe(200);
    }
    const limited = await postAuth("/sign-up/email", { email: uniqueEmail("burst"), password: "correct horse battery", name: "" }, { address });
    expect(limited.status).toBe(429);
    expect((await limited.json()).error).toMatch(/^Too many accounts were created from your network\. Please wait \d+ minutes? and try again\.$/);

    const mailer = testClientAddress();
    const email = uniqueEmail("mailbomb");
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 6; attempt += 1) {
      statuses.push((await postAuth("/send-verification-email", { email }, { address: mailer })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
