import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseConnection } from "#app/db/client.server.ts";
import { gameContent, games } from "#app/db/schema.ts";
import { seedDatabase } from "#app/db/seed/seed.server.ts";
import { loadStoryBrief } from "#app/domain/game-master/game-source.server.ts";
import { publicContentVersionWatch, readPublicContentVersion } from "#app/domain/public-content-version.server.ts";
import { queryRows, testDatabaseForFile } from "#tests/helpers/database.ts";

const database = testDatabaseForFile();
let connection: DatabaseConnection;

beforeAll(async () => {
  connection = database.connection();
  await seedDatabase(connection.db);
  await publicContentVersionWatch.start(connection);
});

// Before the file's database closes: after hooks run last registered first.
afterAll(() => publicContentVersionWatch.stop());

async function retitle(title: string) {
  await connection.db.update(games).set({ title }).where(eq(games.slug, "empress-simulator"));
}

describe("the public content version each process keeps", () => {
  it("is known without a read, and moves on when a change to games commits", async () => {
    const stored = await readPublicContentVersion();
    expect(publicContentVersionWatch.current()).toBe(stored);
    await retitle("Empress Simulator Deluxe");
    await expect.poll(() => publicContentVersionWatch.current()).toBe(stored + 1);
    await retitle("Empress Simulator");
    await expect.poll(() => publicContentVersionWatch.current()).toBe(stored + 2);
  });

  it("is not moved by a change that rolls back", async () => {
    const before = publicContentVersionWatch.current();
    await expect(
      connection.db.transaction(async (transaction) => {
        await transaction.update(games).set({ title: "Never" }).where(eq(games.slug, "empress-simulator"));
        throw new Error("abandoned");
      }),
    ).rejects.toThrow("abandoned");
    await retitle("Empress Simulator");
    // The next committed change is the one heard: the rolled-back bump was never sent.
    await expect.poll(() => publicContentVersionWatch.current()).toBe(Number(before) + 1);
  });

  it.runIf(process.env.TEST_DATABASE_DRIVER === "postgres")(
    "is read afresh while the notification channel is lost, and known again once it is back",
    async () => {
      const [listener] = await queryRows<{ pid: number }>(
        connection.db,
        sql`select pid from pg_stat_activity where datname = current_database() and query ilike 'LISTEN%'`,
      );
      expect(listener).toBeDefined();
      await queryRows(connection.db, sql`select pg_terminate_backend(${listener!.pid})`);
      await expect.poll(() => publicContentVersionWatch.current() instanceof Promise).toBe(true);

      // Made while nobody listens: no notification will ever tell of it.
      await retitle("Empress Simulator (missed)");
      const stored = await readPublicContentVersion();
      expect(await publicContentVersionWatch.current()).toBe(stored);
      await expect.poll(() => typeof publicContentVersionWatch.current(), { timeout: 5000 }).toBe("number");
      expect(publicContentVersionWatch.current()).toBe(stored);
      await retitle("Empress Simulator");
      await expect.poll(() => publicContentVersionWatch.current()).toBe(stored + 1);
      expect(typeof publicContentVersionWatch.current()).toBe("number");
    },
  );
});

describe("the Game Master's brief of a game", () => {
  it("is read once per public content version, and again once a change is heard", async () => {
    const first = await loadStoryBrief("empress-simulator");
    expect(first?.title).toBe("Empress Simulator");
    expect(await loadStoryBrief("empress-simulator")).toBe(first);

    await connection.db.insert(gameContent).values({
      gameSlug: "empress-simulator",
      contentType: "world_setting",
      title: "The Eastern Wing",
      content: "A NEW WING OF THE PALACE opens.",
      sectionOrder: 900,
    });
    await expect
      .poll(async () => (await loadStoryBrief("empress-simulator"))?.sections.map((section) => section.content))
      .toContain("A NEW WING OF THE PALACE opens.");
    await connection.db.update(games).set({ isActive: false }).where(eq(games.slug, "empress-simulator"));
    try {
      await expect.poll(() => loadStoryBrief("empress-simulator")).toBeUndefined();
    } finally {
      await connection.db.update(games).set({ isActive: true }).where(eq(games.slug, "empress-simulator"));
    }
  });
});
