import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { creditLedger, stories, worldEarnings } from "#app/db/schema.ts";
import { apiRequest, signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { balanceAndLedger, postChat, readTurn, setBalance, startStoryTestServer } from "#tests/helpers/game-chat.ts";
import type { TestServer } from "#tests/helpers/server.ts";
import { visibleText } from "#tests/helpers/html.ts";
import { createPublicWorld, postForm, publishWorld, remixWorld } from "#tests/helpers/worlds.ts";
import type { FakeModelServer } from "#tests/fakes/streaming-model.ts";

/**
 * Issue 36: creators earn from other players' paid turns in their Public worlds
 * (credit_world_creator.sql, docs/decisions/065) — here 1 credit per 3 paid turns of a world a
 * day, at most 5 a creator a day, and no free openings, so every turn is paid.
 */
let model: FakeModelServer;
let server: TestServer;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ model, server, close } = await startStoryTestServer({
    CREATOR_PAID_TURNS_PER_CREDIT: "3",
    CREATOR_CREDITS_PER_DAY: "5",
    FREE_OPENINGS_PER_DAY: "0",
  }));
  model.script(() => ({ tokens: ["The ", "lanterns ", "flicker."] }));
});

afterAll(() => close?.());

async function payingPlayer() {
  const player = await signUp(server);
  await setBalance(player, 100);
  return player;
}

/** A turn of the player's in the world, read to its end. */
async function play(player: TestAccount, slug: string) {
  return readTurn(await postChat(server, player, { message: "I bow to the queen.", game_slug: slug }));
}

async function playTurns(player: TestAccount, slug: string, turns: number) {
  for (let turn = 0; turn < turns; turn += 1) expect((await play(player, slug)).done).toBe(true);
}

async function earnings(creator: TestAccount) {
  const rows = await server.connection.db
    .select({ delta: creditLedger.delta })
    .from(creditLedger)
    .where(and(eq(creditLedger.userId, creator.userId), eq(creditLedger.reason, "creator_earnings")));
  return rows.reduce((sum, row) => sum + row.delta, 0);
}

async function paidTurns(gameId: string) {
  const rows = await server.connection.db.select().from(worldEarnings).where(eq(worldEarnings.gameId, gameId));
  return rows.reduce((sum, row) => sum + row.paidTurns, 0);
}

describe("creator earnings", () => {
  it("credits exactly 1 per 3 paid turns while several players play at once, and the ledger equals the balance", async () => {
    const creator = await signUp(server);
    const world = await createPublicWorld(server, creator);
    const before = await balanceAndLedger(creator);
    const players = await Promise.all([payingPlayer(), payingPlayer(), payingPlayer(), payingPlayer()]);

    // 4 players × 4 turns at once: 16 paid turns, 5 credits (the 16th waits for the 18th).
    await Promise.all(players.map((player) => playTurns(player, world.slug, 4)));

    expect(await paidTurns(world.id)).toBe(16);
    expect(await earnings(creator)).toBe(5);
    const after = await balanceAndLedger(creator);
    expect(after.balance).toBe(before.balance + 5);
    expect(after.ledger).toBe(after.balance);
    for (const player of players) {
      const { balance, ledger } = await balanceAndLedger(player);
      expect(balance).toBe(ledger);
    }

    // The creator's dashboard: plays, likes, paid turns and credits earned per world.
    expect((await postForm(server, players[0], `/worlds/${world.id}/like`, {})).status).toBe(302);
    const dashboard = await server.fetch("/create/dashboard", { headers: { Cookie: creator.cookie } });
    expect(dashboard.status).toBe(200);
    const text = visibleText(await dashboard.text());
    expect(text).toContain(`${world.title} Public 4 1 16 5`);
    expect(text).toContain("Credits earned 5 credits");
    expect(text).toContain("Earned today (UTC) 5 of 5 credits");
    expect((await server.fetch("/create/dashboard", { redirect: "manual" })).status).toBe(302);
  });

  it("stops at the creator's daily cap, over all their worlds", async () => {
    const creator = await signUp(server);
    const [first, second] = [await createPublicWorld(server, creator), await createPublicWorld(server, creator)];
    const [player, other] = [await payingPlayer(), await payingPlayer()];

    // 12 + 9 paid turns would earn 7; the cap is 5.
    await Promise.all([playTurns(player, first.slug, 12), playTurns(other, second.slug, 9)]);

    expect((await paidTurns(first.id)) + (await paidTurns(second.id))).toBe(21);
    expect(await earnings(creator)).toBe(5);
    expect((await balanceAndLedger(creator)).ledger).toBe((await balanceAndLedger(creator)).balance);
  });

  it("earns nothing from the creator's own play, nor from them playing a remix of their world", async () => {
    const [alice, bob] = [await payingPlayer(), await payingPlayer()];
    const original = await createPublicWorld(server, alice);
    const remix = await remixWorld(server, bob, original.id);
    expect((await publishWorld(server, bob, remix.id, "public")).status).toBe(302);

    await playTurns(alice, original.slug, 3);
    await playTurns(alice, remix.slug, 3);
    await playTurns(bob, remix.slug, 3);

    expect(await paidTurns(original.id)).toBe(0);
    expect(await paidTurns(remix.id)).toBe(0);
    expect(await earnings(alice)).toBe(0);
    expect(await earnings(bob)).toBe(0);
  });

  it("keeps what an undone turn earned, as Undo keeps what the player paid for it", async () => {
    const creator = await signUp(server);
    const world = await createPublicWorld(server, creator);
    const player = await payingPlayer();

    await playTurns(player, world.slug, 3);
    expect(await earnings(creator)).toBe(1);
    const [paid, earned] = [await balanceAndLedger(player), await balanceAndLedger(creator)];
    const [story] = await server.connection.db.select({ id: stories.id }).from(stories).where(eq(stories.userId, player.userId));
    if (!story) throw new Error("no story");

    // The turn that earned the credit is undone: the player is refunded nothing, so the creator keeps it.
    const undone = await apiRequest(server, player, `/api/stories/${story.id}/undo`, { body: { exchange: 3 } });
    expect(undone.status).toBe(200);
    expect(await balanceAndLedger(player)).toEqual(paid);
    expect(await balanceAndLedger(creator)).toEqual(earned);
    expect(earned.ledger).toBe(earned.balance);
    expect(await paidTurns(world.id)).toBe(3);

    // The turn played in its place is paid again, and counts again.
    await playTurns(player, world.slug, 3);
    expect(await paidTurns(world.id)).toBe(6);
    expect(await earnings(creator)).toBe(2);
  });

  it("earns nothing from a refunded turn, nor in an Unlisted world", async () => {
    const creator = await signUp(server);
    const world = await createPublicWorld(server, creator);
    const player = await payingPlayer();

    await playTurns(player, world.slug, 2);
    model.script(() => ({ status: 500 }));
    const failed = await play(player, world.slug);
    model.script(() => ({ tokens: ["The ", "lanterns ", "flicker."] }));
    expect(failed.error).toBeDefined();
    expect(await paidTurns(world.id)).toBe(2);
    expect(await earnings(creator)).toBe(0);

    await playTurns(player, world.slug, 1);
    expect(await earnings(creator)).toBe(1);

    expect((await publishWorld(server, creator, world.id, "unlisted")).status).toBe(302);
    await playTurns(player, world.slug, 3);
    expect(await paidTurns(world.id)).toBe(3);
    expect(await earnings(creator)).toBe(1);
  });
});
