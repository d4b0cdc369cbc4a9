import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { games, user, worldLikes, worldVersions } from "#app/db/schema.ts";
import { signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";
import { createWorld as createWorldAs, findWorld, postForm, publishWorld, remixWorld, worldForm } from "#tests/helpers/worlds.ts";

/** Issue 36's second slice: publishing, Community, Mature worlds kept from visitors, likes, remixes and their limits. */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    AI_OFFLINE_WORD_DELAY_MS: "0",
    WORLDS_PER_DAY: "3",
    WORLD_PUBLISHES_PER_HOUR: "4",
    WORLD_BLOCKED_TERMS: "Gorgonzola, bad word",
  });
});

afterAll(() => server.close());

const post = (account: TestAccount | undefined, path: string, fields: Record<string, string>) => postForm(server, account, path, fields);
const createWorld = (account: TestAccount, fields: Record<string, string> = {}) => createWorldAs(server, account, fields);
const world = (id: string) => findWorld(server, id);
const publish = (account: TestAccount, id: string, visibility: string) => publishWorld(server, account, id, visibility);
const unpublish = (account: TestAccount, id: string) => post(account, "/create", { intent: "unpublish", worldId: id });
const visitorHtml = async (path: string) => (await server.fetch(path)).text();
const playerHtml = async (account: TestAccount, path: string) => (await server.fetch(path, { headers: { Cookie: account.cookie } })).text();

