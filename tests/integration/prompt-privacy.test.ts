import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAdmin, signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { visibleText } from "#tests/helpers/html.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";

/**
 * A game's prompt is the Game Master's secret instructions: only the admin editor may show it.
 * The marker sits in the prompt's first paragraph (which the game page's preview once showed) and
 * in its last, so a page leaking any part of the prompt is caught.
 */

const MARKER = `prompt-marker-${randomUUID()}`;
const GAME = {
  title: "Lantern Keeper",
  slug: "lantern-keeper",
  description: "Keep the harbour light burning through the longest night.",
  tagline: "One light against the storm",
  // First in the catalogue, so the home page features it too.
  sortOrder: -1,
  prompt: [
    `The lantern of Greyhaven went dark at midnight (${MARKER}-opening).`,
    "You are the Game Master of Lantern Keeper. Address the player as you.",
    `Secret: the harbour master put the light out himself (${MARKER}-twist).`,
  ].join("\n\n"),
};

let server: TestServer;
let admin: TestAccount;
let player: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  [admin, player] = await Promise.all([signUp(server), signUp(server)]);
  await makeAdmin(server, admin);
  const created = await server.fetch("/api/admin/games", {
    method: "POST",
    headers: { Cookie: admin.cookie, "Content-Type": "application/json" },
    body: JSON.stringify(GAME),
  });
  expect(created.status).toBe(201);
});

afterAll(async () => {
  await server.close();
});

async function body(path: string, account?: TestAccount) {
  const response = await server.fetch(path, account ? { headers: { Cookie: account.cookie } } : {});
  expect(response.status, `${path} answers 200`).toBe(200);
  return response.text();
}

/** Every page (and its client-side data) that shows the game, for a visitor and for a player. */
const PAGES: { path: string; as?: "player" }[] = [
  { path: `/game/${GAME.slug}` },
  { path: `/game/${GAME.slug}.data` },
  { path: `/game/${GAME.slug}`, as: "player" },
  { path: `/game/${GAME.slug}.data`, as: "player" },
  { path: `/play/${GAME.slug}`, as: "player" },
  { path: `/play/${GAME.slug}.data`, as: "player" },
  { path: "/games" },
  { path: "/games.data" },
  { path: `/games?search=${encodeURIComponent("Lantern Keeper")}` },
  { path: "/" },
  { path: "/_.data" }, // the home page's data
  { path: "/sitemap.xml" },
];

describe("a game's prompt", () => {
  it.each(PAGES)("never reaches $path (as $as)", async ({ path, as }) => {
    const text = await body(path, as === "player" ? player : undefined);
    expect(text).toContain(GAME.slug); // the page is about the game…
    expect(text).not.toContain(MARKER); // …and keeps its prompt on the server
  });

  it("stays in the admin editor's data", async () => {
    expect(await body("/admin.data?_routes=routes%2Fadmin", admin)).toContain(MARKER);
  });

  it("keeps its secrets from the preview, which tells what a story's first turn tells", async () => {
    const response = await server.fetch("/api/game-preview", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game_slug: GAME.slug, message: "I climb the lighthouse stairs." }),
    });
    expect(response.status).toBe(200);
    // The offline storyteller opens with the prompt's scene-setting, as it does for a player's
    // first turn; the instructions and the secret after it stay on the server.
    const { reply } = (await response.json()) as { reply: string };
    expect(reply).toContain(`${MARKER}-opening`);
    expect(reply).not.toContain(`${MARKER}-twist`);
  });

  it("is not needed for the preview: it opens with the game's description", async () => {
    const text = visibleText(await body(`/game/${GAME.slug}`));
    expect(text).toContain(`Welcome to ${GAME.title}! I am your AI Game Master. ${GAME.description}`);
  });
});
