import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { user } from "#app/db/schema.ts";
import { RESEND_CONFIRMATION_PATH } from "#app/lib/play-texts.ts";
import { signUp } from "#tests/helpers/accounts.ts";
import { balanceAndLedger, createTestGame, postChat, readTurn, TEST_GAME } from "#tests/helpers/game-chat.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";
import { beginStory } from "#tests/helpers/stories.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ REQUIRE_EMAIL_VERIFICATION: "true" });
  await createTestGame(server);
});

afterAll(async () => {
  await server.close();
});

it("refuses turns from an unconfirmed account with 403 and where to get a new confirmation mail", async () => {
  const player = await signUp(server);
  const response = await postChat(server, player, { message: "Hello", game_slug: TEST_GAME.slug });
  expect(response.status).toBe(403);
  const body = await response.json();
  expect(body).toMatchObject({ code: "email_not_confirmed", resendUrl: RESEND_CONFIRMATION_PATH });
  expect(body.error).toMatch(/confirm your email/);
  expect(await balanceAndLedger(player)).toEqual({ balance: 20, ledger: 20 });
});

it("lets the same account play once its email is confirmed", async () => {
  const player = await signUp(server);
  await server.connection.db.update(user).set({ emailVerified: true }).where(eq(user.id, player.userId));
  await beginStory(server, player, TEST_GAME.slug);
  const response = await postChat(server, player, { message: "Hello", game_slug: TEST_GAME.slug });
  expect(response.status).toBe(200);
  expect((await readTurn(response)).done).toBe(true);
  expect(await balanceAndLedger(player)).toEqual({ balance: 19, ledger: 19 });
});
