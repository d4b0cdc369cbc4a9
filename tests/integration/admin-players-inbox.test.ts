import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactMessages, contactReplies, creditLedger, session, user } from "#app/db/schema.ts";
import { ACCOUNT_DISABLED_MESSAGE } from "#app/lib/auth.ts";
import { startSmtpServer, type FakeSmtpServer } from "#tests/fakes/smtp.ts";
import { makeAdmin, signUp, testClientAddress, type TestAccount } from "#tests/helpers/accounts.ts";
import { beginStory } from "#tests/helpers/stories.ts";
import { balanceAndLedger, postChat } from "#tests/helpers/game-chat.ts";
import { startTestServer, type TestServer } from "#tests/helpers/server.ts";

/**
 * The admin's players, inbox and publishing rules, through the admin API of the built app: a grant
 * is one ledger row however often it is sent, a disabled account can neither sign in nor play, a
 * reply leaves through SMTP (a local server) and stays with its message, slugs come out clean and
 * unique, a game needs its prompt and a game page shows no section without content.
 */

let server: TestServer;
let smtp: FakeSmtpServer;
let admin: TestAccount;
let player: TestAccount;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ SMTP_URL: smtp.url, MAIL_FROM: "Play as Empress <support@playasempress.example>" });
  admin = await signUp(server, { name: "Ada Admin" });
  await makeAdmin(server, admin);
  player = await signUp(server, { email: `ping_100-${randomUUID().slice(0, 6)}@example.com`, name: "Pirate Queen" });
});

afterAll(async () => {
  await server.close();
  await smtp.close();
});

function asAdmin(pathname: string, init: { method?: string; body?: unknown } = {}) {
  return server.fetch(pathname, {
    method: init.method ?? "GET",
    headers: { Cookie: admin.cookie, ...(init.body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

describe("finding players", () => {
  it("matches part of an email or a name, any case, with % and _ taken literally", async () => {
    const search = async (q: string) => {
      const response = await asAdmin(`/api/admin/players?q=${encodeURIComponent(q)}`);
      expect(response.status).toBe(200);
      return ((await response.json()) as { players: { id: string }[] }).players.map((found) => found.id);
    };
    expect(await search("PING_100")).toEqual([player.userId]);
    expect(await search("pirate qu")).toEqual([player.userId]);
    // Unescaped, "_" would match any one character and "%" any run of them.
    expect(await search("pingx100")).toEqual([]);
    expect(await search("ping%100")).toEqual([]);
  });

  it("shows a player's credits, ledger, payments and stories", async () => {
    await beginStory(server, player, "empress-simulator");
    const response = await asAdmin(`/api/admin/players/${player.userId}`);
    expect(response.status).toBe(200);
    const { player: detail } = (await response.json()) as {
      player: { credits: number; ledger: { reason: string }[]; payments: unknown[]; stories: { gameSlug: string }[] };
    };
    expect(detail.credits).toBe(20);
    expect(detail.ledger.map((row) => row.reason)).toEqual(["signup_bonus"]);
    expect(detail.payments).toEqual([]);
    expect(detail.stories.map((story) => story.gameSlug)).toEqual(["empress-simulator"]);
    expect((await asAdmin("/api/admin/players/nobody")).status).toBe(404);
  });
});

describe("granting credits", () => {
  it("adds one admin_grant ledger row with the reason, once however often it is sent", async () => {
    const grant = { credits: 15, note: "Sorry about the outage", requestId: randomUUID() };
    const first = await asAdmin(`/api/admin/players/${player.userId}/credits`, { method: "POST", body: grant });
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ applied: true, balance: 35 });
    const again = await asAdmin(`/api/admin/players/${player.userId}/credits`, { method: "POST", body: grant });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ applied: false, balance: 35 });

    const rows = await server.connection.db
      .select({ delta: creditLedger.delta, note: creditLedger.note, balanceAfter: creditLedger.balanceAfter })
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, player.userId), eq(creditLedger.reason, "admin_grant")));
    expect(rows).toEqual([{ delta: 15, note: "Sorry about the outage", balanceAfter: 35 }]);
    const { balance, ledger } = await balanceAndLedger(player);
    expect(balance).toBe(ledger);
  });

  it("refuses a grant without a reason or with a number that is not a whole positive one, naming the field", async () => {
    for (const [body, field] of [
      [{ credits: 5, note: " ", requestId: randomUUID() }, "note"],
      [{ credits: 0, note: "x", requestId: randomUUID() }, "credits"],
      [{ credits: 2.5, note: "x", requestId: randomUUID() }, "credits"],
      [{ credits: 5, note: "x" }, "requestId"],
    ] as const) {
      const response = await asAdmin(`/api/admin/players/${player.userId}/credits`, { method: "POST", body });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { fieldErrors: Record<string, string> }).fieldErrors).toHaveProperty(field);
    }
    const missing = await asAdmin("/api/admin/players/nobody/credits", {
      method: "POST",
      body: { credits: 5, note: "x", requestId: randomUUID() },
    });
    expect(missing.status).toBe(404);
  });
});

