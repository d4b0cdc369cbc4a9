import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gameLoreEntries, games, stories, storyLoreEntries } from "#app/db/schema.ts";
import type { ContextLore } from "#app/domain/game-master/context.server.ts";
import { loreForTurn } from "#app/domain/game-master/lorebook.server.ts";
import { MAX_STORY_LORE_ENTRIES, type GameLoreEntryView, type LoreEntryView } from "#app/lib/lorebook.ts";
import { makeAdmin, signUp, type TestAccount, apiRequest, type ApiInit } from "#tests/helpers/accounts.ts";
import { createTestGame, TEST_GAME } from "#tests/helpers/game-chat.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";
import { beginStory } from "#tests/helpers/stories.ts";

/** Lorebooks through the API: a story's for its player, a game's for admins, SillyTavern files in and out. */

let server: TestServer;
let admin: TestAccount;
let gameId: string;

beforeAll(async () => {
  server = await startTestServer();
  await createTestGame(server);
  admin = await signUp(server);
  await makeAdmin(server, admin);
  const [game] = await server.connection.db.select({ id: games.id }).from(games).where(eq(games.slug, TEST_GAME.slug));
  gameId = game!.id;
});

afterAll(() => server.close());

const api = (account: TestAccount | null, path: string, init?: ApiInit) => apiRequest(server, account, path, init);

async function playing() {
  const player = await signUp(server);
  const storyId = await beginStory(server, player, TEST_GAME.slug);
  return { player, storyId };
}

const dragon = {
  title: "The dragon",
  keys: "dragon, /wyrms?/",
  content: "Vask sleeps under the lighthouse.",
  alwaysOn: false,
  priority: 5,
  enabled: true,
};

async function storyRows(storyId: string) {
  return server.connection.db.select().from(storyLoreEntries).where(eq(storyLoreEntries.storyId, storyId));
}

