import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_MAILBOX_PATH } from "#app/lib/site.ts";
import { testClientAddress, uniqueEmail } from "#tests/helpers/accounts.ts";
import { createTestDatabase, type TestDatabase } from "#tests/helpers/database.ts";
import { startServerProcess, type ServerProcess } from "#tests/helpers/process.ts";

/**
 * The demo mailbox (issue 33: "the demo is honest"): `npm run demo` — the test checkout, no
 * SMTP_URL — shows the mail it would have sent at /dev/mailbox, where its links work; a site in
 * production, or one that sends its mail, has no such page.
 */

const databases: TestDatabase[] = [];

/** The built server as its own process, `npm start` with `args`, on a database of its own. */
async function serve(env: Record<string, string | undefined>, args: string[] = []) {
  const database = await createTestDatabase({ prepared: true });
  databases.push(database);
  return startServerProcess({ ...database.env, SMTP_URL: undefined, PAYMENTS_PROVIDER: undefined, ...env }, [], args);
}

function post(server: ServerProcess, path: string, body: unknown) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: server.url, "X-Forwarded-For": testClientAddress() },
    body: JSON.stringify(body),
  });
}

/** The mails the mailbox page lists: each one's subject, recipient and the links in it. */
async function mailbox(server: ServerProcess) {
  const response = await fetch(`${server.url}${DEMO_MAILBOX_PATH}`);
  expect(response.status).toBe(200);
  expect(response.headers.get("cache-control")).toContain("no-store");
  const html = await response.text();
  return [...html.matchAll(/<article[\s\S]*?<\/article>/g)].map(([article]) => ({
    subject: /<h2[^>]*>([^<]*)<\/h2>/.exec(article)?.[1],
    to: /<dt>To<\/dt><dd[^>]*>([^<]*)<\/dd>/.exec(article)?.[1],
    links: [...article.matchAll(/<a href="([^"]+)"/g)].map(([, href]) => href!.replaceAll("&amp;", "&")),
  }));
}

afterAll(async () => {
  for (const database of databases) await database.drop();
});

describe("in the demo", () => {
  let demo: ServerProcess;

  beforeAll(async () => {
    demo = await serve({}, ["--test-checkout"]);
  });

  afterAll(() => demo.stop());

  it("lists the confirmation mail of a sign-up, newest first, and its link confirms the account", async () => {
    expect(await mailbox(demo)).toEqual([]);
    const first = uniqueEmail("mailbox");
    const second = uniqueEmail("mailbox");
    expect((await post(demo, "/api/auth/sign-up/email", { email: first, password: "correct horse battery", name: "" })).status).toBe(200);
    expect((await post(demo, "/api/auth/sign-up/email", { email: second, password: "correct horse battery", name: "" })).status).toBe(200);

    const mails = await mailbox(demo);
    expect(mails.map((mail) => [mail.subject, mail.to])).toEqual([
      ["Confirm your email for Play as Empress", second],
      ["Confirm your email for Play as Empress", first],
    ]);
    const link = mails[1]!.links.find((href) => href.includes("/api/auth/verify-email?token="));
    expect(link).toBeTruthy();
    const confirmed = await fetch(link!, { redirect: "manual" });
    expect(confirmed.status).toBe(302);
    const cookie = confirmed.headers
      .getSetCookie()
      .find((header) => header.startsWith("better-auth.session_token="))!
      .split(";")[0]!;
    expect(await (await fetch(`${demo.url}/auth/verify-email`, { headers: { Cookie: cookie } })).text()).toContain("Email Confirmed");
  });

  it("lists a password reset mail, whose link opens the page that sets a new password", async () => {
    const email = uniqueEmail("reset");
    expect((await post(demo, "/api/auth/sign-up/email", { email, password: "correct horse battery", name: "" })).status).toBe(200);
    expect((await post(demo, "/api/auth/request-password-reset", { email, redirectTo: "/auth/reset-password" })).status).toBe(200);
    const [reset] = await mailbox(demo);
    expect(reset).toMatchObject({ subject: expect.stringContaining("password") as string, to: email });
    const landed = await fetch(reset!.links[0]!, { redirect: "manual" });
    expect(landed.status).toBe(302);
    expect(landed.headers.get("location")).toMatch(/\/auth\/reset-password\?token=/);
  });

  it("is not found from another machine (through a proxy on this one), where it would show strangers each other's mail", async () => {
    const fromAfar = await fetch(`${demo.url}${DEMO_MAILBOX_PATH}`, { headers: { "X-Forwarded-For": "203.0.113.9" } });
    expect(fromAfar.status).toBe(404);
    expect((await fetch(`${demo.url}${DEMO_MAILBOX_PATH}`)).status).toBe(200);
  });
});

describe("outside the demo", () => {
  it("is not found in production, where mail goes to the log only", async () => {
    const production = await serve({});
    try {
      const email = uniqueEmail("production");
      expect((await post(production, "/api/auth/sign-up/email", { email, password: "correct horse battery", name: "" })).status).toBe(200);
      expect((await fetch(`${production.url}${DEMO_MAILBOX_PATH}`)).status).toBe(404);
      await expect.poll(() => production.output().includes(`Mail to ${email} written to the log`)).toBe(true);
    } finally {
      await production.stop();
    }
  });

  it("is not found in a demo that sends its mail", async () => {
    const sending = await serve({ SMTP_URL: "smtp://127.0.0.1:2525" }, ["--test-checkout"]);
    try {
      expect((await fetch(`${sending.url}${DEMO_MAILBOX_PATH}`)).status).toBe(404);
    } finally {
      await sending.stop();
    }
  });
});
