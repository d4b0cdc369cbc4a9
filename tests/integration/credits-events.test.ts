import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { creditsEventStream, MAX_STREAMS_PER_USER, openCreditStreams, RECONNECT_MS } from "#app/domain/realtime.server.ts";
import { runSupportCall } from "#app/domain/support-commands.server.ts";
import { STARTER_CREDITS } from "#app/lib/constants.ts";
import { signUp, streamOwner, type TestAccount } from "#tests/helpers/accounts.ts";
import { startServerProcess } from "#tests/helpers/process.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";
import { openEventStream } from "#tests/helpers/sse.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

function stream(account: TestAccount) {
  return openEventStream(`${server.url}/api/credits/events`, { Cookie: account.cookie, "Accept-Encoding": "gzip, br" });
}

function grant(account: TestAccount, credits: number) {
  return runSupportCall({ command: "credits:grant", email: account.email, credits });
}

async function eventually(check: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("the condition did not become true in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("GET /api/credits/events", () => {
  it("refuses a signed-out visitor with 401", async () => {
    const response = await server.fetch("/api/credits/events");
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: "Please sign in to continue.", code: "unauthenticated" });
  });

  it("sends the balance at once, then every change of this player and no one else's, uncompressed", async () => {
    const player = await signUp(server);
    const other = await signUp(server);
    const events = await stream(player);
    expect(events.response.status).toBe(200);
    expect(events.response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(events.response.headers.get("content-encoding")).toBeNull();
    expect(events.response.headers.get("cache-control")).toBe("private, no-cache, no-store, no-transform");

    expect((await events.next()).retry).toBe(RECONNECT_MS);
    expect(await events.nextCredits()).toBe(STARTER_CREDITS);

    await grant(player, 7);
    expect(await events.nextCredits()).toBe(STARTER_CREDITS + 7);
    await grant(other, 3);
    await grant(player, -2);
    expect(await events.nextCredits()).toBe(STARTER_CREDITS + 5);
    const balances = events.frames.filter((frame) => frame.event === "credits").map((frame) => JSON.parse(frame.data ?? "") as unknown);
    expect(balances).toEqual([{ credits: 20 }, { credits: 27 }, { credits: 25 }]);
    events.close();
  });

  it("lets go of a stream when the client leaves", async () => {
    const player = await signUp(server);
    const before = openCreditStreams();
    const events = await stream(player);
    await events.nextCredits();
    expect(openCreditStreams()).toBe(before + 1);
    events.close();
    await eventually(() => openCreditStreams() === before);
  });

  it("ends a player's streams in every tab on sign-out, and theirs only", async () => {
    const player = await signUp(server);
    const other = await signUp(server);
    const tabs = [await stream(player), await stream(player)];
    const otherTab = await stream(other);
    await Promise.all([...tabs, otherTab].map((tab) => tab.nextCredits()));

    const signOut = await server.fetch("/sign-out", { method: "POST", headers: { Cookie: player.cookie, Origin: server.url } });
    expect(signOut.status).toBe(302);
    expect(await Promise.all(tabs.map((tab) => tab.closed))).toEqual(["ended", "ended"]);

    // The ended session cannot reconnect; the other player's stream carries on.
    expect((await server.fetch("/api/credits/events", { headers: { Cookie: player.cookie } })).status).toBe(401);
    await grant(other, 4);
    expect(await otherTab.nextCredits()).toBe(STARTER_CREDITS + 4);
    otherTab.close();
  });

  it(`keeps at most ${MAX_STREAMS_PER_USER} streams per player, closing the oldest`, async () => {
    const player = await signUp(server);
    const tabs = [];
    for (let index = 0; index <= MAX_STREAMS_PER_USER; index += 1) {
      const tab = await stream(player);
      await tab.nextCredits();
      tabs.push(tab);
    }
    expect(await tabs[0]!.closed).toBe("ended");
    await grant(player, 1);
    expect(await tabs.at(-1)!.nextCredits()).toBe(STARTER_CREDITS + 1);
    for (const tab of tabs) tab.close();
  });

  it("writes heartbeats between changes and ends when its signal aborts", async () => {
    const player = await signUp(server);
    const leave = new AbortController();
    const stream = await creditsEventStream({ owner: await streamOwner(server, player), signals: [leave.signal], heartbeatMs: 25 });
    const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while ((text.match(/^: heartbeat$/gm) ?? []).length < 2) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended early: ${text}`);
      text += value;
    }
    expect(text).toContain(`event: credits\ndata: {"credits":${STARTER_CREDITS}}\n\n`);
    leave.abort();
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
    }
  });
});

describe("a server shutting down", () => {
  it("ends its open streams cleanly instead of cutting them off", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "pae-sse-shutdown-"));
    const child = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: undefined, LOG_LEVEL: "info" });
    try {
      const signUpResponse = await fetch(`${child.url}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: child.url },
        body: JSON.stringify({ email: "shutdown@example.com", password: "a long enough password", name: "Shutdown" }),
      });
      expect(signUpResponse.status).toBe(200);
      const cookie = signUpResponse.headers
        .getSetCookie()
        .find((header) => header.includes("session_token="))!
        .split(";")[0]!;
      const events = await openEventStream(`${child.url}/api/credits/events`, { Cookie: cookie });
      expect(await events.nextCredits()).toBe(STARTER_CREDITS);

      expect(await child.stop()).toBe(0);
      // Cut off (after the 10 s grace) would read as "failed"; the shutdown signal ends it cleanly.
      expect(await events.closed).toBe("ended");
      expect(child.output()).toContain("shut down cleanly");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
