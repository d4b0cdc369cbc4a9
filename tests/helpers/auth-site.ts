import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import { creditLedger } from "#app/db/schema.ts";
import { getBalance, ledgerTotal } from "#app/domain/credits.server.ts";
import { STARTER_CREDITS } from "#app/lib/constants.ts";
import type { OidcIdentity } from "#tests/fakes/oidc.ts";
import { testClientAddress } from "./accounts.ts";
import { CookieJar } from "./cookie-jar.ts";
import { fakeGoogle, fakeSmtp, serverTest } from "./fixtures.ts";

/**
 * Accounts over HTTP (tests/integration/auth*.test.ts): a server that mails through a local SMTP
 * server and signs in with a local Google, and the requests a browser's auth pages send.
 */

export interface PostOptions {
  cookie?: string;
  address?: string;
}

export const authTest = serverTest
  .extend("google", { scope: "file" }, fakeGoogle)
  .extend("smtp", { scope: "file" }, fakeSmtp)
  .extend("serverEnv", { scope: "file" }, ({ smtp, google }) => ({
    SMTP_URL: smtp.url,
    MAIL_FROM: "Play as Empress <hello@playasempress.test>",
    GOOGLE_CLIENT_ID: "play-as-empress-test",
    GOOGLE_CLIENT_SECRET: "google-test-secret",
    GOOGLE_DISCOVERY_URL: google.discoveryUrl,
  }))
  /** A POST to better-auth's /api/auth`path` from the site's own origin, from a client address of its own unless given. */
  .extend(
    "postAuth",
    { scope: "file" },
    ({ server }) =>
      (path: string, body: unknown, { cookie, address = testClientAddress() }: PostOptions = {}) =>
        server.fetch(`/api/auth${path}`, {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            Origin: server.url,
            "X-Forwarded-For": address,
            ...(cookie ? { Cookie: cookie } : {}),
          },
          body: JSON.stringify(body),
        }),
  )
  .extend(
    "signupBonusRows",
    { scope: "file" },
    ({ server }) =>
      (userId: string) =>
        server.connection.db
          .select()
          .from(creditLedger)
          .where(and(eq(creditLedger.userId, userId), eq(creditLedger.reason, "signup_bonus"))),
  )
  .extend("expectStarterCreditsOnce", { scope: "file" }, ({ server, signupBonusRows }) => async (userId: string) => {
    expect(await getBalance(userId, server.connection.db)).toBe(STARTER_CREDITS);
    expect(await ledgerTotal(userId, server.connection.db)).toBe(STARTER_CREDITS);
    const rows = await signupBonusRows(userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ delta: STARTER_CREDITS, balanceAfter: STARTER_CREDITS, reference: userId });
  })
  .extend("pageFor", { scope: "file" }, ({ server }) => async (path: string, headers: Record<string, string>) => {
    const response = await server.fetch(path, { headers });
    return { response, html: await response.text() };
  })
  /** The confirmation link of the newest mail to `email`. */
  .extend("confirmationLink", { scope: "file" }, ({ smtp }) => async (email: string) => {
    const mail = await smtp.waitForMail((candidate) => candidate.to.includes(email));
    const link = /https?:\/\/\S+\/api\/auth\/verify-email\?token=[^\s"<]+/.exec(mail.text)?.[0];
    expect(link).toBeTruthy();
    return { mail, link: new URL(link!) };
  })
  /** A whole Google sign-in the way a browser does it: start, the provider's page, the callback. */
  .extend(
    "googleSignIn",
    { scope: "file" },
    ({ server, google, postAuth }) =>
      async (identity: OidcIdentity | undefined, { redirectTo = "/" } = {}) => {
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
      },
  );
