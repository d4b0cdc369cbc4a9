import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockedTerms, moderationActions, worldAdvisories } from "#app/db/schema.ts";
import { makeAdmin, makeModerator, signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { queryRows } from "#tests/helpers/database.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";
import { createWorld, findWorld, postForm, publishWorld } from "#tests/helpers/worlds.ts";

/** Issue 36's moderation: reports, the queue, decisions citing a rule, appeals to another moderator, blocked terms, rules versions. */

let server: TestServer;
let moderator: TestAccount;
let otherModerator: TestAccount;
let admin: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ AI_OFFLINE_WORD_DELAY_MS: "0", REPORTS_PER_DAY: "3", WORLD_BLOCKED_TERMS: "Marzipan" });
  [moderator, otherModerator, admin] = [await signUp(server), await signUp(server), await signUp(server)];
  await makeModerator(server, moderator);
  await makeModerator(server, otherModerator);
  await makeAdmin(server, admin);
});

afterAll(() => server.close());

const post = (account: TestAccount | undefined, path: string, fields: Record<string, string>) => postForm(server, account, path, fields);
const html = async (account: TestAccount | undefined, path: string) =>
  (await server.fetch(path, { headers: account ? { Cookie: account.cookie } : {} })).text();

async function publishedWorld(creator: TestAccount, fields: Record<string, string> = {}) {
  const world = await createWorld(server, creator, fields);
  expect((await publishWorld(server, creator, world.id, "public")).status).toBe(302);
  return world;
}

const report = (account: TestAccount, worldId: string, reason = "Hate or harassment") =>
  post(account, `/worlds/${worldId}/report`, { reason, details: "It mocks a real person by name." });

const act = (account: TestAccount, worldId: string, action: string, rule = "2", reason = "It mocks a real person by name.") =>
  post(account, "/moderation", { intent: "act", action, worldId, rule, reason });

async function latestAction(worldId: string) {
  const [action] = await queryRows<{ id: string; kind: string }>(
    server.connection.db,
    sql`select id, kind from moderation_actions where game_id = ${worldId} order by created_at desc limit 1`,
  );
  if (!action) throw new Error("no action recorded");
  return action;
}

async function appealId(actionId: string) {
  const [appeal] = await queryRows<{ id: string }>(server.connection.db, sql`select id from moderation_appeals where action_id = ${actionId}`);
  if (!appeal) throw new Error("no appeal");
  return appeal.id;
}

