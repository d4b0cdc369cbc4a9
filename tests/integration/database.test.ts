import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { runMigrations } from "#app/db/migrate.server.ts";
import { creditLedger, gameContent, games, guides, profiles, user } from "#app/db/schema.ts";
import { loadSeedGames, loadSeedGuides, seedDatabase } from "#app/db/seed/seed.server.ts";
import { applyCreditChange, getBalance, InsufficientCreditsError, ledgerTotal } from "#app/domain/credits.server.ts";
import { loadStoryBrief } from "#app/domain/game-master/game-source.server.ts";
import { beginTurn } from "#app/domain/game-master/turn.server.ts";
import { seedStory } from "#tests/helpers/stories.ts";
import { CONTENT_TYPES, STARTER_CREDITS } from "#app/lib/constants.ts";
import { queryRows, testDatabaseForFile } from "#tests/helpers/database.ts";
import migrationJournal from "#app/db/migrations/meta/_journal.json" with { type: "json" };

const testDatabase = testDatabaseForFile();

async function createUser(email: string) {
  const id = `user-${email}`;
  await testDatabase.connection().db.insert(user).values({ id, name: email, email });
  return id;
}

describe("migrations", () => {
  it("create every table and can run again without changes", async () => {
    const tables = await queryRows<{ table_name: string }>(
      testDatabase.connection().db,
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    expect(tables.map((row) => row.table_name)).toEqual([
      "account",
      "blocked_terms",
      "contact_messages",
      "contact_replies",
      "content_rules",
      "cover_variants",
      "covers",
      "credit_ledger",
      "daily_credits",
      "daily_turns",
      "free_openings",
      "game_content",
      "game_lore_entries",
      "game_messages",
      "games",
      "guides",
      "hidden_worlds",
      "model_calls",
      "model_prices",
      "model_spend_days",
      "moderation_actions",
      "moderation_appeals",
      "payments",
      "profiles",
      "public_content_version",
      "rate_limit",
      "reply_ratings",
      "reply_versions",
      "seed_history",
      "session",
      "stories",
      "story_lore_entries",
      "suspended_creators",
      "user",
      "user_roles",
      "verification",
      "world_advisories",
      "world_earnings",
      "world_likes",
      "world_reports",
      "world_versions",
    ]);
    await runMigrations(testDatabase.connection().db);
    const [applied] = await queryRows<{ count: string }>(
      testDatabase.connection().db,
      sql`select count(*) as count from drizzle.__drizzle_migrations`,
    );
    expect(Number(applied?.count)).toBe(migrationJournal.entries.length);
  });

  it("refuse values outside the allowed lists", async () => {
    await expect(
      testDatabase
        .connection()
        .db.insert(games)
        .values({ slug: "x", title: "X", description: "d", prompt: "p", difficulty: "Expert" as "Beginner" }),
    ).rejects.toThrow();
    await expect(
      testDatabase.connection().db.insert(games).values({ slug: "Bad Slug", title: "X", description: "d", prompt: "p" }),
    ).rejects.toThrow();
  });
});

describe("seed", () => {
  it("has the five games with every content type, long enough to be useful", () => {
    const seedGames = loadSeedGames();
    expect(seedGames.map(({ game }) => game.slug).sort()).toEqual([
      "celebrity-life",
      "cultivation-simulator",
      "empress-simulator",
      "mary-sue-campus",
      "matriarch-harem-simulator",
    ]);
    const minimumWords: Partial<Record<string, number>> = {
      story_background: 300,
      character_development: 300,
      world_setting: 300,
      strategy_guide: 800,
      pro_tips: 800,
    };
    for (const { game, content } of seedGames) {
      expect(game.prompt.split(/\s+/).length, `${game.slug} prompt`).toBeGreaterThan(300);
      expect(content.map((row) => row.contentType).sort()).toEqual([...CONTENT_TYPES].sort());
      for (const row of content) {
        const words = row.content.split(/\s+/).length;
        const minimum = (row.contentType && minimumWords[row.contentType]) ?? 150;
        expect(words, `${game.slug}/${row.contentType}`).toBeGreaterThanOrEqual(minimum);
      }
    }
    expect(seedGames.find(({ game }) => game.slug === "empress-simulator")?.game.difficulty).toBe("Advanced");
    expect(seedGames.find(({ game }) => game.slug === "matriarch-harem-simulator")?.game.difficulty).toBe("Intermediate");
    expect(seedGames.find(({ game }) => game.slug === "mary-sue-campus")?.game.difficulty).toBe("Beginner");
    expect(loadSeedGuides().length).toBeGreaterThanOrEqual(3);
  });

  it("applies once, keeps an admin's edits and deletions on every later run", async () => {
    const first = await seedDatabase(testDatabase.connection().db);
    expect(first.games).toBe(5);
    expect(first.guides).toBeGreaterThanOrEqual(3);
    const contentRows = await testDatabase.connection().db.$count(gameContent);
    expect(contentRows).toBe(5 * CONTENT_TYPES.length);

    expect(await seedDatabase(testDatabase.connection().db)).toEqual({ games: 0, guides: 0 });

    await testDatabase.connection().db.update(games).set({ title: "The Empress, Revised" }).where(eq(games.slug, "empress-simulator"));
    const [deletedGuide] = await testDatabase.connection().db.delete(guides).returning({ slug: guides.slug });
    await testDatabase.connection().db.delete(gameContent).where(eq(gameContent.gameSlug, "celebrity-life"));

    expect(await seedDatabase(testDatabase.connection().db)).toEqual({ games: 0, guides: 0 });
    const [empress] = await testDatabase.connection().db.select().from(games).where(eq(games.slug, "empress-simulator"));
    expect(empress?.title).toBe("The Empress, Revised");
    expect(await testDatabase.connection().db.$count(guides, eq(guides.slug, deletedGuide!.slug))).toBe(0);
    expect(await testDatabase.connection().db.$count(gameContent, eq(gameContent.gameSlug, "celebrity-life"))).toBe(0);
  });
});

describe("credits ledger", () => {
  it("grants the starter credits with the user, exactly once", async () => {
    const userId = await createUser("starter@example.com");
    expect(await getBalance(userId)).toBe(STARTER_CREDITS);
    const rows = await testDatabase.connection().db.select().from(creditLedger).where(eq(creditLedger.userId, userId));
    expect(rows).toMatchObject([{ reason: "signup_bonus", delta: STARTER_CREDITS, balanceAfter: STARTER_CREDITS, reference: userId }]);
    await expect(applyCreditChange({ userId, delta: 5, reason: "signup_bonus", reference: userId })).resolves.toEqual({
      applied: false,
      balance: STARTER_CREDITS,
    });
  });

  it("applies a change once per reason and reference", async () => {
    const userId = await createUser("purchase@example.com");
    const change = { userId, delta: 500, reason: "purchase", reference: "cs_test_1" } as const;
    const results = await Promise.all([applyCreditChange(change), applyCreditChange(change), applyCreditChange(change)]);
    expect(results.filter((result) => result.applied)).toHaveLength(1);
    expect(await getBalance(userId)).toBe(STARTER_CREDITS + 500);
    expect(await ledgerTotal(userId)).toBe(STARTER_CREDITS + 500);
  });

  it("never lets concurrent debits overspend, and the ledger sums to the balance", async () => {
    const userId = await createUser("spender@example.com");
    await applyCreditChange({ userId, delta: -10, reason: "admin_grant", reference: "trim-to-10" });
    const attempts = Array.from({ length: 50 }, (_, turn) =>
      applyCreditChange({ userId, delta: -1, reason: "chat_message", reference: `turn-${turn}` }).then(
        () => "spent",
        (error: unknown) => (error instanceof InsufficientCreditsError ? "refused" : "error"),
      ),
    );
    const outcomes = await Promise.all(attempts);
    expect(outcomes.filter((outcome) => outcome === "spent")).toHaveLength(10);
    expect(outcomes.filter((outcome) => outcome === "refused")).toHaveLength(40);
    expect(await getBalance(userId)).toBe(0);
    expect(await ledgerTotal(userId)).toBe(0);
    const [profile] = await testDatabase.connection().db.select().from(profiles).where(eq(profiles.userId, userId));
    expect(profile?.credits).toBe(0);
  });

  it("records each change's resulting balance; a refused debit leaves no trace; a caller's rollback undoes a change", async () => {
    const userId = await createUser("trace@example.com");
    await expect(applyCreditChange({ userId, delta: -3, reason: "chat_message", reference: "trace-1" })).resolves.toEqual({
      applied: true,
      balance: STARTER_CREDITS - 3,
    });
    await expect(applyCreditChange({ userId, delta: -1000, reason: "chat_message", reference: "trace-2" })).rejects.toBeInstanceOf(
      InsufficientCreditsError,
    );
    await expect(
      testDatabase.connection().db.transaction(async (tx) => {
        await applyCreditChange({ userId, delta: 50, reason: "admin_grant", reference: "trace-3" }, tx);
        throw new Error("the caller changed its mind");
      }),
    ).rejects.toThrow("the caller changed its mind");

    const rows = await testDatabase.connection().db.select().from(creditLedger).where(eq(creditLedger.userId, userId)).orderBy(creditLedger.id);
    expect(rows.map(({ reason, reference, delta, balanceAfter }) => ({ reason, reference, delta, balanceAfter }))).toEqual([
      { reason: "signup_bonus", reference: userId, delta: STARTER_CREDITS, balanceAfter: STARTER_CREDITS },
      { reason: "chat_message", reference: "trace-1", delta: -3, balanceAfter: STARTER_CREDITS - 3 },
    ]);
    expect(await getBalance(userId)).toBe(STARTER_CREDITS - 3);
    // The refused reference was not used up: once the balance allows, it applies.
    await applyCreditChange({ userId, delta: 2000, reason: "admin_grant", reference: "trace-top-up" });
    await expect(applyCreditChange({ userId, delta: -1000, reason: "chat_message", reference: "trace-2" })).resolves.toMatchObject({
      applied: true,
    });
    expect(await ledgerTotal(userId)).toBe(await getBalance(userId));
  });

  it("announces every balance change on credits_changed", async () => {
    const userId = await createUser("listener@example.com");
    const received: unknown[] = [];
    const stop = await testDatabase.connection().listen("credits_changed", (payload) => received.push(JSON.parse(payload)));
    await applyCreditChange({ userId, delta: 7, reason: "admin_grant", reference: "notify-test" });
    await expect.poll(() => received).toContainEqual({ userId, credits: STARTER_CREDITS + 7 });
    await stop();
  });
});

describe("a stored story read for the model's context as a turn begins", () => {
  const limits = { maxExchanges: 20, maxCharacters: 1000 };
  const gameSlug = "story-reading";

  beforeAll(async () => {
    await testDatabase
      .connection()
      .db.insert(games)
      .values({ slug: gameSlug, title: "Story Reading", tagline: "-", description: "-", prompt: "-" });
  });

  async function story(email: string, exchanges: { message: string; reply: string }[]) {
    const userId = await createUser(email);
    const storyId = await seedStory(testDatabase.connection().db, { userId, gameSlug, exchanges });
    // What a new turn reads: the exchanges before the one it begins.
    return async (read: { maxExchanges: number; maxCharacters: number } = limits) => {
      const begun = await beginTurn({
        caller: { userId },
        storyId,
        turnId: randomUUID(),
        kind: "send",
        message: "the next move",
        leaseSeconds: 30,
        chatLimit: { name: "chat", limit: 100, windowMs: 60_000 },
        failedReplyLimit: { name: "failed_reply", limit: 100, windowMs: 60_000 },
        clientAddress: "127.0.0.1",
        freeOpenings: { perMinute: 100, perDay: 100, perAddressPerDay: 100, beforeConfirmation: 100 },
        maxStories: 100,
        ...read,
      });
      if (begun.outcome !== "started") throw new Error(`the turn did not begin: ${begun.outcome}`);
      expect(begun.exchange).toBe(exchanges.length + 1);
      return begun.conversation;
    };
  }

  const numbered = (count: number, replyLength = 10) =>
    Array.from({ length: count }, (_, index) => ({ message: `move ${index}`, reply: `${index}`.padEnd(replyLength, "r") }));

  it("is empty, with nothing missing, before the first turn", async () => {
    const read = await story("story-empty@example.com", []);
    expect(await read()).toEqual({ messages: [], hasGap: false, unanswered: 0 });
  });

  it("is the whole story, in order, when it fits", async () => {
    const read = await story("story-short@example.com", numbered(3));
    expect(await read()).toEqual({
      messages: numbered(3).flatMap(({ message, reply }, index) => [
        { role: "user", content: message, exchange: index + 1 },
        { role: "assistant", content: reply, exchange: index + 1 },
      ]),
      hasGap: false,
      unanswered: 0,
    });
  });

  it("leaves out an exchange whose reply was lost with its instance, and counts it", async () => {
    const [opening, lost, last] = numbered(3);
    const read = await story("story-lost@example.com", [opening!, { ...lost!, reply: "" }, last!]);
    expect(await read()).toEqual({
      messages: [
        { exchange: 1, ...opening! },
        { exchange: 3, ...last! },
      ].flatMap(({ exchange, message, reply }) => [
        { role: "user", content: message, exchange },
        { role: "assistant", content: reply, exchange },
      ]),
      hasGap: false,
      unanswered: 1,
    });
  });

  it("stops where the character budget is spent, keeps the opening, says the middle is missing and drops a reply cut from its message", async () => {
    // Newest first, the messages after each hold 0, 300, 306, 606, 612, 912 and 918 characters:
    // under 1,000 down to the reply to move 2, which is left out with its message.
    const read = await story("story-long@example.com", numbered(6, 300));
    const { messages, hasGap } = await read();
    expect(messages.map((message) => message.content.slice(0, 6))).toEqual([
      ...["move 0", "0rrrrr"],
      ...["move 3", "3rrrrr", "move 4", "4rrrrr", "move 5", "5rrrrr"],
    ]);
    expect(hasGap).toBe(true);
  });

  it("says nothing is missing when only the opening's first message was beyond the budget", async () => {
    const read = await story("story-two@example.com", [
      { message: "move 0", reply: "0".padEnd(900, "r") },
      { message: "move 1", reply: "1".padEnd(300, "r") },
    ]);
    const { messages, hasGap } = await read();
    expect(messages.map((message) => message.content.slice(0, 6))).toEqual(["move 0", "0rrrrr", "move 1", "1rrrrr"]);
    expect(hasGap).toBe(false);
  });

  it("says the middle may be missing when the exchange limit was reached", async () => {
    const read = await story("story-many@example.com", numbered(30));
    const { messages, hasGap } = await read({ maxExchanges: 5, maxCharacters: 100_000 });
    expect(messages).toHaveLength(12);
    expect(messages.slice(0, 3).map((message) => message.content)).toEqual(["move 0", "0rrrrrrrrr", "move 25"]);
    expect(hasGap).toBe(true);
  });
});

describe("a game as its Game Master knows it", () => {
  beforeAll(async () => {
    await testDatabase
      .connection()
      .db.insert(games)
      .values([
        { slug: "brief-game", title: "Brief Game", tagline: "-", description: "-", prompt: "BRIEF-PROMPT" },
        { slug: "brief-retired", title: "Retired", tagline: "-", description: "-", prompt: "-", isActive: false },
      ]);
    // Written in an order unlike the world's priority, with content the narrator must not see.
    await testDatabase
      .connection()
      .db.insert(gameContent)
      .values([
        { gameSlug: "brief-game", contentType: "introduction", title: "Intro", content: "I", sectionOrder: 0 },
        { gameSlug: "brief-game", contentType: "combat_mechanics", title: "Combat 2", content: "C2", sectionOrder: 2 },
        { gameSlug: "brief-game", contentType: "combat_mechanics", title: "Combat 1", content: "C1", sectionOrder: 1 },
        { gameSlug: "brief-game", contentType: "story_background", title: "Story", content: "S", sectionOrder: 9 },
        { gameSlug: "brief-game", contentType: "pro_tips", title: "Tips", content: "T" },
        { gameSlug: "brief-game", contentType: "world_setting", title: "Draft", content: "D", isPublished: false },
      ]);
  });

  it("is its prompt and its published world content, most important first, in each type's section order", async () => {
    expect(await loadStoryBrief("brief-game")).toEqual({
      slug: "brief-game",
      title: "Brief Game",
      prompt: "BRIEF-PROMPT",
      trackedStats: [],
      model: null,
      contextTokens: null,
      sections: [
        { contentType: "story_background", title: "Story", content: "S" },
        { contentType: "combat_mechanics", title: "Combat 1", content: "C1" },
        { contentType: "combat_mechanics", title: "Combat 2", content: "C2" },
        { contentType: "introduction", title: "Intro", content: "I" },
      ],
    });
  });

  it("is nothing for an inactive or unknown game", async () => {
    expect(await loadStoryBrief("brief-retired")).toBeUndefined();
    expect(await loadStoryBrief("no-such-game")).toBeUndefined();
  });
});
