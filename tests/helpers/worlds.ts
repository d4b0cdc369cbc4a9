import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { games } from "#app/db/schema.ts";
import type { TestAccount } from "./accounts.ts";
import type { TestServer } from "./server.ts";

/** Players' worlds in tests (issue 36): made, published and remixed through /create and the world routes, as a player does. */

let titles = 0;
/** A world's form with a title no other test uses, so that a page or a sitemap holding it says which world it is. */
export function worldForm(fields: Record<string, string> = {}) {
  titles += 1;
  return {
    title: `Lantern Court ${titles} ${Math.random().toString(36).slice(2, 8)}`,
    tagline: "Rise at court.",
    description: "A lady-in-waiting at a lantern-lit court.",
    difficulty: "Beginner",
    category: "Strategy",
    icon: "Crown",
    prompt: "You are the Game Master of the lantern court.",
    opening: "The lanterns are lit.",
    tags: "court, lanterns",
    contentRating: "Everyone",
    creatorNotes: "",
    ...fields,
  };
}

/** A form posted as the player (or a visitor, without one). */
export function postForm(server: TestServer, account: TestAccount | undefined, path: string, fields: Record<string, string>) {
  return server.fetch(path, {
    method: "POST",
    headers: { ...(account ? { Cookie: account.cookie } : {}), "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
}

export async function findWorld(server: TestServer, id: string) {
  const [row] = await server.connection.db.select().from(games).where(eq(games.id, id));
  if (!row) throw new Error("no such world");
  return row;
}

/** The world a /create redirect names (?world=…). */
export function redirectedWorld(server: TestServer, response: Response) {
  expect(response.status).toBe(302);
  const id = new URL(response.headers.get("location") ?? "", server.url).searchParams.get("world");
  if (!id) throw new Error("no world in the redirect");
  return findWorld(server, id);
}

/** A new draft of the player's, saved from the create form. */
export async function createWorld(server: TestServer, account: TestAccount, fields: Record<string, string> = {}) {
  return redirectedWorld(server, await postForm(server, account, "/create", worldForm(fields)));
}

export const publishWorld = (server: TestServer, account: TestAccount, id: string, visibility: string) =>
  postForm(server, account, "/create", { intent: "publish", worldId: id, visibility });

/** A new draft of the player's world, saved and published Public. */
export async function createPublicWorld(server: TestServer, account: TestAccount, fields: Record<string, string> = {}) {
  const world = await createWorld(server, account, fields);
  expect((await publishWorld(server, account, world.id, "public")).status).toBe(302);
  return findWorld(server, world.id);
}

/** The player's remix of a Public world, as a new draft. */
export async function remixWorld(server: TestServer, account: TestAccount, id: string) {
  return redirectedWorld(server, await postForm(server, account, `/worlds/${id}/remix`, {}));
}
