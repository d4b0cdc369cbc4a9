import { asc, eq, getTableColumns } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gameLoreEntries, games } from "#app/db/schema.ts";
import { signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { postChat, readTurn } from "#tests/helpers/game-chat.ts";
import { png, v2Card, v3Card } from "#tests/helpers/character-cards.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";

/** Issue 36's first slice: players' worlds as drafts on /create, character cards in and out. */

let server: TestServer;
let creator: TestAccount;
let stranger: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ AI_OFFLINE_WORD_DELAY_MS: "0" });
  [creator, stranger] = await Promise.all([signUp(server), signUp(server)]);
});

afterAll(() => server.close());

const FORM = {
  title: "The Jade Screen",
  tagline: "Rise at court.",
  description: "A lady-in-waiting at the Tang court.",
  difficulty: "Intermediate",
  category: "Strategy",
  icon: "Crown",
  prompt: "You are the Game Master of the Tang court.",
  opening: "The screen slides aside.",
  alternativeOpenings: ["Incense fills the hall.", ""],
  tags: "Court, historical, court",
  contentRating: "Teen",
  creatorNotes: "Slow pace works best.",
};

function saveForm(account: TestAccount, fields: Record<string, string | string[]>) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const item of [value].flat()) body.append(name, item);
  return server.fetch("/create", {
    method: "POST",
    headers: { Cookie: account.cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body,
  });
}

function importCard(account: TestAccount, file: Buffer, name: string, type: string) {
  const form = new FormData();
  form.set("card", new File([new Uint8Array(file)], name, { type }));
  return server.fetch("/create/import", { method: "POST", headers: { Cookie: account.cookie }, body: form });
}

function worldIdOf(response: Response): string {
  expect(response.status).toBe(302);
  const id = new URL(response.headers.get("location") ?? "", server.url).searchParams.get("world");
  if (!id) throw new Error("no world in the redirect");
  return id;
}

/** A world's lorebook entries, in the card's order, without their ids. */
function lore(slug: string) {
  const { id: _id, gameSlug: _slug, createdAt: _created, updatedAt: _updated, ...fields } = getTableColumns(gameLoreEntries);
  return server.connection.db
    .select(fields)
    .from(gameLoreEntries)
    .where(eq(gameLoreEntries.gameSlug, slug))
    .orderBy(asc(gameLoreEntries.createdAt));
}

async function world(id: string) {
  const [row] = await server.connection.db.select().from(games).where(eq(games.id, id));
  if (!row) throw new Error("no such world");
  return row;
}

