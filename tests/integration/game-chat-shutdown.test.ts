import { once } from "node:events";
import { connect, type Socket } from "node:net";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { gameMessages, user } from "#app/db/schema.ts";
import { startOpenAICompatibleServer } from "#tests/fakes/openai-compatible.ts";
import type { FakeModelServer } from "#tests/fakes/streaming-model.ts";
import { createTestDatabase, type TestDatabase } from "#tests/helpers/database.ts";
import { eventually, readTurn } from "#tests/helpers/game-chat.ts";
import { startServerProcess } from "#tests/helpers/process.ts";

/** A graceful shutdown (SIGTERM) lets every turn in flight finish and be stored. */
let database: TestDatabase;
let model: FakeModelServer;

beforeAll(async () => {
  database = await createTestDatabase({ prepared: true });
  model = await startOpenAICompatibleServer();
});

afterAll(async () => {
  await model.close();
  await database.drop();
});

async function signUp(url: string, email: string) {
  const response = await fetch(`${url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: url },
    body: JSON.stringify({ email, password: "a long enough password", name: "Shutdown" }),
  });
  return ((await response.json()) as { token: string }).token;
}

function chat(url: string, token: string, message: string, signal?: AbortSignal) {
  return fetch(`${url}/api/game-chat`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({ message, game_slug: "empress-simulator" }),
    signal,
  });
}

/**
 * Starting a server process, a 6-second reply and the shutdown take 15-25 s on a loaded 2-core
 * machine, and over 60 s with other files' servers starting beside it; this allows twice that.
 */
const SHUTDOWN_TEST_TIMEOUT_MS = 120_000;

it("lets turns in flight finish and store their replies when the server is stopped", { timeout: SHUTDOWN_TEST_TIMEOUT_MS }, async () => {
  // The player who leaves gets the longer reply: it is still being written after the last
  // connection has closed, which is when a shutdown would otherwise close the database.
  const short = Array.from({ length: 5 }, (_, index) => `short${index} `);
  const long = Array.from({ length: 60 }, (_, index) => `long${index} `);
  model.script((request) => ({
    tokens: JSON.stringify(request.body.messages).includes("I close the tab.") ? long : short,
    tokenDelayMs: 100,
  }));
  const server = await startServerProcess({
    ...database.env,
    AI_PROVIDER: "openai-compatible",
    AI_BASE_URL: model.baseUrl,
    AI_MODEL: "fake",
  });
  const [staying, leaving] = [await signUp(server.url, "stays@example.com"), await signUp(server.url, "leaves@example.com")];

  const stayed = chat(server.url, staying, "I stay to the end.");
  const controller = new AbortController();
  const left = await chat(server.url, leaving, "I close the tab.", controller.signal);
  await left.body!.getReader().read();
  controller.abort();
  const stayedResponse = await stayed;

  const stopped = server.stop();
  // The player who stayed connected still receives the whole reply.
  expect(await readTurn(stayedResponse)).toMatchObject({ text: short.join(""), done: true });
  expect(await stopped).toBe(0);
  expect(server.output()).toContain("shut down cleanly");

  const connection = await database.connect();
  try {
    for (const [email, reply] of [
      ["stays@example.com", short.join("")],
      ["leaves@example.com", long.join("")],
    ] as const) {
      const rows = await connection.db
        .select({ role: gameMessages.role, content: gameMessages.content })
        .from(gameMessages)
        .innerJoin(user, eq(user.id, gameMessages.userId))
        .where(and(eq(user.email, email), eq(gameMessages.gameSlug, "empress-simulator")))
        .orderBy(asc(gameMessages.id));
      expect(rows.map((row) => row.role)).toEqual(["user", "assistant"]);
      expect(rows[1]?.content).toBe(reply);
    }
  } finally {
    await connection.close();
  }
});

/** Sends one raw HTTP/1.1 request on an open socket and resolves everything the server wrote back, until it closed the connection. */
function requestOn(socket: Socket, path: string) {
  return new Promise<string>((resolve, reject) => {
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString()));
    socket.once("close", () => resolve(answer));
    socket.once("error", reject);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  });
}

it(
  "drains on SIGTERM: not ready, closes connections after their answer, refuses new ones, and finishes the reply in flight",
  { timeout: SHUTDOWN_TEST_TIMEOUT_MS },
  async () => {
    const tokens = Array.from({ length: 20 }, (_, index) => `drain${index} `);
    model.script(() => ({ tokens, tokenDelayMs: 100 }));
    const server = await startServerProcess({ ...database.env, AI_PROVIDER: "openai-compatible", AI_BASE_URL: model.baseUrl, AI_MODEL: "fake" });
    const player = await signUp(server.url, "drains@example.com");
    const { port } = new URL(server.url);
    // A client that connected before the shutdown (a balancer's or a browser's kept connection).
    const kept = connect(Number(port), "127.0.0.1");
    await once(kept, "connect");
    const streaming = await chat(server.url, player, "I finish my sentence.");

    const stopped = server.stop();
    // The listener closes at once; the kept connection's next request is answered, and closed after.
    await eventually(
      async () =>
        (await fetch(`${server.url}/healthz`).then(
          () => false,
          () => true,
        )) || undefined,
    );
    const answer = await requestOn(kept, "/readyz");
    expect(answer).toMatch(/^HTTP\/1\.1 503/);
    expect(answer).toMatch(/^connection: close$/im);
    expect(answer).toContain('"status":"draining"');
    // The reply accepted before the shutdown is finished and stored.
    expect(await readTurn(streaming)).toMatchObject({ text: tokens.join(""), done: true });
    expect(await stopped).toBe(0);
  },
);
