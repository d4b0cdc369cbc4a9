import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { creditLedger, freeOpenings, gameMessages, user } from "#app/db/schema.ts";
import { FREE_OPENINGS_USED_UP } from "#app/domain/game-master/free-openings.server.ts";
import { RESEND_CONFIRMATION_PATH } from "#app/lib/play-texts.ts";
import type { TurnAnnouncement } from "#app/lib/story-view.ts";
import { signUp, testClientAddress, type TestAccount } from "#tests/helpers/accounts.ts";
import { balanceAndLedger, readTurn, setBalance, startStoryTestServer, TEST_GAME, type ReadTurn } from "#tests/helpers/game-chat.ts";
import type { TestServer } from "#tests/helpers/server.ts";

/**
 * Free openings (docs/decisions/041, issue 31 item 1): the reply that opens a story is free only
 * while the player has free openings left — here 3 a day per account, 5 a day per client address
 * and 2 in all before the email address is confirmed — and whether a call opens the story is
 * decided under the story's lock, so an Undo racing a turn cannot make it free and uncounted.
 * Past the allowance an opening costs what any turn costs; a player who cannot pay is told why.
 */

// A day's allowance as small as the few a minute the site gave before, which the race got around.
const RULES = { perMinute: 100, perDay: 3, perAddressPerDay: 5, beforeConfirmation: 2 };

let server: TestServer;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ server, close: stop } = await startStoryTestServer({
    FREE_OPENINGS_PER_MINUTE: String(RULES.perMinute),
    FREE_OPENINGS_PER_DAY: String(RULES.perDay),
    FREE_OPENINGS_PER_ADDRESS_PER_DAY: String(RULES.perAddressPerDay),
    FREE_OPENINGS_BEFORE_CONFIRMATION: String(RULES.beforeConfirmation),
  }));
});

afterAll(() => stop());

/** A player with `credits`, calling from an address of their own unless given one; confirmed unless told otherwise. */
async function player({ credits = 0, confirmed = true, address = testClientAddress() } = {}) {
  const account = await signUp(server);
  if (confirmed) await server.connection.db.update(user).set({ emailVerified: true }).where(eq(user.id, account.userId));
  await setBalance(account, credits);
  return { ...account, address };
}

type Player = TestAccount & { address: string };