describe("disabling an account", () => {
  let target: TestAccount;
  const signIn = (account: TestAccount) =>
    server.fetch("/api/auth/sign-in/email", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": testClientAddress() },
      body: JSON.stringify({ email: account.email, password: account.password }),
    });

  beforeAll(async () => {
    target = await signUp(server);
    await beginStory(server, target, "empress-simulator");
  });

  it("ends its sessions and refuses sign-in with a clear message and play", async () => {
    const response = await asAdmin(`/api/admin/players/${target.userId}`, { method: "PATCH", body: { disabled: true } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { player: { disabledAt: string | null } }).player.disabledAt).not.toBeNull();
    expect(await server.connection.db.select().from(session).where(eq(session.userId, target.userId))).toEqual([]);

    const refused = await signIn(target);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toBe(ACCOUNT_DISABLED_MESSAGE);

    const before = await balanceAndLedger(target);
    const chat = await postChat(server, target, { game_slug: "empress-simulator", message: "I open the gates." });
    expect(chat.status).toBe(401);
    expect((await server.fetch("/api/stories", { headers: { Cookie: target.cookie } })).status).toBe(401);
    expect(await balanceAndLedger(target)).toEqual(before);
  });

  it("is undone by enabling it again", async () => {
    const response = await asAdmin(`/api/admin/players/${target.userId}`, { method: "PATCH", body: { disabled: false } });
    expect(response.status).toBe(200);
    const [row] = await server.connection.db.select({ disabledAt: user.disabledAt }).from(user).where(eq(user.id, target.userId));
    expect(row?.disabledAt).toBeNull();
    expect((await signIn(target)).status).toBe(200);
  });

  it("is refused for the admin's own account", async () => {
    const response = await asAdmin(`/api/admin/players/${admin.userId}`, { method: "PATCH", body: { disabled: true } });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { error: string }).error).toBe("You cannot disable your own account.");
  });
});

describe("the contact inbox", () => {
  let messageId: string;

  beforeAll(async () => {
    const [message] = await server.connection.db
      .insert(contactMessages)
      .values({ name: "Grace", email: "grace@example.com", subject: "Lost my story", message: "Where did my story go?\nIt was long." })
      .returning({ id: contactMessages.id });
    messageId = message!.id;
  });

  const list = async (filter: string) => {
    const response = await asAdmin(`/api/admin/contact-messages?filter=${filter}`);
    expect(response.status).toBe(200);
    return (await response.json()) as {
      messages: { id: string; handledAt: string | null; replies: { body: string; authorEmail: string }[] }[];
      unhandled: number;
    };
  };

  it("marks a message handled and unhandled, and filters by it", async () => {
    expect((await list("unhandled")).messages.map((message) => message.id)).toContain(messageId);
    const handled = await asAdmin(`/api/admin/contact-messages/${messageId}`, { method: "PATCH", body: { handled: true } });
    expect(handled.status).toBe(200);
    expect((await list("handled")).messages.map((message) => message.id)).toEqual([messageId]);
    expect((await list("unhandled")).messages.map((message) => message.id)).not.toContain(messageId);
    await asAdmin(`/api/admin/contact-messages/${messageId}`, { method: "PATCH", body: { handled: false } });
    expect((await list("handled")).messages).toEqual([]);
    expect((await asAdmin("/api/admin/contact-messages?filter=spam")).status).toBe(400);
  });

  it("sends a reply by email through SMTP and keeps it with the message, which it marks handled", async () => {
    const response = await asAdmin(`/api/admin/contact-messages/${messageId}/replies`, {
      method: "POST",
      body: { body: "Your story is safe: open My Stories.\n\nAda" },
    });
    expect(response.status).toBe(201);
    const mail = await smtp.waitForMail((received) => received.to.includes("grace@example.com"));
    expect(mail.subject).toBe("Re: Lost my story");
    expect(mail.text).toContain("Your story is safe: open My Stories.");
    expect(mail.text).toContain("> Where did my story go?");
    expect(mail.raw).toMatch(new RegExp(`^Reply-To: ${admin.email}`, "m"));

    const [stored] = await server.connection.db.select().from(contactReplies).where(eq(contactReplies.messageId, messageId));
    expect(stored).toMatchObject({ authorId: admin.userId, authorEmail: admin.email, authorName: "Ada Admin" });
    const inbox = await list("handled");
    expect(inbox.messages[0]?.replies.map((reply) => reply.body)).toEqual(["Your story is safe: open My Stories.\n\nAda"]);
  });

  it("refuses an empty reply, naming the field", async () => {
    const response = await asAdmin(`/api/admin/contact-messages/${messageId}/replies`, { method: "POST", body: { body: "  " } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { fieldErrors: Record<string, string> }).fieldErrors.body).toBe("Write the reply first.");
  });
});

