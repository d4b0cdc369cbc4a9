import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { testClientAddress, uniqueEmail } from "#tests/helpers/accounts.ts";
import { createTestDatabase, type TestDatabase } from "#tests/helpers/database.ts";
import { startServerProcess, type ServerProcess } from "#tests/helpers/process.ts";

/**
 * The README's first command, `npm run demo`: a production start on the embedded defaults with the
 * test checkout, asked for by name (`npm start` alone takes no payments without Stripe).
 */
let database: TestDatabase;
let server: ServerProcess;

/** What `npm run demo` passes to the server after `npm start`'s own command. */
function demoArgs(): string[] {
  const { scripts } = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const match = /^npm start -- (.+)$/.exec(scripts.demo ?? "");
  if (!match) throw new Error(`package.json's demo script is not "npm start -- <args>": ${scripts.demo}`);
  return match[1]!.split(/\s+/);
}

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startServerProcess(database.env, [], demoArgs());
});

afterAll(async () => {
  await server.stop();
  await database.drop();
});

function post(pathname: string, body: unknown, cookie?: string) {
  return fetch(new URL(pathname, server.url), {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Origin: server.url,
      "X-Forwarded-For": testClientAddress(),
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: JSON.stringify(body),
  });
}

it("sells through the test checkout", async () => {
  const signedUp = await post("/api/auth/sign-up/email", { email: uniqueEmail(), password: "a long enough password", name: "Demo" });
  const cookie = signedUp.headers
    .getSetCookie()
    .find((header) => header.includes("session_token="))
    ?.split(";")[0];
  const created = await post("/api/create-payment", { packageType: "100" }, cookie);
  expect(created.status).toBe(200);
  expect(((await created.json()) as { url: string }).url).toMatch(new RegExp(`^${server.url}/checkout/test/test_cs_`));
});