describe("a report, a hidden world and its appeal", () => {
  it("goes from a player's report to a moderator's decision, the creator's appeal and another moderator's answer", async () => {
    const [creator, player] = [await signUp(server), await signUp(server)];
    const world = await publishedWorld(creator);

    const reported = await report(player, world.id);
    expect(reported.status).toBe(200);
    // The offline advisory, written after Publish answered.
    await expect
      .poll(async () => (await server.connection.db.select().from(worldAdvisories).where(eq(worldAdvisories.gameId, world.id))).length)
      .toBe(1);

    const queue = await html(moderator, "/moderation");
    expect(queue).toContain(world.title);
    expect(queue).toContain("Hate or harassment");
    expect(queue).toContain("It mocks a real person by name.");
    expect(queue).toContain("Advisory rating (offline, version 1, rules version 1)");

    const outOfRange = await act(moderator, world.id, "hide", "99");
    expect(outOfRange.status).toBe(400);
    expect(await outOfRange.text()).toContain("Choose one of the 7 rules of version 1.");
    expect((await act(moderator, world.id, "hide", "2", "")).status).toBe(400);
    expect((await act(moderator, world.id, "hide")).status).toBe(302);

    // Gone from every public read.
    expect(await findWorld(server, world.id)).toMatchObject({ isActive: false, status: "public" });
    for (const path of ["/games?sort=new", `/games?search=${encodeURIComponent(world.title)}`, "/sitemap.xml"]) {
      expect(await html(undefined, path)).not.toContain(world.slug);
    }
    expect((await server.fetch(`/game/${world.slug}`)).status).toBe(302);
    expect((await report(player, world.id)).status).toBe(404);
    expect(await html(moderator, "/moderation")).toContain("No open reports.");

    // The creator reads why, citing the rule; Publish cannot undo it.
    const own = await html(creator, `/create?world=${world.id}`);
    expect(own).toContain("A moderator hid this world");
    expect(own).toContain("Rule 2 of version 1");
    expect(own).toContain("No hate or harassment");
    expect(own).toContain("It mocks a real person by name.");
    const republish = await publishWorld(server, creator, world.id, "public");
    expect(republish.status).toBe(403);
    expect(await republish.text()).toContain("A moderator hid this world, so it cannot be published");

    // One appeal per action, by the creator alone.
    const hidden = await latestAction(world.id);
    expect((await post(player, "/appeals", { actionId: hidden.id, text: "Not mine, but unfair." })).status).toBe(404);
    expect((await post(creator, "/appeals", { actionId: hidden.id, text: "The character is invented." })).status).toBe(200);
    const again = await post(creator, "/appeals", { actionId: hidden.id, text: "Again." });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("You have already appealed this decision");
    expect(await html(creator, `/create?world=${world.id}`)).toContain("A moderator other than the one who took it will decide");

    // The moderator who hid it cannot decide the appeal, even by posting the form.
    const appeal = await appealId(hidden.id);
    expect(await html(moderator, "/moderation")).toContain("You took this decision, so another moderator decides its appeal.");
    const decide = (account: TestAccount, decision: string) =>
      post(account, "/moderation", { intent: "decide", appealId: appeal, decision, rule: "2", reason: "The name is invented: restored." });
    const own403 = await decide(moderator, "overturn");
    expect(own403.status).toBe(403);
    expect(await own403.text()).toContain("You took this decision, so another moderator decides its appeal.");
    expect((await findWorld(server, world.id)).isActive).toBe(false);

    expect(await html(otherModerator, "/moderation")).toContain(`Decide the appeal of ${world.title}`);
    expect((await decide(otherModerator, "overturn")).status).toBe(302);
    expect((await decide(admin, "uphold")).status).toBe(409);
    expect(await findWorld(server, world.id)).toMatchObject({ isActive: true });
    expect(await html(undefined, "/games?sort=new")).toContain(`/game/${world.slug}`);
    const outcome = await html(creator, `/game/${world.slug}`);
    expect(outcome).toContain("the decision was overturned");
    expect(outcome).toContain("The name is invented: restored.");

    // The audit log holds both, with who, what, the world, the rule and the reason.
    const log = await html(admin, "/moderation");
    expect(log).toContain("Overturn");
    expect(log).toContain("It mocks a real person by name.");
    const actions = await server.connection.db.select().from(moderationActions).where(eq(moderationActions.gameId, world.id));
    expect(actions.map((action) => [action.kind, action.moderatorId, action.rulesVersion, action.ruleNumber])).toEqual(
      expect.arrayContaining([
        ["hide", moderator.userId, 1, 2],
        ["overturn", otherModerator.userId, 1, 2],
      ]),
    );
  });

  it("refuses visitors (404) and players (403) at the queue and its actions", async () => {
    const player = await signUp(server);
    const world = await publishedWorld(await signUp(server));
    expect((await server.fetch("/moderation")).status).toBe(404);
    expect((await server.fetch("/moderation", { headers: { Cookie: player.cookie } })).status).toBe(403);
    expect((await act(player, world.id, "hide")).status).toBe(403);
    expect((await post(undefined, "/moderation", { intent: "act", action: "hide", worldId: world.id, rule: "1", reason: "x" })).status).toBe(404);
    expect((await findWorld(server, world.id)).isActive).toBe(true);
  });
});