describe("slugs and publishing", () => {
  const newGame = (title: string, slug: string, prompt = "You are the Game Master of the high seas.") => ({
    title,
    slug,
    description: "A story on the high seas.",
    prompt,
  });
  const createGame = (body: unknown) => asAdmin("/api/admin/games", { method: "POST", body });
  const slugOf = async (response: Response) => ((await response.json()) as { game: { slug: string } }).game.slug;

  it("makes a clean slug of a title's punctuation, and a unique one with a suffix", async () => {
    const first = await createGame(newGame("Pirate Queen!!", "Pirate Queen!!"));
    expect(first.status).toBe(201);
    expect(await slugOf(first)).toBe("pirate-queen");
    expect(await slugOf(await createGame(newGame("Pirate Queen!!", "pirate-queen")))).toBe("pirate-queen-2");
    expect(await slugOf(await createGame(newGame("Pirate Queen", "pirate-queen")))).toBe("pirate-queen-3");
    expect(await slugOf(await createGame(newGame("Café Intrigue", "--Café--Intrigue--")))).toBe("cafe-intrigue");
  });

  it("refuses a slug the admin chose when it is taken", async () => {
    const response = await createGame(newGame("Another Sea", "pirate-queen"));
    expect(response.status).toBe(409);
    expect(((await response.json()) as { fieldErrors: Record<string, string> }).fieldErrors.slug).toContain('"pirate-queen" is already used');
  });

  it("gives guides the same clean, unique slugs", async () => {
    const guide = { title: "Sea Shanties!", slug: "sea-shanties", description: "Songs.", content: "Yo ho." };
    const slug = async (response: Response) => ((await response.json()) as { guide: { slug: string } }).guide.slug;
    expect(await slug(await asAdmin("/api/admin/guides", { method: "POST", body: guide }))).toBe("sea-shanties");
    expect(await slug(await asAdmin("/api/admin/guides", { method: "POST", body: guide }))).toBe("sea-shanties-2");
  });

  it("refuses a game without a prompt, at the prompt field, when created or edited", async () => {
    const created = await createGame(newGame("Promptless", "promptless", "   "));
    expect(created.status).toBe(400);
    expect(((await created.json()) as { fieldErrors: Record<string, string> }).fieldErrors.prompt).toBe("Prompt is required.");

    const game = await createGame(newGame("Prompted", "prompted"));
    const { game: stored } = (await game.json()) as { game: { id: string } };
    const edited = await asAdmin(`/api/admin/games/${stored.id}`, { method: "PUT", body: newGame("Prompted", "prompted", "") });
    expect(edited.status).toBe(400);
    expect(((await edited.json()) as { fieldErrors: Record<string, string> }).fieldErrors.prompt).toBe("Prompt is required.");
  });

  it("leaves a content section without published content off the game page", async () => {
    const page = async () => (await server.fetch("/game/pirate-queen")).text();
    expect(await page()).not.toContain("Strategy &amp; Tips");
    const content = { gameSlug: "pirate-queen", contentType: "beginner_tips", title: "Tips", content: "Keep the wind behind you." };
    const hidden = await asAdmin("/api/admin/game-content", { method: "POST", body: { ...content, isPublished: false } });
    expect(hidden.status).toBe(201);
    expect(await page()).not.toContain("Strategy &amp; Tips");
    await asAdmin("/api/admin/game-content", { method: "POST", body: content });
    const html = await page();
    expect(html).toContain("Strategy &amp; Tips");
    expect(html).toContain("Keep the wind behind you.");
  });
});