describe("a story's lorebook", () => {
  it("lets its player add, list, change and delete entries", async () => {
    const { player, storyId } = await playing();
    const created = await api(player, `/api/stories/${storyId}/lore`, { body: { ...dragon, title: "  The dragon " } });
    expect(created.status).toBe(200);
    const { entry } = (await created.json()) as { entry: LoreEntryView };
    expect(entry).toMatchObject({ ...dragon, id: expect.any(String) as string });

    const changed = await api(player, `/api/stories/${storyId}/lore/${entry.id}`, {
      method: "PUT",
      body: { ...dragon, content: "Vask is awake." },
    });
    expect(changed.status).toBe(200);
    const listed = (await (await api(player, `/api/stories/${storyId}/lore`)).json()) as { entries: LoreEntryView[] };
    expect(listed.entries.map((row) => row.content)).toEqual(["Vask is awake."]);

    expect((await api(player, `/api/stories/${storyId}/lore/${entry.id}`, { method: "DELETE" })).status).toBe(200);
    expect(await storyRows(storyId)).toEqual([]);
    expect((await api(player, `/api/stories/${storyId}/lore/${entry.id}`, { method: "DELETE" })).status).toBe(404);
  });

  it("is the player's own: another player gets 404 and changes nothing, a stranger 401", async () => {
    const { player, storyId } = await playing();
    const { entry } = (await (await api(player, `/api/stories/${storyId}/lore`, { body: dragon })).json()) as { entry: LoreEntryView };
    const other = await signUp(server);
    for (const [method, path, body] of [
      ["GET", `/api/stories/${storyId}/lore`, undefined],
      ["POST", `/api/stories/${storyId}/lore`, dragon],
      ["PUT", `/api/stories/${storyId}/lore/${entry.id}`, { ...dragon, content: "Taken over." }],
      ["DELETE", `/api/stories/${storyId}/lore/${entry.id}`, undefined],
      ["GET", `/api/stories/${storyId}/lore/world-info`, undefined],
    ] as const) {
      const response = await api(other, path, { method, body });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(((await response.json()) as { code: string }).code).toBe("not_found");
    }
    // An entry id of another story, even the other player's own story, does not reach this one.
    const { storyId: otherStory } = await playing();
    expect((await api(player, `/api/stories/${otherStory}/lore/${entry.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await api(null, `/api/stories/${storyId}/lore`)).status).toBe(401);
    expect((await storyRows(storyId)).map((row) => row.content)).toEqual([dragon.content]);
  });

  it("refuses unsafe patterns and oversized entries with a sentence, storing nothing", async () => {
    const { player, storyId } = await playing();
    const unsafe = await api(player, `/api/stories/${storyId}/lore`, { body: { ...dragon, keys: "/(a+)+$/" } });
    expect(unsafe.status).toBe(400);
    const body = (await unsafe.json()) as { error: string; code: string; fieldErrors: Record<string, string> };
    expect(body.code).toBe("invalid_input");
    expect(body.fieldErrors.keys).toBe(body.error);
    expect(body.error).toMatch(/could take too long to match/);
    const long = await api(player, `/api/stories/${storyId}/lore`, { body: { ...dragon, content: "x".repeat(2001) } });
    expect(long.status).toBe(400);
    expect(((await long.json()) as { error: string }).error).toBe("Keep the content under 2,000 characters.");
    expect(await storyRows(storyId)).toEqual([]);
  });

  it("holds at most its bound of entries, even when added at once", async () => {
    const { player, storyId } = await playing();
    await server.connection.db
      .insert(storyLoreEntries)
      .values(Array.from({ length: MAX_STORY_LORE_ENTRIES - 2 }, (_, index) => ({ storyId, title: `E${index}`, content: "x" })));
    const answers = await Promise.all(Array.from({ length: 4 }, () => api(player, `/api/stories/${storyId}/lore`, { body: dragon })));
    expect(answers.map((response) => response.status).toSorted()).toEqual([200, 200, 400, 400]);
    expect(((await answers.find((response) => response.status === 400)!.json()) as { error: string }).error).toBe(
      `A story's lorebook holds at most ${MAX_STORY_LORE_ENTRIES} entries.`,
    );
    expect(await storyRows(storyId)).toHaveLength(MAX_STORY_LORE_ENTRIES);
  });

  it("never changes the game's entries", async () => {
    const { player, storyId } = await playing();
    const [canon] = await server.connection.db
      .insert(gameLoreEntries)
      .values({ gameSlug: TEST_GAME.slug, title: "Canon", content: "The harbour never sleeps." })
      .returning();
    expect((await api(player, `/api/stories/${storyId}/lore/${canon!.id}`, { method: "PUT", body: dragon })).status).toBe(404);
    expect((await api(player, `/api/stories/${storyId}/lore/${canon!.id}`, { method: "DELETE" })).status).toBe(404);
    const [still] = await server.connection.db.select().from(gameLoreEntries).where(eq(gameLoreEntries.id, canon!.id));
    expect(still?.content).toBe("The harbour never sleeps.");
    await server.connection.db.delete(gameLoreEntries).where(eq(gameLoreEntries.id, canon!.id));
  });
});

const sillyTavernFile = {
  entries: {
    "0": {
      uid: 0,
      key: ["Harbormaster", "Ilse"],
      keysecondary: [],
      comment: "Ilse Varga",
      content: "Counts every ship.",
      constant: false,
      order: 100,
      disable: false,
      position: 0,
      selective: true,
    },
    "1": { uid: 1, key: [], keysecondary: [], comment: "Tone", content: "Salt and lamplight.", constant: true, order: 10, disable: true },
  },
};

describe("SillyTavern world info", () => {
  it("imports a world-info file and exports what it imported", async () => {
    const { player, storyId } = await playing();
    const imported = await api(player, `/api/stories/${storyId}/lore/world-info`, { body: sillyTavernFile });
    expect(imported.status).toBe(200);
    expect(((await imported.json()) as { entries: LoreEntryView[] }).entries.map(({ id: _id, ...entry }) => entry)).toEqual([
      { title: "Ilse Varga", keys: "Harbormaster, Ilse", content: "Counts every ship.", alwaysOn: false, priority: 100, enabled: true },
      { title: "Tone", keys: "", content: "Salt and lamplight.", alwaysOn: true, priority: 10, enabled: false },
    ]);
    const exported = (await (await api(player, `/api/stories/${storyId}/lore/world-info`)).json()) as typeof sillyTavernFile;
    const fields = ({
      key,
      keysecondary,
      comment,
      content,
      constant,
      order,
      disable,
    }: Omit<(typeof sillyTavernFile.entries)["1"], "key"> & { key: string[] }) => ({
      key,
      keysecondary,
      comment,
      content,
      constant,
      order,
      disable,
    });
    expect(Object.values(exported.entries).map(fields)).toEqual(Object.values(sillyTavernFile.entries).map(fields));

    // Round trip: the exported file imports into another story as the same entries.
    const { player: second, storyId: secondStory } = await playing();
    expect((await api(second, `/api/stories/${secondStory}/lore/world-info`, { body: exported })).status).toBe(200);
    const strip = (rows: { title: string; keys: string; content: string; alwaysOn: boolean; priority: number; enabled: boolean }[]) =>
      rows.map(({ title, keys, content, alwaysOn, priority, enabled }) => ({ title, keys, content, alwaysOn, priority, enabled }));
    expect(strip(await storyRows(secondStory))).toEqual(strip(await storyRows(storyId)));
  });

  it("keeps a pattern key whole through export and import", async () => {
    const { player, storyId } = await playing();
    await api(player, `/api/stories/${storyId}/lore`, { body: { ...dragon, keys: "dragon, /wyrm{1,2}s?/i" } });
    const exported = (await (await api(player, `/api/stories/${storyId}/lore/world-info`)).json()) as {
      entries: Record<string, { key: string[] }>;
    };
    expect(exported.entries["0"]?.key).toEqual(["dragon", "/wyrm{1,2}s?/i"]);
  });

  it("refuses hostile or malformed files with a sentence and stores nothing", async () => {
    const { player, storyId } = await playing();
    const entry = sillyTavernFile.entries["0"];
    const hostile: [unknown, RegExp][] = [
      [[1, 2, 3], /JSON object with entries/],
      [{ entries: "everything" }, /entries/],
      [{ entries: {} }, /no entries to import/],
      [{ entries: [entry, { ...entry, key: ["/(x+)+y/"] }] }, /^Entry 2 \(“Ilse Varga”\): The pattern \/\(x\+\)\+y\/ could take too long/],
      [{ entries: [{ ...entry, keysecondary: ["harbour"] }] }, /Secondary keys/],
      [{ entries: [{ ...entry, content: "" }] }, /^Entry 1 .*Write what the Game Master should know\./],
      [{ entries: [{ ...entry, content: "y".repeat(5000) }] }, /Keep the content under 2,000 characters/],
      [{ entries: [{ ...entry, order: 1e9 }] }, /priority is between/],
      [{ entries: [{ ...entry, key: "Ilse" }] }, /"entries\.0\.key" must be/],
      [{ entries: Array.from({ length: MAX_STORY_LORE_ENTRIES + 1 }, () => entry) }, /at most 100 entries/],
    ];
    for (const [file, sentence] of hostile) {
      const response = await api(player, `/api/stories/${storyId}/lore/world-info`, { body: file });
      expect(response.status, JSON.stringify(file).slice(0, 80)).toBe(400);
      const body = (await response.json()) as { error: string; code: string };
      expect(body.error, JSON.stringify(file).slice(0, 80)).toMatch(sentence);
      expect(body.error.endsWith(".")).toBe(true);
    }
    expect(await storyRows(storyId)).toEqual([]);
    const invalidJson = await server.fetch(`/api/stories/${storyId}/lore/world-info`, {
      method: "POST",
      headers: { Authorization: `Bearer ${player.token}`, "Content-Type": "application/json" },
      body: '{"entries": [',
    });
    expect(invalidJson.status).toBe(400);
    expect(await storyRows(storyId)).toEqual([]);
  });
});

describe("a game's lorebook", () => {
  it("is edited by admins only, and sets how far back keys are looked for", async () => {
    const player = await signUp(server);
    expect((await api(player, `/api/admin/games/${gameId}/lore`)).status).toBe(403);
    expect((await api(player, `/api/admin/games/${gameId}/lore`, { body: dragon })).status).toBe(403);

    const created = (await (await api(admin, `/api/admin/games/${gameId}/lore`, { body: dragon })).json()) as { entry: LoreEntryView };
    const depth = await api(admin, `/api/admin/games/${gameId}/lore`, { method: "PATCH", body: { scanDepth: 4 } });
    expect(await depth.json()).toEqual({ scanDepth: 4 });
    expect((await api(admin, `/api/admin/games/${gameId}/lore`, { method: "PATCH", body: { scanDepth: 11 } })).status).toBe(400);
    const listed = (await (await api(admin, `/api/admin/games/${gameId}/lore`)).json()) as { scanDepth: number; entries: LoreEntryView[] };
    expect(listed.scanDepth).toBe(4);
    expect(listed.entries.map((entry) => entry.id)).toContain(created.entry.id);

    const put = await api(admin, `/api/admin/games/${gameId}/lore/${created.entry.id}`, { method: "PUT", body: { ...dragon, enabled: false } });
    expect(((await put.json()) as { entry: LoreEntryView }).entry.enabled).toBe(false);
    expect((await api(admin, `/api/admin/games/${gameId}/lore/${created.entry.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await api(admin, `/api/admin/games/${gameId}/lore/not-an-id`, { method: "DELETE" })).status).toBe(404);
    await api(admin, `/api/admin/games/${gameId}/lore`, { method: "PATCH", body: { scanDepth: 2 } });
  });

  it("round-trips a SillyTavern file", async () => {
    const imported = await api(admin, `/api/admin/games/${gameId}/lore/world-info`, { body: sillyTavernFile });
    expect(imported.status).toBe(200);
    const exported = (await (await api(admin, `/api/admin/games/${gameId}/lore/world-info`)).json()) as typeof sillyTavernFile;
    expect(Object.values(exported.entries).map((entry) => entry.comment)).toEqual(["Ilse Varga", "Tone"]);
    await server.connection.db.delete(gameLoreEntries).where(eq(gameLoreEntries.gameSlug, TEST_GAME.slug));
  });
});

describe("the game's entries shown to players", () => {
  const shown = { ...dragon, title: "The harbour", keys: "harbour, quay", content: "The harbour never sleeps.", shownToPlayers: true };
  const hidden = { ...dragon, title: "The traitor", keys: "Ilse", content: "Ilse sold the fleet." };

  it("are marked by admins (hidden unless they say so) and listed, read-only, in the story's lorebook; hidden ones are never sent", async () => {
    const created = async (body: object) =>
      ((await (await api(admin, `/api/admin/games/${gameId}/lore`, { body })).json()) as { entry: GameLoreEntryView }).entry;
    const harbour = await created(shown);
    const traitor = await created(hidden);
    const disabled = await created({ ...shown, title: "The old harbour", enabled: false });
    expect(harbour.shownToPlayers).toBe(true);
    // Not said: hidden, so nothing written before the flag existed is shown.
    expect(traitor.shownToPlayers).toBe(false);
    const listed = (await (await api(admin, `/api/admin/games/${gameId}/lore`)).json()) as { entries: GameLoreEntryView[] };
    expect(listed.entries.map((entry) => [entry.title, entry.shownToPlayers]).toSorted()).toEqual([
      ["The harbour", true],
      ["The old harbour", true],
      ["The traitor", false],
    ]);

    const { player, storyId } = await playing();
    await api(player, `/api/stories/${storyId}/lore`, { body: { ...dragon, title: "My wyrm" } });
    const response = await api(player, `/api/stories/${storyId}/lore`);
    expect(response.status).toBe(200);
    const text = await response.text();
    // Nothing of a hidden or disabled entry is in the answer, nor the admin's own fields.
    for (const secret of [traitor.id, "The traitor", "Ilse sold the fleet.", disabled.id, "The old harbour"]) expect(text).not.toContain(secret);
    const body = JSON.parse(text) as { entries: LoreEntryView[]; gameEntries: unknown[] };
    expect(body.entries.map((entry) => entry.title)).toEqual(["My wyrm"]);
    expect(body.gameEntries).toEqual([{ id: harbour.id, title: "The harbour", keys: "harbour, quay", content: "The harbour never sleeps." }]);

    // An admin hides it again; the player's next read no longer has it. The player cannot change it.
    const put = await api(admin, `/api/admin/games/${gameId}/lore/${harbour.id}`, { method: "PUT", body: { ...shown, shownToPlayers: false } });
    expect(((await put.json()) as { entry: GameLoreEntryView }).entry.shownToPlayers).toBe(false);
    expect(((await (await api(player, `/api/stories/${storyId}/lore`)).json()) as { gameEntries: unknown[] }).gameEntries).toEqual([]);
    expect((await api(player, `/api/stories/${storyId}/lore/${harbour.id}`, { method: "PUT", body: shown })).status).toBe(404);

    // Another player's story answers 404, with no entries at all.
    const other = await signUp(server);
    const stranger = await api(other, `/api/stories/${storyId}/lore`);
    expect(stranger.status).toBe(404);
    expect(await stranger.text()).not.toContain("harbour");
    await server.connection.db.delete(gameLoreEntries).where(eq(gameLoreEntries.gameSlug, TEST_GAME.slug));
  });

  it("stay out of SillyTavern files, which have no such field: an imported entry is hidden", async () => {
    await api(admin, `/api/admin/games/${gameId}/lore`, { body: shown });
    const exported = (await (await api(admin, `/api/admin/games/${gameId}/lore/world-info`)).json()) as {
      entries: Record<string, Record<string, unknown>>;
    };
    expect(Object.values(exported.entries).map((entry) => Object.keys(entry).filter((field) => /shown|player/i.test(field)))).toEqual([[]]);
    await server.connection.db.delete(gameLoreEntries).where(eq(gameLoreEntries.gameSlug, TEST_GAME.slug));
    const imported = await api(admin, `/api/admin/games/${gameId}/lore/world-info`, { body: exported });
    expect(((await imported.json()) as { entries: GameLoreEntryView[] }).entries.map((entry) => entry.shownToPlayers)).toEqual([false]);
    await server.connection.db.delete(gameLoreEntries).where(eq(gameLoreEntries.gameSlug, TEST_GAME.slug));
  });
});

describe("lore for a story's turn (story_lore.sql)", () => {
  it("brings the game's and the story's enabled entries to the matching engine", async () => {
    const { player, storyId } = await playing();
    await api(admin, `/api/admin/games/${gameId}/lore`, { body: { ...dragon, title: "Canon dragon" } });
    await api(admin, `/api/admin/games/${gameId}/lore`, { body: { ...dragon, title: "Hidden", enabled: false } });
    await api(player, `/api/stories/${storyId}/lore`, { body: { ...dragon, title: "My wyrm", keys: "wyrm", priority: 9 } });
    // What begin_turn answers a started turn with (app/db/functions/story_lore.sql).
    const [{ lore } = { lore: undefined }] = await server.connection.db
      .select({ lore: sql<ContextLore>`story_lore(${stories.id}, ${stories.gameSlug}, ${stories.worldVersion})` })
      .from(stories)
      .where(eq(stories.id, storyId));
    if (!lore) throw new Error("The story was not found.");
    expect(lore.scanDepth).toBe(2);
    // Each by its row's id, which names it in what the Game Master saw whatever it is renamed to.
    expect(lore.entries.every((entry) => /^[0-9a-f-]{36}$/.test(entry.id))).toBe(true);
    expect(lore.entries.map((entry) => [entry.source, entry.title])).toEqual([
      ["game", "Canon dragon"],
      ["story", "My wyrm"],
    ]);
    const turn = loreForTurn({ ...lore, message: "A wyrm and a dragon!", recentExchanges: [], budgetTokens: 500 });
    expect(turn.triggered.map((included) => [included.entry.title, included.firing?.key])).toEqual([
      ["My wyrm", "wyrm"],
      ["Canon dragon", "dragon"],
    ]);
    await server.connection.db.delete(gameLoreEntries).where(eq(gameLoreEntries.gameSlug, TEST_GAME.slug));
  });
});