describe("saving a world as a draft", () => {
  it("stores the form as the creator's draft, inactive, and shows it to them", async () => {
    const id = worldIdOf(await saveForm(creator, FORM));
    expect(await world(id)).toMatchObject({
      title: "The Jade Screen",
      creatorId: creator.userId,
      status: "draft",
      isActive: false,
      difficulty: "Intermediate",
      tags: ["court", "historical"],
      alternativeOpenings: ["Incense fills the hall."],
      contentRating: "Teen",
      creatorNotes: "Slow pace works best.",
    });
    const page = await server.fetch(`/create?world=${id}`, { headers: { Cookie: creator.cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("You are the Game Master of the Tang court.");
    expect(html).toContain("My worlds");
  });

  it("saves changes onto the same world", async () => {
    const id = worldIdOf(await saveForm(creator, FORM));
    expect(worldIdOf(await saveForm(creator, { ...FORM, worldId: id, title: "The Jade Screen, revised" }))).toBe(id);
    expect((await world(id)).title).toBe("The Jade Screen, revised");
  });

  it("answers field errors and stores nothing for an invalid form", async () => {
    const before = await server.connection.db.select({ id: games.id }).from(games).where(eq(games.creatorId, creator.userId));
    const response = await saveForm(creator, { ...FORM, title: " ", contentRating: "Adults only" });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("Title is required.");
    expect(html).toContain("Choose a content rating: Everyone, Teen or Mature.");
    const after = await server.connection.db.select({ id: games.id }).from(games).where(eq(games.creatorId, creator.userId));
    expect(after).toHaveLength(before.length);
  });

  it("keeps a draft from everyone else: 404 on /create, the export and no change on save", async () => {
    const id = worldIdOf(await saveForm(creator, FORM));
    const { slug } = await world(id);
    expect((await server.fetch(`/create?world=${id}`, { headers: { Cookie: stranger.cookie } })).status).toBe(404);
    expect((await server.fetch(`/create/${id}/card/json`, { headers: { Cookie: stranger.cookie } })).status).toBe(404);
    expect((await saveForm(stranger, { ...FORM, worldId: id, title: "Taken over" })).status).toBe(404);
    expect((await world(id)).title).toBe("The Jade Screen");
    // Not listed, not in the sitemap, no page: a draft is an inactive game to every public read.
    expect(await (await server.fetch("/games")).text()).not.toContain(slug);
    expect(await (await server.fetch("/sitemap.xml")).text()).not.toContain(slug);
    expect((await server.fetch(`/game/${slug}`)).status).toBe(302);
  });

  it("sends a signed-out visitor to sign in", async () => {
    const response = await server.fetch("/create");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toContain("/auth");
  });
});

describe("playing a draft privately", () => {
  it("lets the creator play their draft and answers 404 to anyone else", async () => {
    const { slug } = await world(worldIdOf(await saveForm(creator, FORM)));
    const play = (account: TestAccount) => server.fetch(`/play/${slug}`, { headers: { Cookie: account.cookie } });
    expect((await play(creator)).status).toBe(200);
    expect((await play(stranger)).status).toBe(404);
    expect((await server.fetch(`/play/${slug}`)).status).toBe(404);

    const turn = await readTurn(await postChat(server, creator, { game_slug: slug, message: "I kneel before the screen." }));
    expect(turn.error).toBeUndefined();
    expect(turn.done).toBe(true);
    expect(turn.text.length).toBeGreaterThan(0);

    const refused = await postChat(server, stranger, { game_slug: slug, message: "Let me in." });
    expect(refused.status).toBe(404);
    const newStory = await server.fetch("/api/stories", {
      method: "POST",
      headers: { Authorization: `Bearer ${stranger.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ game_slug: slug }),
    });
    expect(newStory.status).toBe(404);
  });
});

describe("character cards", () => {
  it("imports a V3 JSON card as a draft and exports it back unchanged", async () => {
    const id = worldIdOf(await importCard(creator, Buffer.from(JSON.stringify(v3Card)), "wu.json", "application/json"));
    expect(await world(id)).toMatchObject({
      title: "Empress Wu Zetian",
      status: "draft",
      isActive: false,
      contentRating: "Mature",
      creatorId: creator.userId,
    });
    const exported = await server.fetch(`/create/${id}/card/json`, { headers: { Cookie: creator.cookie } });
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-disposition")).toMatch(/^attachment; filename="empress-wu-zetian-[0-9a-f]{6}\.card\.json"$/);
    expect(await exported.json()).toEqual(v3Card);
  });

  it("imports a V2 card from a PNG and exports a PNG that reads back as the same world", async () => {
    const id = worldIdOf(
      await importCard(creator, png({ chara: Buffer.from(JSON.stringify(v2Card)).toString("base64") }), "lin.png", "image/png"),
    );
    const exported = await server.fetch(`/create/${id}/card/png`, { headers: { Cookie: creator.cookie } });
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toBe("image/png");
    const again = worldIdOf(await importCard(creator, Buffer.from(await exported.arrayBuffer()), "lin-again.png", "image/png"));
    const [first, second] = [await world(id), await world(again)];
    for (const field of ["title", "prompt", "opening", "alternativeOpenings", "tags", "creatorNotes"] as const) {
      expect(second[field]).toEqual(first[field]);
    }
    expect(await lore(second.slug)).toEqual(await lore(first.slug));
    // Written as V3, the card gained the field V3 requires and V2 lacks.
    expect(second.extra).toEqual({ ...first.extra, data: { ...first.extra.data, group_only_greetings: [] } });
  });

  it("refuses a hostile card with a sentence and stores nothing", async () => {
    const count = async () => (await server.connection.db.select({ id: games.id }).from(games).where(eq(games.creatorId, stranger.userId))).length;
    const before = await count();
    const hostile = Buffer.from(`{"spec":"chara_card_v2","data":{"name":"x","extensions":{"__proto__":{"admin":true}}}}`);
    const response = await importCard(stranger, hostile, "evil.json", "application/json");
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("The card has a field named");
    const damaged = await importCard(stranger, png({ chara: "###" }), "broken.png", "image/png");
    expect(damaged.status).toBe(400);
    expect(await count()).toBe(before);
  });

  it("refuses a file too large to be a card before reading it", async () => {
    const response = await importCard(stranger, Buffer.alloc(9 * 1024 * 1024, 0x20), "huge.json", "application/json");
    expect(response.status).toBe(413);
  });
});

describe("hostile requests to the new endpoints", () => {
  async function creatorWorlds() {
    return (await server.connection.db.select({ id: games.id }).from(games).where(eq(games.creatorId, creator.userId))).length;
  }

  it("refuses each with nothing stored", async () => {
    const before = await creatorWorlds();
    const cookie = { Cookie: creator.cookie };
    // A NUL byte, a foreign origin, an over-long title, a world id that is not one.
    expect((await saveForm(creator, { ...FORM, title: "The Jade\u0000Screen" })).status).toBe(400);
    const foreign = new URLSearchParams({ ...FORM, alternativeOpenings: "" });
    const crossSite = await server.fetch("/create", {
      method: "POST",
      headers: { ...cookie, Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
      body: foreign,
    });
    // Refused (400 here, before the edge's 403; either way nothing is stored, as counted below).
    expect(crossSite.status).toBeGreaterThanOrEqual(400);
    expect(crossSite.status).toBeLessThan(500);
    const long = await saveForm(creator, { ...FORM, title: "x".repeat(201) });
    expect(long.status).toBe(400);
    expect(await long.text()).toContain("Title must be at most 200 characters.");
    expect((await saveForm(creator, { ...FORM, worldId: "'; drop table games; --" })).status).toBe(404);
    expect((await saveForm(creator, { ...FORM, difficulty: "Impossible", icon: "Skull" })).status).toBe(400);

    const notAFile = new FormData();
    notAFile.set("card", "just text");
    const text = await server.fetch("/create/import", { method: "POST", headers: cookie, body: notAFile });
    expect(text.status).toBe(400);
    expect(await text.text()).toContain("Choose a character card file (PNG or JSON) to import.");
    const signedOut = new FormData();
    signedOut.set("card", new File([JSON.stringify(v2Card)], "lin.json"));
    expect((await server.fetch("/create/import", { method: "POST", body: signedOut })).status).toBe(302);

    expect((await server.fetch("/create/not-a-world/card/json", { headers: cookie })).status).toBe(404);
    const id = worldIdOf(await saveForm(creator, FORM));
    expect((await server.fetch(`/create/${id}/card/exe`, { headers: cookie })).status).toBe(404);
    expect((await server.fetch(`/create?world=${encodeURIComponent("1 or 1=1")}`, { headers: cookie })).status).toBe(404);
    expect(await creatorWorlds()).toBe(before + 1);
  });
});
