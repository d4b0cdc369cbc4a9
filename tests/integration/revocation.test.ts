import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LiveReply, watchLiveReply } from "#app/domain/game-master/live-replies.server.ts";
import { getBalance } from "#app/domain/credits.server.ts";
import { creditsEventStream, openReplyWatchers } from "#app/domain/realtime.server.ts";
import { runSupportCall } from "#app/domain/support-commands.server.ts";
import { makeAdmin, signIn, signUp, streamOwner, testClientAddress, type TestAccount } from "#tests/helpers/accounts.ts";
import { eventually, postChat, startStoryTestServer, storedMessages, TEST_GAME } from "#tests/helpers/game-chat.ts";
import type { TestServer } from "#tests/helpers/server.ts";
import { eventStreamOf, openEventStream, type SseConnection } from "#tests/helpers/sse.ts";
import { beginStory } from "#tests/helpers/stories.ts";
import { startSmtpServer, type FakeSmtpServer } from "#tests/fakes/smtp.ts";
import type { FakeModelServer } from "#tests/fakes/streaming-model.ts";

/**
 * Issue 31, item 4: whatever ends a session ends the live streams opened with it — the live
 * channel (/api/credits/events) and replies followed as they are written (/api/stories/{id}/reply)
 * — within a second. A revocation of one session leaves the player's other sessions' streams
 * alone; one of the whole account ends them all.
 */

let model: FakeModelServer;
let server: TestServer;
let smtp: FakeSmtpServer;
let stop: () => Promise<void>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  ({ model, server, close: stop } = await startStoryTestServer({ SMTP_URL: smtp.url }));
});

afterAll(async () => {
  await stop();
  await smtp.close();
});

beforeEach(() => {
  // A reply written for about 8 seconds, so that it is still being written when a session ends.
  model.script(() => ({ tokens: Array.from({ length: 160 }, (_, index) => `word${index} `), tokenDelayMs: 50 }));
});

const WITHIN_A_SECOND = 1000;

function cookieOf(account: TestAccount) {
  return { Cookie: account.cookie };
}

function bearerOf(account: TestAccount) {
  return { Authorization: `Bearer ${account.token}` };
}