function call(account: Player, path: string, body?: unknown, method = "POST") {
  return server.fetch(path, {
    method,
    headers: {
      Authorization: `Bearer ${account.token}`,
      "X-Forwarded-For": account.address,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const turn = (account: Player, message = "I begin.", storyId?: string) =>
  call(account, "/api/game-chat", { message, game_slug: TEST_GAME.slug, ...(storyId ? { story_id: storyId } : {}) });

/** A call's event stream read to its end, with its first event: which reply it is, and what it was charged. */
async function played(response: Response): Promise<ReadTurn & { turn?: TurnAnnouncement }> {
  const announced = /^data: (\{"turn":.*)$/m.exec(await response.clone().text())?.[1];
  return { ...(await readTurn(response)), turn: announced ? (JSON.parse(announced) as { turn: TurnAnnouncement }).turn : undefined };
}

/** Start Over: the story is empty again, and its next turn opens it. */
async function startOver(account: Player) {
  expect((await call(account, `/api/game-messages?game_slug=${TEST_GAME.slug}`, undefined, "DELETE")).status).toBe(200);
}

/** A turn that opens the player's story and is played through; then the story is emptied again. */
async function opening(account: Player) {
  const given = await played(await turn(account));
  expect(given.done).toBe(true);
  await startOver(account);
  return given;
}

/** Replies the model wrote for the player, whatever became of them since. */
async function repliesWritten(account: Player) {
  const [row] = await server.connection.db
    .select({ replies: count() })
    .from(gameMessages)
    .where(and(eq(gameMessages.userId, account.userId), eq(gameMessages.role, "assistant"), sql`${gameMessages.content} <> ''`));
  return row?.replies ?? 0;
}

async function freeOpeningsGiven(account: Player) {
  return server.connection.db.$count(freeOpenings, eq(freeOpenings.userId, account.userId));
}

/** What the ledger says the player paid for calls, in all. */
async function debited(account: Player) {
  const [row] = await server.connection.db
    .select({ total: sql<number>`coalesce(-sum(${creditLedger.delta}), 0)::int` })
    .from(creditLedger)
    .where(and(eq(creditLedger.userId, account.userId), eq(creditLedger.reason, "chat_message")));
  return row?.total ?? 0;
}

/** As if a day had passed for the player's free openings. */
async function aDayLater(account: Player) {
  await server.connection.db
    .update(freeOpenings)
    .set({ createdAt: sql`${freeOpenings.createdAt} - interval '1 day'` })
    .where(eq(freeOpenings.userId, account.userId));
}

describe("an Undo of the opening racing turns, on an account without credits", () => {
  it("never gives a free reply beyond the allowance, and the ledger stays equal to the balance", { timeout: 180_000 }, async () => {
    const racer = await player();
    const first = await played(await turn(racer));
    const storyId = first.turn!.storyId;
    for (let round = 0; round < 40; round += 1) {
      const [undone, raced] = await Promise.all([call(racer, `/api/stories/${storyId}/undo`, { exchange: 1 }), turn(racer, "Again.", storyId)]);
      await undone.text();
      await raced.text();
    }
    expect(await repliesWritten(racer)).toBe(RULES.perDay);
    expect(await freeOpeningsGiven(racer)).toBe(RULES.perDay);
    expect(await balanceAndLedger(racer)).toEqual({ balance: 0, ledger: 0 });
  });
});

describe("the free openings of an account", () => {
  it("are a few a day: then an opening is refused to a player without credits, and charged to one with them", async () => {
    const regular = await player();
    for (let given = 0; given < RULES.perDay; given += 1) expect((await opening(regular)).turn?.charged).toBe(0);

    const refused = await turn(regular);
    expect(refused.status).toBe(402);
    const body = (await refused.json()) as { code: string; error: string };
    expect(body.code).toBe("free_openings_used");
    expect(body.error).toBe(FREE_OPENINGS_USED_UP.day(RULES, "24 hours"));
    expect(await freeOpeningsGiven(regular)).toBe(RULES.perDay);

    await setBalance(regular, 3);
    const paid = await opening(regular);
    expect(paid.turn?.charged).toBe(1);
    expect(await debited(regular)).toBe(1);
    expect(await balanceAndLedger(regular)).toEqual({ balance: 2, ledger: 2 });

    // A day later the openings are free again.
    await aDayLater(regular);
    expect((await opening(regular)).turn?.charged).toBe(0);
    expect(await balanceAndLedger(regular)).toEqual({ balance: 2, ledger: 2 });
  });

  it("are a handful in all before the email address is confirmed; a Retry or an Edit of the opening is one too", async () => {
    const newcomer = await player({ confirmed: false });
    const first = await played(await turn(newcomer));
    expect(first.turn).toMatchObject({ exchange: 1, charged: 0 });
    const retried = await played(await call(newcomer, `/api/stories/${first.turn!.storyId}/retry`, { exchange: 1 }));
    expect(retried.turn).toMatchObject({ exchange: 1, charged: 0 });

    const refused = await call(newcomer, `/api/stories/${first.turn!.storyId}/edit`, { exchange: 1, message: "I begin again." });
    expect(refused.status).toBe(402);
    expect(await refused.json()).toEqual({
      code: "free_openings_used",
      error: FREE_OPENINGS_USED_UP.unconfirmed(RULES, null),
      resendUrl: RESEND_CONFIRMATION_PATH,
    });
    expect(await freeOpeningsGiven(newcomer)).toBe(RULES.beforeConfirmation);

    await server.connection.db.update(user).set({ emailVerified: true }).where(eq(user.id, newcomer.userId));
    const edited = await played(await call(newcomer, `/api/stories/${first.turn!.storyId}/edit`, { exchange: 1, message: "I begin again." }));
    expect(edited.turn).toMatchObject({ exchange: 1, charged: 0 });
    expect(await balanceAndLedger(newcomer)).toEqual({ balance: 0, ledger: 0 });
  });

  it("are never used up by a Continue of the opening or a later turn, which cost a credit; each turn says what it was charged", async () => {
    const payer = await player({ credits: 5 });
    const first = await played(await turn(payer));
    const continued = await played(await call(payer, `/api/stories/${first.turn!.storyId}/continue`, { exchange: 1 }));
    const second = await played(await turn(payer, "I go on.", first.turn!.storyId));
    expect([first, continued, second].map((played) => played.turn?.charged)).toEqual([0, 1, 1]);
    expect(await debited(payer)).toBe(2);
    expect(await freeOpeningsGiven(payer)).toBe(1);
    expect(await balanceAndLedger(payer)).toEqual({ balance: 3, ledger: 3 });
  });
});

describe("the free openings of a client address", () => {
  it("are a few a day for all its accounts, an IPv6 network counted as one address", async () => {
    const [first, second] = [await player({ address: "2001:db8:7:100::1" }), await player({ address: "2001:db8:7:1ff::2" })];
    for (let given = 0; given < RULES.perDay; given += 1) await opening(first);
    for (let given = RULES.perDay; given < RULES.perAddressPerDay; given += 1) await opening(second);

    const refused = await turn(second);
    expect(refused.status).toBe(402);
    expect(await refused.json()).toEqual({ code: "free_openings_used", error: FREE_OPENINGS_USED_UP.address(RULES, "24 hours") });

    // Another network is not limited by this one.
    const elsewhere = await player({ address: "2001:db8:8::1" });
    expect((await opening(elsewhere)).turn?.charged).toBe(0);
  });
});
