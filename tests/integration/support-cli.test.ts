import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user, userRoles } from "#app/db/schema.ts";
import { signUp, uniqueEmail } from "#tests/helpers/accounts.ts";
import { createTestDatabase } from "#tests/helpers/database.ts";
import { runProjectScript } from "#tests/helpers/process.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

/** `npm run <command> -- <args>` as an operator types it, against the test server's database. */
function cli(args: string[], env: Record<string, string | undefined> = server.database.env) {
  return runProjectScript(["scripts/cli.ts", ...args], { DATABASE_URL: undefined, LOG_LEVEL: "silent", ...env });
}

async function roles(userId: string) {
  const rows = await server.connection.db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId));
  return rows.map((row) => row.role);
}

async function showsAdminLink(cookie: string) {
  const html = await (await server.fetch("/", { headers: { Cookie: cookie } })).text();
  return html.includes('href="/admin"');
}

describe("admin:grant and admin:revoke while the server runs", () => {
  it("make a player an admin and back, by email, in any letter case", async () => {
    const player = await signUp(server);
    expect(await showsAdminLink(player.cookie)).toBe(false);

    const grant = await cli(["admin:grant", player.email.toUpperCase()]);
    expect(grant.stderr).toBe("");
    expect(grant.stdout.trim()).toBe(`${player.email} is now an admin.`);
    expect(grant.code).toBe(0);
    expect(await roles(player.userId)).toEqual(["admin"]);
    expect(await showsAdminLink(player.cookie)).toBe(true);

    const again = await cli(["admin:grant", player.email]);
    expect(again.stdout.trim()).toBe(`${player.email} was already an admin.`);
    expect(await roles(player.userId)).toEqual(["admin"]);

    const revoke = await cli(["admin:revoke", player.email]);
    expect(revoke.stdout.trim()).toBe(`${player.email} is no longer an admin.`);
    expect(revoke.code).toBe(0);
    expect(await roles(player.userId)).toEqual([]);
    expect(await showsAdminLink(player.cookie)).toBe(false);

    const twice = await cli(["admin:revoke", player.email]);
    expect(twice.stdout.trim()).toBe(`${player.email} was not an admin.`);
  });

  it("say clearly when no such user exists, and exit 1", async () => {
    const email = uniqueEmail("nobody");
    for (const command of ["admin:grant", "admin:revoke"]) {
      const result = await cli([command, email]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr.trim()).toBe(`No user with the email ${email} exists. They must sign up first.`);
    }
    const missing = await cli(["admin:grant"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe("Give the user's email address.");
  });
});

describe("a mistyped command or argument", () => {
  it("is refused before the database is opened", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "pae-cli-"));
    try {
      const cases: [string[], string][] = [
        [
          ["credits:grant", "player@example.com", "lots"],
          "Give the number of credits as a whole number, for example: credits:grant -- player@example.com 50",
        ],
        [["admin:grant"], "Give the user's email address."],
        [["admin:grnat", "player@example.com"], 'Unknown command "admin:grnat". Known: admin:grant, admin:revoke, credits:grant.'],
      ];
      for (const [args, message] of cases) {
        const result = await cli(args, { DATA_DIR: dataDir });
        expect(result, args.join(" ")).toMatchObject({ code: 1, stdout: "" });
        expect(result.stderr.trim()).toBe(message);
      }
      // PGlite makes its directory when it is opened.
      expect(existsSync(path.join(dataDir, "pglite"))).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("admin:grant with no server running", () => {
  it("opens the database itself", async () => {
    const database = await createTestDatabase({ prepared: true });
    try {
      const email = uniqueEmail("offline");
      const setup = await database.connect();
      const [created] = await setup.db
        .insert(user)
        .values({ id: `offline-${Date.now()}`, name: "Offline", email })
        .returning({ id: user.id });
      await setup.close();

      const result = await cli(["admin:grant", email], database.env);
      expect(result.stderr).toBe("");
      expect(result.stdout.trim()).toBe(`${email} is now an admin.`);

      const check = await database.connect();
      const rows = await check.db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, created!.id));
      await check.close();
      expect(rows.map((row) => row.role)).toEqual(["admin"]);
    } finally {
      await database.drop();
    }
  });
});
