import { afterAll, beforeAll, expect, it } from "vitest";
import { testClientAddress, uniqueEmail } from "#tests/helpers/accounts.ts";
import { createTestDatabase, type TestDatabase } from "#tests/helpers/database.ts";
import { startServerProcess, type ServerProcess } from "#tests/helpers/process.ts";

// The embedded default: no SMTP_URL, so mail goes to the server's log, where the link still works.
let database: TestDatabase;
let server: ServerProcess;

beforeAll(async () => {
  database = await createTestDatabase({ prepared: true });
  server = await startServerProcess({ ...database.env, SMTP_URL: undefined });
});

afterAll(async () => {
  await server.stop();
  await database.drop();
});

it("writes the confirmation mail to the log when SMTP_URL is unset, with a link that confirms", async () => {
  const email = uniqueEmail("logged");
  const signUp = await fetch(`${server.url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: server.url, "X-Forwarded-For": testClientAddress() },
    body: JSON.stringify({ email, password: "correct horse battery", name: "", callbackURL: "/auth/verify-email" }),
  });
  expect(signUp.status).toBe(200);

  await expect.poll(() => server.output().includes(`Mail to ${email} written to the log`)).toBe(true);
  const line = server
    .output()
    .split("\n")
    .find((candidate) => candidate.includes(`Mail to ${email}`))!;
  const entry = JSON.parse(line) as { mail: { to: string; subject: string; text: string } };
  expect(entry.mail.to).toBe(email);
  expect(entry.mail.subject).toBe("Confirm your email for Play as Empress");
  const link = /https?:\/\/\S+\/api\/auth\/verify-email\?token=\S+/.exec(entry.mail.text)?.[0];
  expect(link).toBeTruthy();

  const confirmed = await fetch(link!, { redirect: "manual" });
  expect(confirmed.status).toBe(302);
  const cookie = confirmed.headers
    .getSetCookie()
    .find((header) => header.startsWith("better-auth.session_token="))!
    .split(";")[0]!;
  const page = await (await fetch(`${server.url}/auth/verify-email`, { headers: { Cookie: cookie } })).text();
  expect(page).toContain("Email Confirmed");
});
