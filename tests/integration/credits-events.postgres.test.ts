import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stories } from "#app/db/schema.ts";
import { runSupportCall } from "#app/domain/support-commands.server.ts";
import { STARTER_CREDITS } from "#app/lib/constants.ts";
import { makeAdmin, signIn, signUp, testClientAddress, type TestAccount } from "#tests/helpers/accounts.ts";
import { startServerProcess, type ServerProcess } from "#tests/helpers/process.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";
import { openEventStream } from "#tests/helpers/sse.ts";

/**
 * Two instances on one PostgreSQL, as behind a load balancer: this test process runs the first,
 * a child process (`node server/main.ts`) the second. Live balances must cross between them.
 */
const AUTH_SECRET = randomBytes(32).toString("base64url");
const WITHIN_A_SECOND = 1000;

let first: TestServer;
let second: ServerProcess;

beforeAll(async () => {
  first = await startTestServer({ AUTH_SECRET });
  // A production process: its purchases go through the test checkout only when asked to.
  // Its offline storyteller writes slowly enough for a reply to be followed while a session ends.
  second = await startServerProcess({ ...first.database.env, AUTH_SECRET, PAYMENTS_PROVIDER: "test", AI_OFFLINE_WORD_DELAY_MS: "60" });
});

afterAll(async () => {
  await second.stop();
  await first.close();
});

function streamOn(url: string, account: TestAccount) {
  return openEventStream(`${url}/api/credits/events`, { Cookie: account.cookie });
}

describe("live balances across two instances", () => {
  it("a grant through one instance reaches a stream on the other within a second", async () => {
    const player = await signUp(first);
    const onSecond = await streamOn(second.url, player);
    const onFirst = await streamOn(first.url, player);
    expect(await onSecond.nextCredits()).toBe(STARTER_CREDITS);
    expect(await onFirst.nextCredits()).toBe(STARTER_CREDITS);

    // The support command runs in this process, on the first instance's database connection.
    await runSupportCall({ command: "credits:grant", email: player.email, credits: 5 });
    expect(await onSecond.nextCredits(WITHIN_A_SECOND)).toBe(STARTER_CREDITS + 5);
    expect(await onFirst.nextCredits(WITHIN_A_SECOND)).toBe(STARTER_CREDITS + 5);
    onSecond.close();
    onFirst.close();
  });

  it("a purchase completed on the other instance reaches a stream on this one within a second", async () => {
    const player = await signUp(first);
    const onFirst = await streamOn(first.url, player);
    expect(await onFirst.nextCredits()).toBe(STARTER_CREDITS);

    const created = await fetch(`${second.url}/api/create-payment`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: player.cookie, Origin: second.url },
      body: JSON.stringify({ packageType: "500" }),
    });
    const { url } = (await created.json()) as { url: string };
    expect(url).toMatch(new RegExp(`^${second.url}/checkout/test/`));
    const paid = await fetch(url, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: player.cookie, Origin: second.url },
      body: "intent=pay",
    });
    expect(paid.status).toBe(302);
    expect(await onFirst.nextCredits(WITHIN_A_SECOND)).toBe(STARTER_CREDITS + 500);
    onFirst.close();
  });

  it("signing out through one instance ends the player's streams on the other", async () => {
    const player = await signUp(first);
    const onSecond = await streamOn(second.url, player);
    await onSecond.nextCredits();
    const signOut = await first.fetch("/sign-out", { method: "POST", headers: { Cookie: player.cookie, Origin: first.url } });
    expect(signOut.status).toBe(302);
    expect(await onSecond.closed).toBe("ended");
  });

  it("signing one session out through the API on one instance ends its streams on the other, and only that session's", async () => {
    const player = await signUp(first);
    const elsewhere = await signIn(first, player);
    const signedOut = await streamOn(second.url, player);
    const stillIn = await streamOn(second.url, elsewhere);
    await Promise.all([signedOut.nextCredits(), stillIn.nextCredits()]);
    const signOut = await first.fetch("/api/auth/sign-out", {
      method: "POST",
      headers: { Cookie: player.cookie, "Content-Type": "application/json", "X-Forwarded-For": testClientAddress() },
      body: "{}",
    });
    expect(signOut.status).toBe(200);
    expect(await Promise.race([signedOut.closed, stillOpenAfter(WITHIN_A_SECOND)])).toBe("ended");
    await runSupportCall({ command: "credits:grant", email: player.email, credits: 2 });
    expect(await stillIn.nextCredits(WITHIN_A_SECOND)).toBe(STARTER_CREDITS + 2);
    stillIn.close();
  });

  it("disabling an account through one instance ends its reply watchers and streams on the other within a second", async () => {
    const admin = await signUp(first);
    await makeAdmin(first, admin);
    const player = await signUp(first);
    const leave = new AbortController();
    const turn = await fetch(`${second.url}/api/game-chat`, {
      method: "POST",
      headers: { Authorization: `Bearer ${player.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ message: "I walk into the court.", game_slug: "empress-simulator" }),
      signal: leave.signal,
    });
    expect(turn.status).toBe(200);
    const [story] = await first.connection.db.select({ id: stories.id }).from(stories).where(eq(stories.userId, player.userId));
    const watcher = await openEventStream(`${second.url}/api/stories/${story!.id}/reply`, { Cookie: player.cookie });
    expect(watcher.response.status).toBe(200);
    await watcher.next();
    const events = await streamOn(second.url, player);
    await events.nextCredits();

    const disable = await first.fetch(`/api/admin/players/${player.userId}`, {
      method: "PATCH",
      headers: { Cookie: admin.cookie, "Content-Type": "application/json" },
      body: JSON.stringify({ disabled: true }),
    });
    expect(disable.status).toBe(200);
    const ended = Promise.all([watcher.closed, events.closed]);
    expect(await Promise.race([ended, stillOpenAfter(WITHIN_A_SECOND)])).toEqual(["ended", "ended"]);
    leave.abort();
  });
});

function stillOpenAfter(ms: number) {
  return new Promise<"still open">((resolve) => setTimeout(() => resolve("still open"), ms));
}
