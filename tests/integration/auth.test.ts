import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { session, user } from "#app/db/schema.ts";
import {
  EMAIL_TAKEN_MESSAGE,
  INVALID_CREDENTIALS_MESSAGE,
  MAX_PROFILE_IMAGE_LENGTH,
  NAME_TOO_LONG_MESSAGE,
  PASSWORD_TOO_SHORT_MESSAGE,
  PROFILE_IMAGE_MESSAGE,
} from "#app/lib/auth.ts";
import { MAX_USERNAME_LENGTH, STARTER_CREDITS } from "#app/lib/constants.ts";
import { findUserId, signUp, uniqueEmail, type TestAccount } from "#tests/helpers/accounts.ts";
import { CookieJar } from "#tests/helpers/cookie-jar.ts";
import { authTest as test } from "#tests/helpers/auth-site.ts";
import type { TestServer } from "#tests/helpers/server.ts";

/**
 * Accounts over HTTP: sign-up with email and password, profile updates, session tokens kept out
 * of page script, email confirmation, sign-in and sign-out. Sessions and the other ways in are
 * auth-sessions.test.ts.
 */

describe("sign-up with email and password", () => {
  test("creates the player with 20 credits as one signup_bonus ledger row, and signs them in with an HTTP-only cookie", async ({
    postAuth,
    expectStarterCreditsOnce,
    pageFor,
  }) => {
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

  test("uses the email's first part as the name when no username is given", async ({ server, postAuth }) => {
    const email = uniqueEmail("noname");
    const response = await postAuth("/sign-up/email", { email, password: "correct horse battery", name: "   " });
    expect(response.status).toBe(200);
    const [row] = await server.connection.db.select({ name: user.name }).from(user).where(eq(user.email, email));
    expect(row?.name).toBe(email.split("@")[0]);
  });

  test("refuses an email that already has an account, with a message a person understands", async ({ server, postAuth }) => {
    const existing = await signUp(server);
    const response = await postAuth("/sign-up/email", { email: existing.email.toUpperCase(), password: "another password", name: "" });
    expect(response.status).toBe(422);
    expect((await response.json()).message).toBe(EMAIL_TAKEN_MESSAGE);
    const users = await server.connection.db.select().from(user).where(eq(user.email, existing.email));
    expect(users).toHaveLength(1);
  });

  test("refuses passwords shorter than 8 characters on the server and creates nothing", async ({ server, postAuth }) => {
    const email = uniqueEmail("short");
    const response = await postAuth("/sign-up/email", { email, password: "1234567", name: "" });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(PASSWORD_TOO_SHORT_MESSAGE);
    expect(await findUserId(server, email)).toBeUndefined();
  });

  test("refuses an email address that is not one", async ({ postAuth }) => {
    const response = await postAuth("/sign-up/email", { email: "not-an-email", password: "correct horse battery", name: "" });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe("Please enter a valid email address");
  });
});

describe("profile updates (POST /api/auth/update-user) obey the sign-up rules", () => {
  async function storedProfile(server: TestServer, userId: string) {
    const [row] = await server.connection.db
      .select({ name: user.name, image: user.image, updatedAt: user.updatedAt })
      .from(user)
      .where(eq(user.id, userId));
    return row;
  }

  test("refuses a name over 50 characters with a sentence, and stores nothing", async ({ server, postAuth }) => {
    const player = await signUp(server);
    const before = await storedProfile(server, player.userId);
    for (const name of ["x".repeat(MAX_USERNAME_LENGTH + 1), "x".repeat(900_000)]) {
      const response = await postAuth("/update-user", { name }, { cookie: player.cookie });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: NAME_TOO_LONG_MESSAGE, code: "invalid_input" });
    }
    expect(await storedProfile(server, player.userId)).toEqual(before);
  });

  test("refuses a picture that is not an https address or a path on this site, and stores nothing", async ({ server, postAuth }) => {
    const player = await signUp(server);
    const before = await storedProfile(server, player.userId);
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
    expect(await storedProfile(server, player.userId)).toEqual(before);
  });

  test("stores a name of at most 50 characters as sign-up does, and a picture that is an https address, a site path or off", async ({
    server,
    postAuth,
  }) => {
    const player = await signUp(server);
    const name = "y".repeat(MAX_USERNAME_LENGTH - "Lady ".length);
    expect(
      (await postAuth("/update-user", { name: `  Lady   ${name} `, image: "https://cdn.example.com/me.png" }, { cookie: player.cookie })).status,
    ).toBe(200);
    expect(await storedProfile(server, player.userId)).toMatchObject({ name: `Lady ${name}`, image: "https://cdn.example.com/me.png" });
    expect((await postAuth("/update-user", { image: "/covers/me.png" }, { cookie: player.cookie })).status).toBe(200);
    expect((await storedProfile(server, player.userId))?.image).toBe("/covers/me.png");
    expect((await postAuth("/update-user", { image: null }, { cookie: player.cookie })).status).toBe(200);
    expect((await storedProfile(server, player.userId))?.image).toBeNull();
  });

  test("refuses the same picture at sign-up, creating nothing", async ({ server, postAuth }) => {
    const email = uniqueEmail("image");
    const response = await postAuth("/sign-up/email", { email, password: "correct horse battery", name: "Lin", image: "javascript:alert(1)" });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe(PROFILE_IMAGE_MESSAGE);
    expect(await findUserId(server, email)).toBeUndefined();
  });
});

describe("session tokens stay out of page script", () => {
  const DAY_MS = 24 * 60 * 60 * 1000;

  test("get-session and list-sessions answer without a token, even with the session renewed", async ({ server }) => {
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

  test("nor does a profile update, which sets the cookie again", async ({ server, postAuth }) => {
    const player = await signUp(server);
    const updated = await postAuth("/update-user", { name: "Consort" }, { cookie: player.cookie });
    expect(updated.status).toBe(200);
    expect(updated.headers.get("set-auth-token")).toBeNull();
    expect(await updated.text()).not.toContain(player.token);
  });

  test("while sign-in still hands an API client its bearer token, in the body and the set-auth-token header", async ({ server, postAuth }) => {
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
  test("mails a confirmation link through SMTP on sign-up; the link confirms and signs in", async ({
    server,
    postAuth,
    pageFor,
    confirmationLink,
  }) => {
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

  test("resends the link to a signed-in player who has not confirmed yet", async ({ server, smtp, postAuth, pageFor, confirmationLink }) => {
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

  test("explains an invalid link and offers a new one", async ({ server, pageFor }) => {
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

  test("sends a signed-out visitor of the confirmation page to sign in first", async ({ server }) => {
    const response = await server.fetch("/auth/verify-email");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/auth?redirectTo=%2Fauth%2Fverify-email");
  });
});

describe("sign-in and sign-out", () => {
  let player: TestAccount;
  test.beforeAll(async ({ server }) => {
    player = await signUp(server);
  });

  test("signs in with the right password", async ({ postAuth }) => {
    const response = await postAuth("/sign-in/email", { email: player.email, password: player.password });
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie().some((header) => header.startsWith("better-auth.session_token="))).toBe(true);
  });

  test("says 'Invalid email or password' for a wrong password and for an unknown email alike", async ({ postAuth }) => {
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

  test("signs out: the session is deleted, the cookie cleared and no longer accepted", async ({ server, pageFor }) => {
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
