import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { PLAY_TEXTS, PLAY_TOASTS } from "#app/lib/play-texts.ts";
import type { StoryView, TurnAnnouncement } from "#app/lib/story-view.ts";
import type { StoryChange } from "#app/components/live-credits.ts";
import { createStoryClient, type StoryEffects } from "./story-client.ts";
import type { PlayNotice } from "./story-refusals.ts";
import { isPending, priceOf } from "./story-selectors.ts";
import { createStoryStore } from "./story-store.ts";
import { announcement, contents, exchange, STORY_ID, storyView } from "./story-test-data.ts";

/**
 * The client against a local server speaking the play screen's API (JSON and the game-chat event
 * stream), without React: what it sends, and what the store shows after each answer.
 */

const GAME = "empress-simulator";

const sse = (payload: unknown) => `data: ${typeof payload === "string" ? payload : JSON.stringify(payload)}\n\n`;
/** The announcement of a new turn on exchange 3 of a story of two. */
const turn = (overrides: Partial<TurnAnnouncement> = {}) => announcement({ exchange: 3, messageId: 5, replyId: 6, ...overrides });

type Handler = (request: IncomingMessage, response: ServerResponse, body: unknown) => void | Promise<void>;

interface FakeApi {
  origin: string;
  requests: { route: string; body: unknown }[];
  /** Resolves when a connection to the route closes. */
  closed(route: string): Promise<void>;
}

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A local server answering `METHOD /path` (query left off) with the handler given. */
async function fakeApi(routes: Record<string, Handler>): Promise<FakeApi> {
  const requests: FakeApi["requests"] = [];
  const closings = new Map<string, () => void>();
  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    let text = "";
    for await (const chunk of request) text += String(chunk);
    const url = new URL(request.url ?? "/", "http://localhost");
    const route = `${request.method ?? "GET"} ${url.pathname}`;
    const body: unknown = text ? JSON.parse(text) : undefined;
    requests.push({ route: `${route}${url.search}`, body });
    response.on("close", () => closings.get(route)?.());
    const handler = routes[route];
    if (!handler) {
      response.writeHead(404, { "Content-Type": "application/json" }).end(JSON.stringify({ error: "Not here.", code: "not_found" }));
      return;
    }
    await handler(request, response, body);
  };
  const server = createServer((request, response) => void answer(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push({
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  });
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    closed: (route) => new Promise((resolve) => closings.set(route, resolve)),
  };
}

const json =
  (value: unknown, status = 200): Handler =>
  (_request, response) => {
    response.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(value));
  };

const stream =
  (...events: string[]): Handler =>
  (_request, response) => {
    response.writeHead(200, { "Content-Type": "text/event-stream" }).end(events.join(""));
  };

function setUp(api: FakeApi, story: StoryView | null, storyChanges?: (listener: (change: StoryChange) => void) => () => void) {
  const store = createStoryStore(story);
  const client = createStoryClient({ store, gameSlug: GAME, origin: api.origin, storyChanges: storyChanges ?? (() => () => undefined) });
  const said: PlayNotice[] = [];
  const visited: string[] = [];
  let balanceRefreshes = 0;
  const page: StoryEffects = {
    notify: (notice) => said.push(notice),
    navigate: (path) => void visited.push(path),
    refreshBalance: () => (balanceRefreshes += 1),
  };
  const disconnect = client.connect(page);
  return { store, client, said, visited, disconnect, balanceRefreshes: () => balanceRefreshes };
}

