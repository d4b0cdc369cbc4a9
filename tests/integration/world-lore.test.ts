import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { gameLoreEntries, worldVersions } from "#app/db/schema.ts";
import { MAX_GAME_LORE_ENTRIES, type GameLoreEntryView } from "#app/lib/lorebook.ts";
import { apiRequest, signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { v3Card } from "#tests/helpers/character-cards.ts";
import { postChat, readTurn, withStoryTestServer } from "#tests/helpers/game-chat.ts";
import type { TestServer } from "#tests/helpers/server.ts";
import { createWorld, publishWorld, redirectedWorld, remixWorld } from "#tests/helpers/worlds.ts";
import type { FakeModelServer } from "#tests/fakes/streaming-model.ts";

/**
 * A world's lorebook is its game's (issue 36, docs/decisions/065): a card's entries reach the
 * Game Master, the creator edits them on /create through endpoints of their own, and the card
 * is written again from them with every field the site does not use.
 */

let model: FakeModelServer;
let server: TestServer;
withStoryTestServer((started) => ({ model, server } = started));

function importCard(account: TestAccount, card: unknown) {
  const form = new FormData();
  form.set("card", new File([JSON.stringify(card)], "card.json", { type: "application/json" }));
  return server.fetch("/create/import", { method: "POST", headers: { Cookie: account.cookie }, body: form });
}

async function importedWorld(account: TestAccount, card: unknown = v3Card) {
  return redirectedWorld(server, await importCard(account, card));
}

async function exportedCard(account: TestAccount, id: string) {
  const response = await server.fetch(`/create/${id}/card/json`, { headers: { Cookie: account.cookie } });
  expect(response.status).toBe(200);
  return (await response.json()) as { data: { character_book: { entries: Record<string, unknown>[] } } };
}

async function listed(account: TestAccount | null, id: string) {
  const response = await apiRequest(server, account, `/api/worlds/${id}/lore`);
  return { status: response.status, body: (await response.json()) as { entries?: GameLoreEntryView[]; error?: string } };
}

const NEW_ENTRY = {
  title: "The jade seal",
  keys: "seal, jade",
  content: "The seal is kept in the Empress's sleeve.",
  alwaysOn: false,
  priority: 3,
  enabled: true,
};

describe("a world's lorebook", () => {
  it("stores an imported card's entries as the game's lorebook, which a turn matches against", async () => {
    const creator = await signUp(server);
    const world = await importedWorld(creator);
    const rows = await server.connection.db
      .select({
        title: gameLoreEntries.title,
        keys: gameLoreEntries.keys,
        alwaysOn: gameLoreEntries.alwaysOn,
        priority: gameLoreEntries.priority,
        enabled: gameLoreEntries.enabled,
      })
      .from(gameLoreEntries)
      .where(eq(gameLoreEntries.gameSlug, world.slug))
      .orderBy(gameLoreEntries.createdAt);
    expect(rows).toEqual([
      { title: "The gatekeeper", keys: "eunuch, Gao", alwaysOn: false, priority: 10, enabled: true },
      { title: "Untitled entry", keys: "", alwaysOn: true, priority: 0, enabled: false },
    ]);

    const turn = await readTurn(await postChat(server, creator, { game_slug: world.slug, message: "I bow to the eunuch at the door." }));
    expect(turn.done).toBe(true);
    const request = JSON.stringify(model.requests.at(-1)!.body);
    expect(request).toContain("The gatekeeper: Gao Lishi controls who reaches the throne.");
    // Disabled in the card, so never sent, though it is constant.
    expect(request).not.toContain("The year is 690.");
  });

  it("lets the creator add, change and delete entries, with the admin's checks and cap", async () => {
    const creator = await signUp(server);
    const world = await createWorld(server, creator);
    expect((await listed(creator, world.id)).body.entries).toEqual([]);

    const created = await apiRequest(server, creator, `/api/worlds/${world.id}/lore`, { body: NEW_ENTRY });
    expect(created.status).toBe(200);
    const { entry } = (await created.json()) as { entry: GameLoreEntryView };
    expect(entry).toMatchObject(NEW_ENTRY);

    const changed = await apiRequest(server, creator, `/api/worlds/${world.id}/lore/${entry.id}`, {
      method: "PUT",
      body: { ...NEW_ENTRY, content: "The seal is lost." },
    });
    expect(changed.status).toBe(200);
    expect((await listed(creator, world.id)).body.entries).toEqual([
      { ...NEW_ENTRY, id: entry.id, content: "The seal is lost.", shownToPlayers: false },
    ]);

    const untitled = await apiRequest(server, creator, `/api/worlds/${world.id}/lore`, { body: { ...NEW_ENTRY, title: " " } });
    expect(untitled.status).toBe(400);
    expect(JSON.stringify(await untitled.json())).toContain("Give the entry a title.");
    const slow = await apiRequest(server, creator, `/api/worlds/${world.id}/lore`, { body: { ...NEW_ENTRY, keys: "/(a+)+$/" } });
    expect(slow.status).toBe(400);
    expect(((await slow.json()) as { error: string }).error).toMatch(/could take too long to match/);

    const deleted = await apiRequest(server, creator, `/api/worlds/${world.id}/lore/${entry.id}`, { method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect((await listed(creator, world.id)).body.entries).toEqual([]);

    const file = { entries: Array.from({ length: MAX_GAME_LORE_ENTRIES }, (_, uid) => ({ key: [`k${uid}`], comment: `E${uid}`, content: "x" })) };
    expect((await apiRequest(server, creator, `/api/worlds/${world.id}/lore/world-info`, { body: file })).status).toBe(200);
    const over = await apiRequest(server, creator, `/api/worlds/${world.id}/lore`, { body: NEW_ENTRY });
    expect(over.status).toBe(400);
    expect(((await over.json()) as { error: string }).error).toBe(`A game's lorebook holds at most ${MAX_GAME_LORE_ENTRIES} entries.`);
    const exported = await apiRequest(server, creator, `/api/worlds/${world.id}/lore/world-info`);
    expect(Object.keys(((await exported.json()) as { entries: object }).entries)).toHaveLength(MAX_GAME_LORE_ENTRIES);
  });

  it("answers 404 to another player and refuses a visitor, changing nothing", async () => {
    const [creator, other] = [await signUp(server), await signUp(server)];
    const world = await createWorld(server, creator);
    const created = await apiRequest(server, creator, `/api/worlds/${world.id}/lore`, { body: NEW_ENTRY });
    const { entry } = (await created.json()) as { entry: GameLoreEntryView };
    for (const account of [other, null]) {
      const expected = account ? 404 : 401;
      expect((await listed(account, world.id)).status).toBe(expected);
      expect((await apiRequest(server, account, `/api/worlds/${world.id}/lore`, { body: NEW_ENTRY })).status).toBe(expected);
      const path = `/api/worlds/${world.id}/lore/${entry.id}`;
      expect((await apiRequest(server, account, path, { method: "PUT", body: { ...NEW_ENTRY, content: "Changed." } })).status).toBe(expected);
      expect((await apiRequest(server, account, path, { method: "DELETE" })).status).toBe(expected);
      expect((await apiRequest(server, account, `/api/worlds/${world.id}/lore/world-info`)).status).toBe(expected);
      expect((await apiRequest(server, account, `/api/worlds/${world.id}/lore/world-info`, { body: { entries: [] } })).status).toBe(expected);
    }
    expect((await listed(creator, world.id)).body.entries).toEqual([{ ...NEW_ENTRY, id: entry.id, shownToPlayers: false }]);
    // An entry of another world is not reached through this one's address.
    const elsewhere = await createWorld(server, other);
    expect((await apiRequest(server, other, `/api/worlds/${elsewhere.id}/lore/${entry.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await listed(creator, world.id)).body.entries).toHaveLength(1);
  });

  it("exports the card's lorebook from the entries, keeping what the site does not use, edited or not", async () => {
    const creator = await signUp(server);
    const world = await importedWorld(creator);
    expect(await exportedCard(creator, world.id)).toEqual(v3Card);

    const { entries } = (await listed(creator, world.id)).body;
    const gatekeeper = entries!.find((entry) => entry.title === "The gatekeeper")!;
    await apiRequest(server, creator, `/api/worlds/${world.id}/lore/${gatekeeper.id}`, {
      method: "PUT",
      body: { ...gatekeeper, title: "Gao Lishi", keys: "eunuch, Gao, steward", priority: 20 },
    });
    await apiRequest(server, creator, `/api/worlds/${world.id}/lore`, { body: NEW_ENTRY });
    const card = await exportedCard(creator, world.id);
    const [edited, untouched, added] = card.data.character_book.entries;
    const [original, constant] = v3Card.data.character_book.entries;
    expect(edited).toEqual({ ...original, comment: "Gao Lishi", keys: ["eunuch", "Gao", "steward"], insertion_order: 20 });
    expect(untouched).toEqual(constant);
    expect(added).toEqual({
      extensions: {},
      use_regex: false,
      comment: "The jade seal",
      keys: ["seal", "jade"],
      content: NEW_ENTRY.content,
      constant: false,
      enabled: true,
      insertion_order: 3,
    });

    // Imported again, the card gives the same entries.
    const again = await importedWorld(creator, card);
    const strip = (list: GameLoreEntryView[] | undefined) => list?.map(({ id: _id, ...entry }) => entry);
    expect(strip((await listed(creator, again.id)).body.entries)).toEqual(strip((await listed(creator, world.id)).body.entries));
  });

  it("takes a card's scan_depth as the look-back, lets its creator alone change it within bounds, and writes it back out", async () => {
    const creator = await signUp(server);
    const other = await signUp(server);
    const world = await importedWorld(creator);
    const lookBack = async (account: TestAccount | null, body: unknown) =>
      apiRequest(server, account, `/api/worlds/${world.id}/lore`, { method: "PATCH", body });
    expect((await listed(creator, world.id)).body).toMatchObject({ scanDepth: v3Card.data.character_book.scan_depth });

    const tooFar = await lookBack(creator, { scanDepth: 11 });
    expect(tooFar.status).toBe(400);
    expect(JSON.stringify(await tooFar.json())).toContain("Look back between 0 and 10 exchanges.");
    expect((await lookBack(other, { scanDepth: 6 })).status).toBe(404);
    expect((await lookBack(null, { scanDepth: 6 })).status).toBe(401);
    expect((await listed(creator, world.id)).body).toMatchObject({ scanDepth: v3Card.data.character_book.scan_depth });

    const changed = await lookBack(creator, { scanDepth: 6 });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toEqual({ scanDepth: 6 });
    expect((await exportedCard(creator, world.id)).data.character_book).toMatchObject({ scan_depth: 6 });
  });

  it("keeps the lorebook in a published version and brings it to a remix", async () => {
    const [creator, remixer] = [await signUp(server), await signUp(server)];
    const world = await createWorld(server, creator);
    await apiRequest(server, creator, `/api/worlds/${world.id}/lore`, { body: NEW_ENTRY });
    expect((await apiRequest(server, creator, `/api/worlds/${world.id}/lore`, { method: "PATCH", body: { scanDepth: 5 } })).status).toBe(200);
    expect((await publishWorld(server, creator, world.id, "public")).status).toBe(302);
    const [version] = await server.connection.db
      .select({ lore: worldVersions.lore })
      .from(worldVersions)
      .where(and(eq(worldVersions.gameId, world.id), eq(worldVersions.version, 1)));
    const [entry] = (await listed(creator, world.id)).body.entries ?? [];
    expect(version?.lore).toEqual([
      {
        source: "game",
        id: entry!.id,
        title: NEW_ENTRY.title,
        keys: NEW_ENTRY.keys,
        content: NEW_ENTRY.content,
        alwaysOn: false,
        priority: 3,
        enabled: true,
      },
    ]);

    const remix = await remixWorld(server, remixer, world.id);
    expect((await listed(remixer, remix.id)).body.entries).toMatchObject([NEW_ENTRY]);
    // And looks back as far as its original.
    expect((await listed(remixer, remix.id)).body).toMatchObject({ scanDepth: 5 });
    expect((await listed(creator, world.id)).body.entries).toHaveLength(1);
  });
});