describe("publishing", () => {
  it("publishes Unlisted (playable by link, never listed), then Public as version 2, then back to a draft", async () => {
    const creator = await signUp(server);
    const stranger = await signUp(server);
    const { id, slug, title } = await createWorld(creator);

    expect((await publish(creator, id, "unlisted")).status).toBe(302);
    expect(await world(id)).toMatchObject({ status: "unlisted", isActive: true, publishedVersion: 1 });
    const page = await server.fetch(`/game/${slug}`);
    expect(page.status).toBe(200);
    const pageHtml = await page.text();
    expect(pageHtml).toContain(title);
    expect(pageHtml).toContain('content="noindex, follow"');
    expect((await server.fetch(`/play/${slug}`, { headers: { Cookie: stranger.cookie } })).status).toBe(200);
    expect(await visitorHtml("/games")).not.toContain(slug);
    expect(await visitorHtml(`/games?search=${encodeURIComponent(title)}`)).not.toContain(slug);
    expect(await visitorHtml("/sitemap.xml")).not.toContain(slug);

    expect((await publish(creator, id, "public")).status).toBe(302);
    expect(await world(id)).toMatchObject({ status: "public", isActive: true, publishedVersion: 2 });
    const versions = await server.connection.db.select().from(worldVersions).where(eq(worldVersions.gameId, id));
    expect(versions.map((version) => [version.version, version.fields.status])).toEqual(
      expect.arrayContaining([
        [1, "unlisted"],
        [2, "public"],
      ]),
    );
    expect(versions[0]?.fields.prompt).toBe("You are the Game Master of the lantern court.");
    const listing = await visitorHtml("/games?sort=new");
    expect(listing).toContain(`/game/${slug}`);
    expect(listing).toContain(`/creators/`);
    expect(await visitorHtml("/sitemap.xml")).toContain(`/game/${slug}`);
    expect(await (await server.fetch(`/game/${slug}`)).text()).not.toContain('content="noindex');

    expect((await unpublish(creator, id)).status).toBe(302);
    expect(await world(id)).toMatchObject({ status: "draft", isActive: false, publishedVersion: 2 });
    expect((await server.fetch(`/game/${slug}`)).status).toBe(302);
    expect((await server.fetch(`/play/${slug}`, { headers: { Cookie: stranger.cookie } })).status).toBe(404);
    expect(await visitorHtml("/games?sort=new")).not.toContain(slug);
  });

  it("refuses with a sentence: a missing field, a blocked term, a visibility that does not exist; and another player's world is 404", async () => {
    const creator = await signUp(server);
    const { id } = await createWorld(creator, { description: "Cheese: the finest GORGONZOLA in the land." });
    const blocked = await publish(creator, id, "public");
    expect(blocked.status).toBe(400);
    expect(await blocked.text()).toContain("“gorgonzola” is not allowed on this site; it appears in Description.");

    await server.connection.db.update(games).set({ description: " ", prompt: "" }).where(eq(games.id, id));
    const missing = await publish(creator, id, "public");
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("Before you publish, fill in Description and Game Master instructions.");

    expect((await publish(creator, id, "everyone")).status).toBe(400);
    expect((await publish(await signUp(server), id, "public")).status).toBe(404);
    expect(await world(id)).toMatchObject({ status: "draft", isActive: false, publishedVersion: null });
  });

  it("answers 429 with Retry-After past the worlds a day and the publishes an hour", async () => {
    const creator = await signUp(server);
    const { id } = await createWorld(creator);
    await createWorld(creator);
    await createWorld(creator);
    const fourth = await post(creator, "/create", worldForm());
    expect(fourth.status).toBe(429);
    expect(Number(fourth.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await fourth.text()).toContain("You can begin 3 worlds a day.");

    for (let attempt = 0; attempt < 4; attempt += 1) expect((await publish(creator, id, "unlisted")).status).toBe(302);
    const fifth = await publish(creator, id, "unlisted");
    expect(fifth.status).toBe(429);
    expect(await fifth.text()).toContain("You can publish 4 times an hour.");
    expect((await world(id)).publishedVersion).toBe(4);
  });
});

describe("Mature worlds", () => {
  it("never reach a visitor, the sitemap or a player who has not confirmed their age", async () => {
    const creator = await signUp(server);
    const player = await signUp(server);
    const { id, slug, title } = await createWorld(creator, { contentRating: "Mature" });
    expect((await publish(creator, id, "public")).status).toBe(302);

    for (const path of ["/games?sort=new", `/games?search=${encodeURIComponent(title)}`, "/sitemap.xml"]) {
      expect(await visitorHtml(path)).not.toContain(slug);
    }
    expect((await server.fetch(`/game/${slug}`)).status).toBe(302);
    const [{ handle } = { handle: null }] = await server.connection.db
      .select({ handle: user.handle })
      .from(user)
      .where(eq(user.id, creator.userId));
    expect(await playerHtml(player, "/games?sort=new")).not.toContain(slug);

    expect((await post(player, "/settings", { mature: "confirm" })).status).toBe(200);
    expect(await playerHtml(player, "/games?sort=new")).toContain(`/game/${slug}`);
    expect(await playerHtml(player, `/game/${slug}`)).toContain(title);
    expect(handle).toBeTruthy();
    expect(await playerHtml(player, `/creators/${handle}`)).toContain(title);
    expect(await visitorHtml(`/creators/${handle}`)).not.toContain(title);
    // Served to visitors again after a confirmed player's visit: still without it.
    expect(await visitorHtml("/games?sort=new")).not.toContain(slug);

    expect((await post(player, "/settings", { mature: "withdraw" })).status).toBe(200);
    expect(await playerHtml(player, "/games?sort=new")).not.toContain(slug);
  });
});

describe("likes and remixes", () => {
  it("counts one like per player, and a second press takes it back", async () => {
    const creator = await signUp(server);
    const [first, second] = [await signUp(server), await signUp(server)];
    const { id, slug } = await createWorld(creator);
    expect((await publish(creator, id, "public")).status).toBe(302);
    const like = (account: TestAccount) => post(account, `/worlds/${id}/like`, {});
    const likes = async () => (await server.connection.db.select().from(worldLikes).where(eq(worldLikes.gameId, id))).length;

    expect((await like(first)).status).toBe(302);
    await Promise.all([like(second), server.fetch("/")]);
    expect(await likes()).toBe(2);
    expect(await playerHtml(first, `/game/${slug}`)).toContain("2 likes");
    expect((await like(first)).status).toBe(302);
    expect(await likes()).toBe(1);
    const own = await server.connection.db
      .select()
      .from(worldLikes)
      .where(and(eq(worldLikes.gameId, id), eq(worldLikes.userId, second.userId)));
    expect(own).toHaveLength(1);

    expect((await post(undefined, `/worlds/${id}/like`, {})).status).toBe(302);
    expect((await like(first).then(() => unpublish(creator, id))).status).toBe(302);
    expect((await like(second)).status).toBe(404);
  });

  it("keeps the credit of every world a remix came from, nearest first", async () => {
    const [alice, bob, carol] = [await signUp(server), await signUp(server), await signUp(server)];
    const original = await createWorld(alice);
    expect((await publish(alice, original.id, "public")).status).toBe(302);

    const remix = (account: TestAccount, id: string) => remixWorld(server, account, id);
    const bobs = await remix(bob, original.id);
    expect(bobs).toMatchObject({ creatorId: bob.userId, status: "draft", isActive: false, title: original.title, prompt: original.prompt });
    expect(bobs.remixedFrom).toEqual([expect.objectContaining({ slug: original.slug, title: original.title })]);
    expect((await publish(bob, bobs.id, "public")).status).toBe(302);

    const carols = await remix(carol, bobs.id);
    expect(carols.remixedFrom.map((credit) => credit.slug)).toEqual([bobs.slug, original.slug]);
    expect((await publish(carol, carols.id, "unlisted")).status).toBe(302);
    const page = await visitorHtml(`/game/${carols.slug}`);
    expect(page).toContain(`href="/game/${bobs.slug}"`);
    expect(page).toContain(`href="/game/${original.slug}"`);
    expect(page.match(/Remixed from/g)).toHaveLength(2);

    // Only a Public world can be remixed: Carol's is Unlisted.
    expect((await post(alice, `/worlds/${carols.id}/remix`, {})).status).toBe(404);
    expect((await post(alice, `/worlds/not-a-world/remix`, {})).status).toBe(404);
  });
});
