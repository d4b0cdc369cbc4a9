import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { account, rateLimit, session, user } from "#app/db/schema.ts";
import { PASSWORD_TOO_SHORT_MESSAGE } from "#app/lib/auth.ts";
import { STARTER_CREDITS } from "#app/lib/constants.ts";
import { findUserId, signUp, testClientAddress, uniqueEmail } from "#tests/helpers/accounts.ts";
import { visibleText } from "#tests/helpers/html.ts";
import { authTest as test } from "#tests/helpers/auth-site.ts";
import type { TestServer } from "#tests/helpers/server.ts";
import type { FakeSmtpServer } from "#tests/fakes/smtp.ts";

/**
 * Sessions and the other ways in, over HTTP: password reset, bearer tokens, sessions read on
 * every request, the /auth page, Google sign-in and the rate limits. Accounts themselves are
 * auth.test.ts.
 */

describe("password reset", () => {
  async function resetLink(smtp: FakeSmtpServer, email: string) {
    const mail = await smtp.waitForMail((candidate) => candidate.to.includes(email) && candidate.subject.startsWith("Reset your"));
    const link = /https?:\/\/\S+\/api\/auth\/reset-password\/[^\s"<]+/.exec(mail.text)?.[0];
    expect(link).toBeTruthy();
    return new URL(link!);
  }

  test("mails a one-time link that sets a new password, confirms the email and signs out every session", async ({ server, postAuth, smtp }) => {
    const player = await signUp(server);
    const request = await postAuth("/request-password-reset", { email: player.email, redirectTo: "/auth/reset-password" });
    expect(request.status).toBe(200);
    const link = await resetLink(smtp, player.email);

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

  test("answers the same for an unknown address and sends nothing", async ({ smtp, postAuth }) => {
    const email = uniqueEmail("unknown");
    const response = await postAuth("/request-password-reset", { email, redirectTo: "/auth/reset-password" });
    expect(response.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.messages.some((mail) => mail.to.includes(email))).toBe(false);
  });

  test("lets a Google player add a password to the same account", async ({ server, postAuth, expectStarterCreditsOnce, googleSignIn, smtp }) => {
    const identity = { sub: "google-password-1", email: uniqueEmail("google-pw") };
    await googleSignIn(identity);
    const userId = (await findUserId(server, identity.email))!;
    await postAuth("/request-password-reset", { email: identity.email, redirectTo: "/auth/reset-password" });
    const link = await resetLink(smtp, identity.email);
    const token = new URL((await server.fetch(`${link.pathname}${link.search}`)).headers.get("location")!, server.url).searchParams.get("token");
    expect((await postAuth("/reset-password", { newPassword: "my own passphrase", token })).status).toBe(200);
    const signIn = await postAuth("/sign-in/email", { email: identity.email, password: "my own passphrase" });
    expect(signIn.status).toBe(200);
    expect(((await signIn.json()) as { user: { id: string } }).user.id).toBe(userId);
    await expectStarterCreditsOnce(userId);
  });
});

describe("bearer tokens", () => {
  test("accept `Authorization: Bearer <token>` wherever a session is read", async ({ server, pageFor }) => {
    const player = await signUp(server);
    const session = await server.fetch("/api/auth/get-session", { headers: { Authorization: `Bearer ${player.token}` } });
    expect(session.status).toBe(200);
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe(player.email);

    const { html } = await pageFor("/", { Authorization: `Bearer ${player.token}` });
    expect(html).toContain(player.email);

    const forged = await server.fetch("/api/auth/get-session", { headers: { Authorization: "Bearer forged-token" } });
    expect(await forged.json()).toBeNull();
  });

  test("stop working after sign-out", async ({ server, postAuth }) => {
    const player = await signUp(server);
    const signOut = await postAuth("/sign-out", {}, { cookie: player.cookie });
    expect(signOut.status).toBe(200);
    const session = await server.fetch("/api/auth/get-session", { headers: { Authorization: `Bearer ${player.token}` } });
    expect(await session.json()).toBeNull();
  });
});

describe("sessions read on every request", () => {
  const DAY_MS = 24 * 60 * 60 * 1000;

  async function storedSession(server: TestServer, userId: string) {
    const [row] = await server.connection.db.select().from(session).where(eq(session.userId, userId));
    return row;
  }

  test("accept the signed bearer token (set-auth-token) as well as the raw one, and no cookie whose signature was altered", async ({
    server,
    pageFor,
  }) => {
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

  test("renew a session in use once a day, pushing its expiry back 30 days", async ({ server, pageFor }) => {
    const player = await signUp(server);
    const renewedTwoDaysAgo = new Date(Date.now() + 28 * DAY_MS);
    await server.connection.db.update(session).set({ expiresAt: renewedTwoDaysAgo }).where(eq(session.userId, player.userId));
    expect((await pageFor("/", { Cookie: player.cookie })).html).toContain(player.email);
    const renewed = await storedSession(server, player.userId);
    expect(renewed!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * DAY_MS);
  });

  test("renew a session due for it on a Game Master call too, which then plays", async ({ server }) => {
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
    const renewed = await storedSession(server, player.userId);
    expect(renewed!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * DAY_MS);
  });

  test("refuse an expired session and delete it", async ({ server, pageFor }) => {
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
    expect(await storedSession(server, player.userId)).toBeUndefined();
  });
});

describe("the /auth page", () => {
  test("renders both tabs, the email field of type email and Google sign-in, for visitors", async ({ pageFor }) => {
    const { response, html } = await pageFor("/auth", {});
    expect(response.status).toBe(200);
    for (const text of ["Sign In", "Sign Up", "Continue with Google"]) expect(html).toContain(text);
    expect(html).toMatch(/<input[^>]*id="signin-email"[^>]*type="email"/);
    expect(html).not.toContain("Google sign-in is not configured on this server");
    expect(html).toContain('<meta name="robots" content="noindex"/>');
  });

  test("sends a signed-in visitor to / or to a same-site redirectTo, never off-site", async ({ server }) => {
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

  test("opens on the Sign Up tab, says why with the game's title, and comes back to the game", async ({ server, pageFor }) => {
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

  test("says nothing about a game it does not know, and never shows the address's text", async ({ pageFor }) => {
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
  test("creates the player with 20 credits on the first sign-in and adds none on the second", async ({
    server,
    expectStarterCreditsOnce,
    pageFor,
    googleSignIn,
  }) => {
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

  test("signs a Google account into the existing password account with the same (confirmed) email", async ({
    server,
    postAuth,
    expectStarterCreditsOnce,
    pageFor,
    confirmationLink,
    googleSignIn,
  }) => {
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

  test("does not join an unconfirmed password account (it may not be the owner's), and explains why", async ({
    server,
    pageFor,
    googleSignIn,
  }) => {
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

  test("reports a sign-in the player cancelled at Google", async ({ pageFor, googleSignIn }) => {
    const { location } = await googleSignIn(undefined, { redirectTo: "/credits" });
    expect(location).toBe("/auth?redirectTo=%2Fcredits&error=access_denied");
    const { html } = await pageFor(location, {});
    expect(html).toContain("Google sign-in was cancelled.");
  });
});

describe("rate limits", () => {
  test("answer 429 with a clear message after 10 sign-in attempts a minute from one address, kept in the database", async ({
    server,
    postAuth,
  }) => {
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

  test("limit account creation and confirmation mails per address", async ({ postAuth }) => {
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