describe("the story client", () => {
  it("sends the turn alone, streams its reply into the store, then shows the stored story and frees the screen", async () => {
    const stored = storyView(3, { messages: [...exchange(1), ...exchange(2), ...exchange(3, "The hall falls silent.")] });
    const api = await fakeApi({
      "POST /api/game-chat": stream(
        sse({ turn: turn() }),
        sse({ content: "The hall " }),
        ": keep-alive\n\n",
        sse({ content: "falls silent." }),
        sse("[DONE]"),
      ),
      [`GET /api/stories/${STORY_ID}`]: json(stored),
    });
    const { store, client, said, balanceRefreshes } = setUp(api, storyView(2));
    const seen: string[] = [];
    store.subscribe(() => seen.push(store.getState().messages.at(-1)?.content ?? ""));
    store.dispatch({ type: "draftChanged", text: "Move 3." });

    await client.submit();

    expect(api.requests.map((request) => request.route)).toEqual(["POST /api/game-chat", `GET /api/stories/${STORY_ID}`]);
    expect(api.requests[0]?.body).toEqual({ message: "Move 3.", game_slug: GAME, story_id: STORY_ID });
    expect(seen).toContain("");
    expect(seen.at(-1)).toBe("The hall falls silent.");
    expect(store.getState().messages).toEqual(stored.messages.map((message) => ({ ...message, key: String(message.id) })));
    expect(isPending(store.getState())).toBe(false);
    expect(said).toEqual([]);
    expect(balanceRefreshes()).toBe(2);
  });

  it("a refusal for want of credits: the Insufficient Credits notice, the text back in the composer, nothing on screen", async () => {
    const api = await fakeApi({
      "POST /api/game-chat": json({ error: PLAY_TOASTS.insufficientCredits.description, code: "insufficient_credits" }, 402),
      [`GET /api/stories/${STORY_ID}`]: json(storyView(2)),
    });
    const { store, client, said } = setUp(api, storyView(2));
    const before = store.getState().messages;
    store.dispatch({ type: "draftChanged", text: "I summon the ministers." });
    await client.submit();
    expect(said).toEqual([{ kind: "needsCredits", ...PLAY_TOASTS.insufficientCredits }]);
    expect(store.getState().draft).toBe("I summon the ministers.");
    expect(store.getState().messages).toEqual(before);
  });

  it("free openings used up: the server's sentence with a way to buy credits, and the opening priced from then on", async () => {
    const sentence = "You have used today's free story openings (20 a day). To play on, buy credits, or come back in 3 hours.";
    const api = await fakeApi({ "POST /api/game-chat": json({ error: sentence, code: "free_openings_used" }, 402) });
    const { store, client, said } = setUp(api, null);
    await client.submit(PLAY_TEXTS.beginChoice);
    expect(said).toEqual([{ kind: "needsCredits", title: PLAY_TOASTS.freeOpeningsUsed.title, description: sentence }]);
    expect(store.getState()).toMatchObject({ freeOpeningAvailable: false, draft: PLAY_TEXTS.beginChoice, messages: [] });
  });

  it("a refusal of the session: to the sign-in page, back to this game after", async () => {
    const api = await fakeApi({ "POST /api/game-chat": json({ error: "Sign in.", code: "unauthenticated" }, 401) });
    const { store, client, said, visited } = setUp(api, null);
    await client.submit(PLAY_TEXTS.beginChoice);
    expect(said).toEqual([{ kind: "error", ...PLAY_TOASTS.authenticationRequired }]);
    expect(visited).toEqual([`/auth?redirectTo=${encodeURIComponent(`/play/${GAME}`)}`]);
    expect(store.getState().draft).toBe(PLAY_TEXTS.beginChoice);
  });

  it("a failed turn: docs/spec.md §8's notice, and the apology stays after the stored story", async () => {
    const api = await fakeApi({
      "POST /api/game-chat": stream(sse({ turn: turn() }), sse({ error: "The Game Master could not answer just now." })),
      [`GET /api/stories/${STORY_ID}`]: json(storyView(2)),
    });
    const { store, client, said } = setUp(api, storyView(2));
    store.dispatch({ type: "draftChanged", text: "I open the sealed letter." });
    await client.submit();
    expect(said).toEqual([{ kind: "error", ...PLAY_TOASTS.sendFailed }]);
    expect(contents(store.getState()).slice(-2)).toEqual(["I open the sealed letter.", PLAY_TEXTS.errorReply]);
  });

  it("Undo posts the exchange on screen, then shows the stored story", async () => {
    const api = await fakeApi({
      [`POST /api/stories/${STORY_ID}/undo`]: json({ revision: 4 }),
      [`GET /api/stories/${STORY_ID}`]: json(storyView(1, { revision: 4 })),
    });
    const { store, client } = setUp(api, storyView(2));
    await client.undo();
    expect(api.requests[0]).toEqual({ route: `POST /api/stories/${STORY_ID}/undo`, body: { exchange: 2 } });
    expect(store.getState().exchanges).toBe(1);
    expect(isPending(store.getState())).toBe(false);
  });

  it("the live channel: another story's change asks for nothing; this story's newer one shows it", async () => {
    const api = await fakeApi({ [`GET /api/stories/${STORY_ID}`]: json(storyView(3)) });
    let announce: (change: StoryChange) => void = () => undefined;
    const { store } = setUp(api, storyView(2), (listener) => {
      announce = listener;
      return () => undefined;
    });
    announce({ storyId: "another-story", gameSlug: GAME, revision: 9 });
    announce({ storyId: STORY_ID, gameSlug: GAME, revision: 2 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.requests).toEqual([]);
    announce({ storyId: STORY_ID, gameSlug: GAME, revision: 3 });
    await expect.poll(() => store.getState().exchanges).toBe(3);
    expect(api.requests.map((request) => request.route)).toEqual([`GET /api/stories/${STORY_ID}`]);
  });

  it("the live channel: a screen whose story has not begun follows the one begun in its game, and its next turn goes there", async () => {
    const begun = storyView(1, { revision: 1, busy: true, messages: [exchange(1, "")[0]!, { ...exchange(1, "")[1]!, status: "streaming" }] });
    const told = storyView(1, { revision: 2 });
    let reads = 0;
    const api = await fakeApi({
      // First as the other tab's opening is being written; then told.
      [`GET /api/stories/${STORY_ID}`]: (request, response, body) => json((reads += 1) === 1 ? begun : told)(request, response, body),
      [`GET /api/stories/${STORY_ID}/reply`]: stream(sse({ turn: turn({ exchange: 1 }) }), sse({ content: "Reply 1." }), sse("[DONE]")),
      "POST /api/game-chat": stream(sse({ turn: turn({ exchange: 2, charged: 1 }) }), sse({ content: "Reply 2." }), sse("[DONE]")),
    });
    let announce: (change: StoryChange) => void = () => undefined;
    const { store, client } = setUp(api, null, (listener) => {
      announce = listener;
      return () => undefined;
    });
    announce({ storyId: "story-of-another-game", gameSlug: "cultivation-simulator", revision: 1 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(store.getState().storyId).toBeNull();

    announce({ storyId: STORY_ID, gameSlug: GAME, revision: 1 });
    await expect.poll(() => store.getState().revision).toBe(2);
    expect(store.getState()).toMatchObject({ storyId: STORY_ID, exchanges: 1, busyElsewhere: false });
    expect(contents(store.getState())).toEqual(["Move 1.", "Reply 1."]);
    expect(priceOf(store.getState(), "send")).toBe(1);

    store.dispatch({ type: "draftChanged", text: "Move 2." });
    await client.submit();
    expect(api.requests.find((request) => request.route === "POST /api/game-chat")?.body).toEqual({
      message: "Move 2.",
      game_slug: GAME,
      story_id: STORY_ID,
    });
  });

  it("follows a reply being written elsewhere from what it has so far, then shows the stored story", async () => {
    const writing = storyView(3, {
      busy: true,
      messages: [...exchange(2), { ...exchange(3, "")[0]!, id: 5 }, { ...exchange(3, "")[1]!, id: 6, status: "streaming" }],
    });
    const api = await fakeApi({
      [`GET /api/stories/${STORY_ID}/reply`]: stream(sse({ turn: turn({ replySoFar: "Before. " }) }), sse({ content: "After." }), sse("[DONE]")),
      [`GET /api/stories/${STORY_ID}`]: json(storyView(3, { revision: 4 })),
    });
    const { store } = setUp(api, writing);
    const seen: string[] = [];
    store.subscribe(() => seen.push(store.getState().messages.find((message) => message.key === "6")?.content ?? ""));
    await expect.poll(() => store.getState().revision).toBe(4);
    expect(seen).toContain("Before. After.");
    expect(store.getState().attached).toBeNull();
    expect(isPending(store.getState())).toBe(false);
  });

  it("loads older turns above the first one on screen", async () => {
    const api = await fakeApi({ [`GET /api/stories/${STORY_ID}`]: json({ exchanges: 40, revision: 40, busy: false, messages: exchange(28) }) });
    const { store, client } = setUp(api, storyView(40, { messages: [...exchange(29), ...exchange(40)] }));
    await client.loadOlder();
    expect(api.requests[0]?.route).toBe(`GET /api/stories/${STORY_ID}?before=29`);
    expect(store.getState().messages[0]?.exchange).toBe(28);
  });

  it("New story goes to the story made; a refused one says the server's sentence and can be asked again", async () => {
    const made = await fakeApi({ "POST /api/stories": json(storyView(0, { id: "0b9d7c1e-2f4a-4c8e-9a51-3d6f0e7b8a92" })) });
    const first = setUp(made, storyView(2));
    await first.client.newStory();
    expect(made.requests[0]?.body).toEqual({ game_slug: GAME });
    expect(first.visited).toEqual([`/play/${GAME}/0b9d7c1e-2f4a-4c8e-9a51-3d6f0e7b8a92`]);

    const sentence = "You have begun 30 stories in the last hour. Please wait a moment before beginning another.";
    const refused = await fakeApi({ "POST /api/stories": json({ error: sentence, code: "rate_limited" }, 429) });
    const second = setUp(refused, storyView(2));
    await second.client.newStory();
    expect(second.said).toEqual([{ kind: "error", title: PLAY_TOASTS.sendFailed.title, description: sentence }]);
    expect(second.visited).toEqual([]);
    expect(second.store.getState().beginningNewStory).toBe(false);
  });

  it("closing the screen lets its reply's connection go, and says nothing more", async () => {
    const api = await fakeApi({
      "POST /api/game-chat": (_request, response) => {
        response.writeHead(200, { "Content-Type": "text/event-stream" });
        response.write(sse({ turn: turn() }) + sse({ content: "Once upon" }));
      },
    });
    const { store, client, said, disconnect } = setUp(api, storyView(2));
    store.dispatch({ type: "draftChanged", text: "Tell me a story." });
    const closed = api.closed("POST /api/game-chat");
    const sending = client.submit();
    await expect.poll(() => store.getState().messages.at(-1)?.content).toBe("Once upon");
    disconnect();
    await closed;
    await sending;
    expect(said).toEqual([]);
  });
});

describe("the story's lorebook", () => {
  const entry = { id: "7", title: "Ilse", keys: "Ilse, captain", content: "A smuggler.", alwaysOn: false, priority: 0, enabled: true };
  const input = { title: "Ilse", keys: "Ilse, captain", content: "A smuggler.", alwaysOn: false, priority: 0, enabled: true };

  it("reads, adds, changes and deletes the story's own entries, and reads the game's shown ones", async () => {
    const lore = `/api/stories/${STORY_ID}/lore`;
    const shown = { id: "9", title: "The harbour", keys: "harbour", content: "Never sleeps." };
    const api = await fakeApi({
      [`GET ${lore}`]: json({ entries: [entry], gameEntries: [shown] }),
      [`POST ${lore}`]: json({ entry }),
      [`PUT ${lore}/7`]: json({ entry: { ...entry, content: "A spy." } }),
      [`DELETE ${lore}/7`]: json({ deleted: true }),
    });
    const { client } = setUp(api, storyView(1));
    expect(await client.loreEntries()).toEqual({ entries: [entry], gameEntries: [shown] });
    expect(await client.saveLoreEntry(input)).toEqual({ ok: true, entry });
    expect(await client.saveLoreEntry({ ...input, content: "A spy." }, "7")).toMatchObject({ ok: true, entry: { content: "A spy." } });
    expect(await client.deleteLoreEntry("7")).toBe(true);
    expect(api.requests.map((request) => request.route)).toEqual([`GET ${lore}`, `POST ${lore}`, `PUT ${lore}/7`, `DELETE ${lore}/7`]);
    expect(api.requests[1]?.body).toEqual(input);
  });

  it("hands back the server's sentence and its messages by field when an entry is refused, and null when the list cannot be read", async () => {
    const refusal = {
      error: "That pattern could take for ever to match.",
      code: "invalid_input",
      fieldErrors: { keys: "That pattern could take for ever to match." },
    };
    const api = await fakeApi({ [`POST /api/stories/${STORY_ID}/lore`]: json(refusal, 400) });
    const { client } = setUp(api, storyView(1));
    expect(await client.saveLoreEntry({ ...input, keys: "/(a+)+$/" })).toEqual({
      ok: false,
      error: refusal.error,
      fieldErrors: refusal.fieldErrors,
    });
    expect(await client.loreEntries()).toBeNull();
    expect(await client.deleteLoreEntry("8")).toBe(false);
  });

  it("has no lorebook before the story exists", async () => {
    const api = await fakeApi({});
    const { client } = setUp(api, null);
    expect(await client.loreEntries()).toEqual({ entries: [], gameEntries: [] });
    expect(await client.saveLoreEntry(input)).toMatchObject({ ok: false });
    expect(api.requests).toEqual([]);
  });
});
