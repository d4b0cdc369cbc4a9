import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gameContent, gameLoreEntries, stories } from "#app/db/schema.ts";
import { signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { postChat, readTurn, setBalance, startStoryTestServer } from "#tests/helpers/game-chat.ts";
import type { TestServer } from "#tests/helpers/server.ts";
import { createPublicWorld, createWorld, postForm, publishWorld, worldForm } from "#tests/helpers/worlds.ts";
import type { FakeModelServer } from "#tests/fakes/streaming-model.ts";

/** Issue 36: a story keeps the version of a world it began with until its player chooses Update to version N (docs/decisions/065). */
let model: FakeModelServer;
let server: TestServer;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ model, server, close } = await startStoryTestServer());
  model.script(() => ({ tokens: ["The ", "lanterns ", "flicker."] }));
});

afterAll(() => close?.());

/** The instructions the model was given for the player's turn in the world. */
async function instructionsOfTurn(player: TestAccount, slug: string) {
  const turn = await readTurn(await postChat(server, player, { message: "I bow to the queen.", game_slug: slug }));
  expect(turn.done).toBe(true);
  const prompt = JSON.stringify(model.requests.at(-1)?.body);
  return ["FIRST-VERSION", "SECOND-VERSION", "UNPUBLISHED-EDIT"].filter((marker) => prompt.includes(marker));
}

async function storyOf(player: TestAccount) {
  const [story] = await server.connection.db.select().from(stories).where(eq(stories.userId, player.userId));
  if (!story) throw new Error("no story");
  return story;
}

const playPage = async (player: TestAccount, path: string) => (await server.fetch(path, { headers: { Cookie: player.cookie } })).text();

describe("world versions", () => {
  it("keeps a v1 story on v1's instructions after v2 is published, until its player updates it", async () => {
    const creator = await signUp(server);
    const [player, latecomer] = [await signUp(server), await signUp(server)];
    await setBalance(player, 50);
    await setBalance(latecomer, 50);
    const form = worldForm({ prompt: "FIRST-VERSION: you are the Game Master of the lantern court." });
    const world = await createPublicWorld(server, creator, form);
    const secondTitle = `${form.title}, Fallen`;
    const save = (prompt: string) => postForm(server, creator, "/create", { ...form, title: secondTitle, prompt, worldId: world.id });

    expect(await instructionsOfTurn(player, world.slug)).toEqual(["FIRST-VERSION"]);
    expect((await storyOf(player)).worldVersion).toBe(1);

    expect((await save("SECOND-VERSION: the court has fallen.")).status).toBe(302);
    expect((await publishWorld(server, creator, world.id, "public")).status).toBe(302);
    // Saved but not published: only the creator's own story plays it.
    expect((await save("UNPUBLISHED-EDIT: not yet.")).status).toBe(302);

    expect(await instructionsOfTurn(player, world.slug)).toEqual(["FIRST-VERSION"]);
    expect(await instructionsOfTurn(latecomer, world.slug)).toEqual(["SECOND-VERSION"]);
    expect(await instructionsOfTurn(creator, world.slug)).toEqual(["UNPUBLISHED-EDIT"]);

    const story = await storyOf(player);
    const page = await playPage(player, `/play/${world.slug}`);
    expect(page).toContain("Update to version 2");
    expect(page).toContain("plays version 1");
    // The play screen names the version the story plays.
    expect(page).toContain(`<title>Play ${form.title} |`);
    const latest = await playPage(latecomer, `/play/${world.slug}`);
    expect(latest).not.toContain("Update to version");
    expect(latest).toContain(`<title>Play ${secondTitle} |`);
    expect(await playPage(creator, `/play/${world.slug}`)).not.toContain("Update to version");

    // Another player cannot update it; the player can.
    const update = (account: TestAccount) =>
      postForm(server, account, `/play/${world.slug}/${story.id}`, { intent: "update-world-version", storyId: story.id });
    expect((await update(latecomer)).status).toBe(404);
    expect((await storyOf(player)).worldVersion).toBe(1);
    const updated = await update(player);
    expect(updated.status).toBe(302);
    expect(updated.headers.get("location")).toBe(`/play/${world.slug}/${story.id}`);
    expect((await storyOf(player)).worldVersion).toBe(2);
    expect(await playPage(player, `/play/${world.slug}`)).not.toContain("Update to version");
    expect(await instructionsOfTurn(player, world.slug)).toEqual(["SECOND-VERSION"]);
  });

  it("keeps a v1 story on v1's lorebook and world content after v2 changes them, until its player updates it", async () => {
    const creator = await signUp(server);
    const [player, latecomer] = [await signUp(server), await signUp(server)];
    await setBalance(player, 50);
    await setBalance(latecomer, 50);
    const world = await createWorld(server, creator);
    const database = server.connection.db;
    const [entry] = await database
      .insert(gameLoreEntries)
      .values({ gameSlug: world.slug, title: "The queen", keys: "queen", content: "LORE-ONE: the queen is blind.", alwaysOn: true })
      .returning({ id: gameLoreEntries.id });
    const [section] = await database
      .insert(gameContent)
      .values({ gameSlug: world.slug, contentType: "world_setting", title: "The court", content: "SECTION-ONE: lanterns never go out." })
      .returning({ id: gameContent.id });
    if (!entry || !section) throw new Error("not stored");
    expect((await publishWorld(server, creator, world.id, "public")).status).toBe(302);

    const markersOfTurn = async (account: TestAccount) => {
      const turn = await readTurn(await postChat(server, account, { message: "I bow to the queen.", game_slug: world.slug }));
      expect(turn.done).toBe(true);
      const request = JSON.stringify(model.requests.at(-1)?.body);
      return ["LORE-ONE", "LORE-TWO", "SECTION-ONE", "SECTION-TWO"].filter((marker) => request.includes(marker));
    };
    expect(await markersOfTurn(player)).toEqual(["LORE-ONE", "SECTION-ONE"]);

    await database.update(gameLoreEntries).set({ content: "LORE-TWO: the queen sees." }).where(eq(gameLoreEntries.id, entry.id));
    await database.update(gameContent).set({ content: "SECTION-TWO: the lanterns are out." }).where(eq(gameContent.id, section.id));
    expect((await publishWorld(server, creator, world.id, "public")).status).toBe(302);

    expect(await markersOfTurn(player)).toEqual(["LORE-ONE", "SECTION-ONE"]);
    expect(await markersOfTurn(latecomer)).toEqual(["LORE-TWO", "SECTION-TWO"]);
    // Changed after v2 was published: only the creator's own story (the live world) reads it.
    await database.update(gameLoreEntries).set({ enabled: false }).where(eq(gameLoreEntries.id, entry.id));
    expect(await markersOfTurn(latecomer)).toEqual(["LORE-TWO", "SECTION-TWO"]);
    expect(await markersOfTurn(creator)).toEqual(["SECTION-TWO"]);

    const story = await storyOf(player);
    const updated = await postForm(server, player, `/play/${world.slug}/${story.id}`, { intent: "update-world-version", storyId: story.id });
    expect(updated.status).toBe(302);
    expect(await markersOfTurn(player)).toEqual(["LORE-TWO", "SECTION-TWO"]);
  });

  it("refuses an update without a story with a sentence", async () => {
    const creator = await signUp(server);
    const player = await signUp(server);
    const world = await createPublicWorld(server, creator);
    const response = await postForm(server, player, `/play/${world.slug}`, { intent: "update-world-version" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Choose a story to update.");
  });
});
