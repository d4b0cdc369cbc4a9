import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { games } from "#app/db/schema.ts";
import { GAME_LORE_INTRODUCTION, STORY_LORE_INTRODUCTION, TRIGGERED_LORE_INTRODUCTION } from "#app/domain/game-master/story-brief.server.ts";
import { apiRequest, makeAdmin, signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { postChat, readTurn, TEST_GAME, withStoryTestServer } from "#tests/helpers/game-chat.ts";
import type { TestServer } from "#tests/helpers/server.ts";
import { beginStory } from "#tests/helpers/stories.ts";
import type { FakeModelServer } from "#tests/fakes/streaming-model.ts";

/**
 * Lore reaching the model (issue 35, docs/decisions/054) against a real server and a local
 * OpenAI-compatible model: what the request the model receives holds, and where.
 */

let model: FakeModelServer;
let server: TestServer;
withStoryTestServer((started) => ({ model, server } = started));

interface Message {
  role: string;
  content: string;
}

function entry(title: string, keys: string, content: string, alwaysOn = false) {
  return { title, keys, content, alwaysOn, priority: 5, enabled: true };
}

async function addLore(account: TestAccount, path: string, body: ReturnType<typeof entry>) {
  expect((await apiRequest(server, account, path, { body })).status).toBe(200);
}

/** The messages of the model's latest request, its system messages apart. */
function lastRequest() {
  const messages = model.requests.at(-1)!.body.messages as Message[];
  return { system: messages.filter((message) => message.role === "system").map((message) => message.content), last: messages.at(-1)!.content };
}

describe("lore in the request the model receives", () => {
  it("brings in an entry fired by the message being sent, keeps always-on lore in the stable parts, and leaves out what nobody mentioned", async () => {
    const admin = await signUp(server);
    await makeAdmin(server, admin);
    const [game] = await server.connection.db.select({ id: games.id }).from(games).where(eq(games.slug, TEST_GAME.slug));
    await addLore(admin, `/api/admin/games/${game!.id}/lore`, entry("The harbour", "", "The harbour never freezes.", true));
    const player = await signUp(server);
    const storyId = await beginStory(server, player, TEST_GAME.slug);
    await addLore(player, `/api/stories/${storyId}/lore`, entry("The dragon", "dragon, /wyrms?/", "Vask sleeps under the lighthouse."));
    await addLore(player, `/api/stories/${storyId}/lore`, entry("A debt", "", "Ilse owes me a debt.", true));
    await addLore(player, `/api/stories/${storyId}/lore`, entry("The kraken", "kraken", "It has not been seen in years."));

    expect((await readTurn(await postChat(server, player, { message: "I ask Ilse about the Dragon.", game_slug: TEST_GAME.slug }))).done).toBe(
      true,
    );
    const fired = lastRequest();
    expect(fired.system[0]).toContain(`${GAME_LORE_INTRODUCTION}\n\n<lore>\n- The harbour: The harbour never freezes.\n</lore>`);
    expect(fired.system[1]).toContain(`${STORY_LORE_INTRODUCTION}\n\n<lore>\n- A debt: Ilse owes me a debt.\n</lore>`);
    expect(fired.last).toContain(`${TRIGGERED_LORE_INTRODUCTION}\n\n<lore>\n- The dragon: Vask sleeps under the lighthouse.\n</lore>`);
    expect(fired.last.endsWith("I ask Ilse about the Dragon.")).toBe(true);
    expect(JSON.stringify(model.requests.at(-1)!.body)).not.toContain("kraken");

    // The game's canon is the same for every player; another player's lore never reaches this one's story.
    const other = await signUp(server);
    const otherStory = await beginStory(server, other, TEST_GAME.slug);
    expect(otherStory).not.toBe(storyId);
    expect((await readTurn(await postChat(server, other, { message: "I look for the dragon.", game_slug: TEST_GAME.slug }))).done).toBe(true);
    const elsewhere = lastRequest();
    expect(elsewhere.system[0]).toContain("The harbour never freezes.");
    expect(JSON.stringify(model.requests.at(-1)!.body)).not.toContain("Vask");
  });
});
