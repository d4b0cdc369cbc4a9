import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { creditLedger } from "#app/db/schema.ts";
import { STARTER_CREDITS } from "#app/lib/constants.ts";
import { signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { creditsOf } from "#tests/helpers/payments.ts";
import { runProjectScript } from "#tests/helpers/process.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";
import { openEventStream } from "#tests/helpers/sse.ts";

/**
 * `npm run credits:grant -- <email> <n>` as an operator runs it (scripts/cli.ts in its own
 * process) while the server runs: on PGlite it must go through the running server, on PostgreSQL
 * it opens the database directly. Either way the grant is a ledger row and reaches open tabs.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

function grantCredits(...args: string[]) {
  return runProjectScript(["scripts/cli.ts", "credits:grant", ...args], { ...server.database.env, LOG_LEVEL: "silent" });
}

async function adminGrants(account: TestAccount) {
  const rows = await server.connection.db.select().from(creditLedger).where(eq(creditLedger.userId, account.userId));
  return rows.filter((row) => row.reason === "admin_grant").map((row) => row.delta);
}

describe(`credits:grant on ${process.env.TEST_DATABASE_DRIVER === "postgres" ? "PostgreSQL, directly" : "PGlite, through the running server"}`, () => {
  it("grants and removes credits as admin_grant ledger rows, live to open tabs", async () => {
    const player = await signUp(server);
    const tab = await openEventStream(`${server.url}/api/credits/events`, { Cookie: player.cookie });
    expect(await tab.nextCredits()).toBe(STARTER_CREDITS);

    const granted = await grantCredits(player.email, "50");
    expect(granted).toMatchObject({ code: 0, stderr: "" });
    expect(granted.stdout.trim()).toBe(`Granted 50 credits to ${player.email}; the balance is now ${STARTER_CREDITS + 50}.`);
    expect(await tab.nextCredits()).toBe(STARTER_CREDITS + 50);

    const removed = await grantCredits(player.email.toUpperCase(), "-30");
    expect(removed.code).toBe(0);
    expect(removed.stdout.trim()).toBe(`Removed 30 credits from ${player.email}; the balance is now ${STARTER_CREDITS + 20}.`);
    expect(await tab.nextCredits()).toBe(STARTER_CREDITS + 20);
    tab.close();

    const credits = await creditsOf(server, player);
    expect(credits.balance).toBe(STARTER_CREDITS + 20);
    expect(credits.ledgerTotal).toBe(credits.balance);
    expect(await adminGrants(player)).toEqual([50, -30]);
  });

  it("refuses mistakes with one clear line and exit code 1, changing nothing", async () => {
    const player = await signUp(server);
    const cases: [string[], string][] = [
      [[player.email, "-1000"], `${player.email} does not have 1000 credits to remove.`],
      [["nobody@example.com", "5"], "No user with the email nobody@example.com exists. They must sign up first."],
      [[player.email, "lots"], "Give the number of credits as a whole number, for example: credits:grant -- player@example.com 50"],
      [[player.email, "1.5"], "Give the number of credits as a whole number, for example: credits:grant -- player@example.com 50"],
      [[player.email, "0"], "Give the number of credits as a whole number, for example: credits:grant -- player@example.com 50"],
      [[player.email], "Give the number of credits as a whole number, for example: credits:grant -- player@example.com 50"],
      [["", "5"], "Give the user's email address."],
    ];
    for (const [args, message] of cases) {
      const result = await grantCredits(...args);
      expect(result, args.join(" ")).toMatchObject({ code: 1, stdout: "" });
      expect(result.stderr.trim()).toBe(message);
    }
    expect((await creditsOf(server, player)).balance).toBe(STARTER_CREDITS);
    expect(await adminGrants(player)).toEqual([]);
  });
});
