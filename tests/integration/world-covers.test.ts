import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { picture, png } from "#tests/helpers/image-files.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";
import { createWorld, findWorld } from "#tests/helpers/worlds.ts";

/** Issue 36: a creator's cover on /create, through the admin's upload pipeline and its checks, and into the world's PNG card. */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(() => server.close());

function uploadCover(account: TestAccount, worldId: string, bytes: Buffer, type = "image/png") {
  const form = new FormData();
  form.set("cover", new File([new Uint8Array(bytes)], "cover.png", { type }));
  return server.fetch(`/create/${worldId}/cover`, { method: "POST", headers: { Cookie: account.cookie }, body: form });
}

async function pngCardSize(account: TestAccount, worldId: string) {
  const card = await server.fetch(`/create/${worldId}/card/png`, { headers: { Cookie: account.cookie } });
  expect(card.status).toBe(200);
  const { width, height } = await sharp(Buffer.from(await card.arrayBuffer())).metadata();
  return { width, height };
}

describe("a world's cover", () => {
  it("is uploaded to a draft, shown on /create, exported in the PNG card and removed again", async () => {
    const creator = await signUp(server);
    const world = await createWorld(server, creator);
    expect(await pngCardSize(creator, world.id)).toEqual({ width: 400, height: 600 });

    const uploaded = await uploadCover(creator, world.id, await png(1600, 900));
    expect(uploaded.status).toBe(302);
    expect(uploaded.headers.get("location")).toBe(`/create?world=${world.id}&saved=1`);
    const { coverHash } = await findWorld(server, world.id);
    expect(coverHash).toMatch(/^[0-9a-f]{32}$/);
    const page = await (await server.fetch(`/create?world=${world.id}`, { headers: { Cookie: creator.cookie } })).text();
    expect(page).toContain(`/covers/${coverHash}-400.avif`);
    expect(page).toContain("Replace cover");
    expect(await pngCardSize(creator, world.id)).toEqual({ width: 1200, height: 675 });

    const form = new FormData();
    form.set("intent", "remove");
    const removed = await server.fetch(`/create/${world.id}/cover`, { method: "POST", headers: { Cookie: creator.cookie }, body: form });
    expect(removed.status).toBe(302);
    expect((await findWorld(server, world.id)).coverHash).toBeNull();
  });

  it("refuses another player's world, no file and what is not a picture, with a sentence and nothing stored", async () => {
    const creator = await signUp(server);
    const world = await createWorld(server, creator);
    expect((await uploadCover(await signUp(server), world.id, await png())).status).toBe(404);
    expect((await uploadCover(creator, "not-a-world", await png())).status).toBe(404);

    const empty = await server.fetch(`/create/${world.id}/cover`, { method: "POST", headers: { Cookie: creator.cookie }, body: new FormData() });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Choose a picture");
    const text = await uploadCover(creator, world.id, Buffer.from("hello, this is not a picture"));
    expect(text.status).toBe(400);
    expect(await text.text()).toContain("not a JPEG, PNG or WebP");
    const small = await uploadCover(creator, world.id, await picture(300, 200).png().toBuffer());
    expect(small.status).toBe(400);
    expect((await findWorld(server, world.id)).coverHash).toBeNull();

    const visitor = await server.fetch(`/create/${world.id}/cover`, { method: "POST", body: new FormData(), redirect: "manual" });
    expect(visitor.status).toBe(302);
  });
});