function postAuth(path: string, body: unknown, headers: Record<string, string> = {}) {
  return server.fetch(`/api/auth${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": testClientAddress(), ...headers },
    body: JSON.stringify(body),
  });
}

interface LiveStreams {
  events: SseConnection;
  reply: SseConnection;
}

/** A session's two kinds of live stream: the live channel, and the reply being written in the story. */
async function openStreams(credentials: Record<string, string>, storyId: string): Promise<LiveStreams> {
  const events = await openEventStream(`${server.url}/api/credits/events`, credentials);
  await events.nextCredits();
  const reply = await openEventStream(`${server.url}/api/stories/${storyId}/reply`, credentials);
  expect(reply.response.status).toBe(200);
  await reply.next((frame) => frame.data?.startsWith('{"turn"') ?? false);
  return { events, reply };
}

/** A player in the middle of a reply (about 8 seconds long), with a second signed-in session. */
async function playerMidReply() {
  const player = await signUp(server);
  const elsewhere = await signIn(server, player);
  const storyId = await beginStory(server, player, TEST_GAME.slug);
  const leave = new AbortController();
  const turn = await postChat(server, player, { message: "I wait on the quay.", game_slug: TEST_GAME.slug }, { signal: leave.signal });
  expect(turn.status).toBe(200);
  return { player, elsewhere, storyId, leaveTurn: () => leave.abort() };
}

function stillOpenAfter(ms: number) {
  return new Promise<"still open">((resolve) => setTimeout(() => resolve("still open"), ms));
}

async function expectEndedWithinASecond(streams: LiveStreams) {
  const ended = Promise.all([streams.events.closed, streams.reply.closed]);
  expect(await Promise.race([ended, stillOpenAfter(WITHIN_A_SECOND)])).toEqual(["ended", "ended"]);
}

/** Both streams still carry what comes: the balance a grant sets, and more of the reply. */
async function expectStillOpen(streams: LiveStreams, player: TestAccount) {
  await runSupportCall({ command: "credits:grant", email: player.email, credits: 1 });
  expect(await streams.events.nextCredits()).toBe(await getBalance(player.userId, server.connection.db));
  await streams.reply.next((frame) => frame.data?.startsWith('{"content"') ?? false);
}

function closeAll(...streams: LiveStreams[]) {
  for (const { events, reply } of streams) {
    events.close();
    reply.close();
  }
}

describe("a revocation of one session ends that session's live streams, and only those", () => {
  it("POST /api/auth/sign-out", async () => {
    const { player, elsewhere, storyId, leaveTurn } = await playerMidReply();
    const here = await openStreams(cookieOf(player), storyId);
    const there = await openStreams(bearerOf(elsewhere), storyId);
    expect((await postAuth("/sign-out", {}, cookieOf(player))).status).toBe(200);
    await expectEndedWithinASecond(here);
    await expectStillOpen(there, player);
    closeAll(there);
    leaveTurn();
  });

  it("POST /api/auth/sign-out with a bearer token", async () => {
    const { player, elsewhere, storyId, leaveTurn } = await playerMidReply();
    const here = await openStreams(bearerOf(player), storyId);
    const there = await openStreams(cookieOf(elsewhere), storyId);
    expect((await postAuth("/sign-out", {}, bearerOf(player))).status).toBe(200);
    await expectEndedWithinASecond(here);
    await expectStillOpen(there, player);
    closeAll(there);
    leaveTurn();
  });

  it("the /sign-out page", async () => {
    const { player, elsewhere, storyId, leaveTurn } = await playerMidReply();
    const here = await openStreams(cookieOf(player), storyId);
    const there = await openStreams(cookieOf(elsewhere), storyId);
    const signOut = await server.fetch("/sign-out", { method: "POST", headers: cookieOf(player) });
    expect(signOut.status).toBe(302);
    await expectEndedWithinASecond(here);
    await expectStillOpen(there, player);
    closeAll(there);
    leaveTurn();
  });

  it("POST /api/auth/revoke-session, from another session", async () => {
    const { player, elsewhere, storyId, leaveTurn } = await playerMidReply();
    const revoked = await openStreams(cookieOf(elsewhere), storyId);
    const revoking = await openStreams(cookieOf(player), storyId);
    expect((await postAuth("/revoke-session", { token: elsewhere.token }, cookieOf(player))).status).toBe(200);
    await expectEndedWithinASecond(revoked);
    await expectStillOpen(revoking, player);
    closeAll(revoking);
    leaveTurn();
  });

  it("POST /api/auth/revoke-other-sessions", async () => {
    const { player, elsewhere, storyId, leaveTurn } = await playerMidReply();
    const other = await openStreams(cookieOf(elsewhere), storyId);
    const own = await openStreams(cookieOf(player), storyId);
    expect((await postAuth("/revoke-other-sessions", {}, cookieOf(player))).status).toBe(200);
    await expectEndedWithinASecond(other);
    await expectStillOpen(own, player);
    closeAll(own);
    leaveTurn();
  });
});

describe("a revocation of the whole account ends every live stream of the player", () => {
  it("POST /api/auth/revoke-sessions", async () => {
    const { player, elsewhere, storyId, leaveTurn } = await playerMidReply();
    const streams = [await openStreams(cookieOf(player), storyId), await openStreams(bearerOf(elsewhere), storyId)];
    expect((await postAuth("/revoke-sessions", {}, cookieOf(player))).status).toBe(200);
    for (const each of streams) await expectEndedWithinASecond(each);
    leaveTurn();
  });

  it("a password reset, which signs every session out", async () => {
    const { player, elsewhere, storyId, leaveTurn } = await playerMidReply();
    const streams = [await openStreams(cookieOf(player), storyId), await openStreams(bearerOf(elsewhere), storyId)];
    expect((await postAuth("/request-password-reset", { email: player.email, redirectTo: "/auth/reset-password" })).status).toBe(200);
    const mail = await smtp.waitForMail((candidate) => candidate.to.includes(player.email) && candidate.subject.startsWith("Reset your"));
    const link = new URL(/https?:\/\/\S+\/api\/auth\/reset-password\/[^\s"<]+/.exec(mail.text)![0]);
    const landing = await server.fetch(`${link.pathname}${link.search}`);
    const token = new URL(landing.headers.get("location")!, server.url).searchParams.get("token");
    expect((await postAuth("/reset-password", { newPassword: "a brand new passphrase", token })).status).toBe(200);
    for (const each of streams) await expectEndedWithinASecond(each);
    leaveTurn();
  });

  it("a password change that signs the other sessions out, which renews this one", async () => {
    const { player, elsewhere, storyId, leaveTurn } = await playerMidReply();
    const streams = [await openStreams(cookieOf(player), storyId), await openStreams(bearerOf(elsewhere), storyId)];
    const change = await postAuth(
      "/change-password",
      { currentPassword: player.password, newPassword: "a brand new passphrase", revokeOtherSessions: true },
      cookieOf(player),
    );
    expect(change.status).toBe(200);
    for (const each of streams) await expectEndedWithinASecond(each);
    leaveTurn();
  });

  it("an admin disabling the account", async () => {
    const admin = await signUp(server);
    await makeAdmin(server, admin);
    const { player, elsewhere, storyId, leaveTurn } = await playerMidReply();
    const streams = [await openStreams(cookieOf(player), storyId), await openStreams(bearerOf(elsewhere), storyId)];
    const disable = await server.fetch(`/api/admin/players/${player.userId}`, {
      method: "PATCH",
      headers: { ...cookieOf(admin), "Content-Type": "application/json" },
      body: JSON.stringify({ disabled: true }),
    });
    expect(disable.status).toBe(200);
    for (const each of streams) await expectEndedWithinASecond(each);
    leaveTurn();
  });
});

describe("the answer to a turn (POST /api/game-chat) ends with the session that asked for it", () => {
  /** A turn being answered, followed on its POST's own stream until its first words. */
  async function turnBeingAnswered(player: TestAccount) {
    await beginStory(server, player, TEST_GAME.slug);
    const abort = new AbortController();
    const response = await postChat(server, player, { message: "I wait on the quay.", game_slug: TEST_GAME.slug }, { signal: abort.signal });
    expect(response.status).toBe(200);
    const turn = eventStreamOf(response, abort);
    await turn.next((frame) => frame.data?.startsWith('{"content"') ?? false);
    return turn;
  }

  async function expectTurnEndedWithinASecond(turn: SseConnection) {
    expect(await Promise.race([turn.closed, stillOpenAfter(WITHIN_A_SECOND)])).toBe("ended");
    // Ended by the server mid-reply, not by the reply's end.
    expect(turn.frames.some((frame) => frame.data === "[DONE]")).toBe(false);
  }

  it("signed out: the stream ends within a second; the reply is still written to the end and stored", async () => {
    const player = await signUp(server);
    const elsewhere = await signIn(server, player);
    const turn = await turnBeingAnswered(player);
    const otherTurn = await turnBeingAnswered(elsewhere);
    expect((await postAuth("/sign-out", {}, bearerOf(player))).status).toBe(200);
    await expectTurnEndedWithinASecond(turn);
    // The other session's turn goes on.
    expect(await Promise.race([otherTurn.closed, stillOpenAfter(WITHIN_A_SECOND)])).toBe("still open");
    await otherTurn.next((frame) => frame.data === "[DONE]", 15_000);
    const replies = await eventually(async () => {
      const stored = (await storedMessages(server, player)).filter((message) => message.role === "assistant");
      return stored.filter((message) => message.content.includes("word159")).length === 2 && stored;
    }, 15_000);
    expect(replies.length).toBeGreaterThanOrEqual(2);
  });

  it("an admin disabling the account", async () => {
    const admin = await signUp(server);
    await makeAdmin(server, admin);
    const player = await signUp(server);
    const turn = await turnBeingAnswered(player);
    const disable = await server.fetch(`/api/admin/players/${player.userId}`, {
      method: "PATCH",
      headers: { ...cookieOf(admin), "Content-Type": "application/json" },
      body: JSON.stringify({ disabled: true }),
    });
    expect(disable.status).toBe(200);
    await expectTurnEndedWithinASecond(turn);
  });
});

describe("a session that expires", () => {
  async function expiringSoon(player: TestAccount) {
    const owner = await streamOwner(server, player);
    return { ...owner, session: { ...owner.session, expiresAt: new Date(Date.now() + 300) } };
  }

  it("ends the live channel opened with it when it expires", async () => {
    const player = await signUp(server);
    const stream = await creditsEventStream({ owner: await expiringSoon(player), signals: [] });
    const reader = stream.getReader();
    const ended = (async () => {
      while (!(await reader.read()).done);
      return "ended";
    })();
    expect(await Promise.race([ended, stillOpenAfter(300 + WITHIN_A_SECOND)])).toBe("ended");
  });

  it("ends a reply watcher attached with it when it expires, and lets go of its place", async () => {
    const player = await signUp(server);
    const reply = new LiveReply({
      storyId: crypto.randomUUID(),
      kind: "send",
      exchange: 2,
      messageId: 1,
      replyId: 2,
      version: 1,
      versions: 1,
      replySoFar: "",
      charged: 1,
    });
    const before = openReplyWatchers();
    const source = await watchLiveReply(reply, await expiringSoon(player), "reply");
    expect(openReplyWatchers()).toBe(before + 1);
    const ended = new Promise<"ended">((resolve) => source.attach({ write: () => {}, end: () => resolve("ended") }));
    expect(await Promise.race([ended, stillOpenAfter(300 + WITHIN_A_SECOND)])).toBe("ended");
    expect(openReplyWatchers()).toBe(before);
  });
});