describe("reports", () => {
  it("answers 429 with Retry-After past the reports a day, and refuses one's own world and a draft", async () => {
    const [player, creator] = [await signUp(server), await signUp(server)];
    const own = await publishedWorld(player);
    const ownReport = await report(player, own.id);
    expect(ownReport.status).toBe(400);
    expect(await ownReport.text()).toContain("You cannot report your own world.");
    const draft = await createWorld(server, creator);
    expect((await report(player, draft.id)).status).toBe(404);
    expect((await post(player, `/worlds/${draft.id}/report`, { reason: "Because", details: "" })).status).toBe(400);

    const worlds = [await publishedWorld(creator), await publishedWorld(creator)];
    for (const world of [...worlds, worlds[0]!]) expect((await report(player, world.id, "Spam or scam")).status).toBe(200);
    const fourth = await report(player, worlds[1]!.id);
    expect(fourth.status).toBe(429);
    expect(Number(fourth.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await fourth.text()).toContain("You can send 3 reports a day.");
  });
});

describe("what players and moderators write", () => {
  it("reaches every page as text, never as markup", async () => {
    const [creator, player] = [await signUp(server), await signUp(server)];
    const world = await publishedWorld(creator);
    const markup = '<script>window.hacked = 1</script><img src=x onerror="alert(1)">';
    expect((await post(player, `/worlds/${world.id}/report`, { reason: "Something else", details: markup })).status).toBe(200);
    const queue = await html(moderator, "/moderation");
    expect(queue).toContain("&lt;script&gt;window.hacked = 1&lt;/script&gt;");
    expect(queue).not.toContain("<script>window.hacked");
    expect((await act(moderator, world.id, "ask_changes", "1", markup)).status).toBe(302);
    expect((await post(creator, "/appeals", { actionId: (await latestAction(world.id)).id, text: markup })).status).toBe(200);
    for (const page of [await html(creator, `/create?world=${world.id}`), await html(otherModerator, "/moderation")]) {
      expect(page).not.toContain("<script>window.hacked");
      expect(page).not.toContain('onerror="alert(1)"');
    }
  });
});

describe("suspending a creator", () => {
  it("stops them publishing until a moderator restores them", async () => {
    const creator = await signUp(server);
    const world = await publishedWorld(creator);
    expect((await act(moderator, world.id, "suspend_creator", "5", "Every world advertises a shop.")).status).toBe(302);
    const refused = await publishWorld(server, creator, world.id, "public");
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("A moderator suspended your publishing");
    expect(await html(creator, `/create?world=${world.id}`)).toContain("A moderator suspended your publishing: you cannot publish worlds.");

    expect((await act(otherModerator, world.id, "restore", "5", "The links are gone.")).status).toBe(302);
    expect((await publishWorld(server, creator, world.id, "public")).status).toBe(302);
  });

  it("asks for changes without hiding the world", async () => {
    const creator = await signUp(server);
    const world = await publishedWorld(creator);
    expect((await act(moderator, world.id, "ask_changes", "3", "Rate it Mature or tone down the battle scenes.")).status).toBe(302);
    expect((await findWorld(server, world.id)).isActive).toBe(true);
    const page = await html(creator, `/game/${world.slug}`);
    expect(page).toContain("A moderator asks you to change this world.");
    expect(page).toContain("Rate it Mature or tone down the battle scenes.");
    // Others never read it.
    expect(await html(await signUp(server), `/game/${world.slug}`)).not.toContain("Rate it Mature");
  });
});

describe("blocked terms", () => {
  it("are the admin's list, seeded once from WORLD_BLOCKED_TERMS, and refused on publish", async () => {
    const creator = await signUp(server);
    expect(await server.connection.db.select().from(blockedTerms).where(eq(blockedTerms.term, "marzipan"))).toHaveLength(1);
    const sweet = await createWorld(server, creator, { description: "A court of MARZIPAN towers." });
    const refused = await publishWorld(server, creator, sweet.id, "public");
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("“marzipan” is not allowed on this site");

    expect((await post(moderator, "/moderation", { intent: "add-term", term: "Gorgonzola" })).status).toBe(403);
    expect((await post(admin, "/moderation", { intent: "add-term", term: "Gorgonzola" })).status).toBe(302);
    expect(await html(admin, "/moderation")).toContain("Unblock gorgonzola");
    const cheese = await createWorld(server, creator, { tagline: "Gorgonzola for the empress." });
    expect((await publishWorld(server, creator, cheese.id, "public")).status).toBe(400);
    expect((await post(admin, "/moderation", { intent: "remove-term", term: "gorgonzola" })).status).toBe(302);
    expect((await post(admin, "/moderation", { intent: "remove-term", term: "marzipan" })).status).toBe(302);
    expect((await publishWorld(server, creator, cheese.id, "public")).status).toBe(302);
    expect((await publishWorld(server, creator, sweet.id, "public")).status).toBe(302);
  });
});

describe("content rules", () => {
  it("are published in versions an admin adds; earlier versions stay readable and decisions cite the version in force", async () => {
    const player = await signUp(server);
    const first = await html(undefined, "/rules");
    expect(first).toContain("Version 1");
    expect(first).toContain("No sexual content involving minors");
    expect(await html(undefined, "/sitemap.xml")).toContain("/rules</loc>");
    expect((await post(player, "/rules", { rules: "Be kind." })).status).toBe(403);
    expect((await post(admin, "/rules", { rules: " \n " })).status).toBe(400);

    expect((await post(admin, "/rules", { rules: "Be kind.\nRate honestly.\nNo spam." })).status).toBe(302);
    const second = await html(undefined, "/rules");
    expect(second).toContain("Version 2");
    expect(second).toContain("Rate honestly.");
    expect(second).not.toContain("No sexual content involving minors");
    expect(await html(undefined, "/rules?version=1")).toContain("No sexual content involving minors");
    expect((await server.fetch("/rules?version=99")).status).toBe(404);
    expect((await server.fetch("/rules?version=x")).status).toBe(404);

    const world = await publishedWorld(await signUp(server));
    expect((await act(moderator, world.id, "hide", "7")).status).toBe(400);
    expect((await act(moderator, world.id, "hide", "3", "Spam links.")).status).toBe(302);
    expect(await latestAction(world.id)).toMatchObject({ kind: "hide" });
    const [action] = await server.connection.db.select().from(moderationActions).where(eq(moderationActions.gameId, world.id));
    expect(action).toMatchObject({ rulesVersion: 2, ruleNumber: 3 });
  });
});
