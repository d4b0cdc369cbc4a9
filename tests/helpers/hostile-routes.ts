/**
 * The requests tests/integration/hostile-input.test.ts spoils: every route that changes something,
 * each as a valid request (its method, address, who may make it and a valid body), so a probe that
 * slips through changes a guarded table. Addresses and bodies are read when the probes are made,
 * after the test's fixtures exist (`ids`).
 */

/** The rows the test makes before its probes, which some addresses name. */
export interface HostileIds {
  game: string;
  content: string;
  guide: string;
  strangersCheckout: string;
}

/** A draft of the stranger's (its id fixed, since forms are written before the server starts): the player may neither publish, like nor remix it. */
export const STRANGERS_WORLD = "5e1f0000-0000-4000-8000-000000000036";
/** A lorebook entry of the stranger's draft: the player may neither change nor delete it. */
export const STRANGERS_LORE_ENTRY = "5e1f0000-0000-4000-8000-000000000065";
/** An id nothing holds: a moderation action, an appeal. */
export const NO_SUCH_ID = "5e1f0000-0000-4000-8000-000000000064";

export type Who = "player" | "admin" | "nobody";

export interface Route {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: () => string;
  who: Who;
  /** A valid body: each probe spoils one part of it. */
  /** Read when the probes are made, after the fixtures exist. */
  json?: () => Record<string, unknown>;
  form?: Record<string, string>;
  /** Signed-out visitors may use it too (a contact form, signing out): "no session" is not a probe. */
  openToVisitors?: true;
  /** Query parameters that are not what the address takes, each tried in place of the valid ones. */
  spoiledQueries?: string[];
}

const loreEntry = { title: "Hostile", keys: "key", content: "Text.", alwaysOn: false, priority: 0, enabled: true };
const game = { title: "Hostile", slug: "hostile-game", description: "A game.", prompt: "Narrate.", icon: "Crown" };
const content = { gameSlug: "empress-simulator", contentType: "introduction", title: "Intro", content: "Text." };
const guide = { title: "Hostile guide", slug: "hostile-guide", description: "A guide.", content: "Text.", category: "general" };

/** Valid requests that would change something, so a probe that slips through shows in the fingerprint. */
export function hostileRoutes(ids: () => HostileIds): Record<string, Route> {
  return {
    "game-chat": {
      method: "POST",
      path: () => "/api/game-chat",
      who: "player",
      json: () => ({ message: "I bow.", game_slug: "empress-simulator" }),
    },
    "game-messages PUT": {
      method: "PUT",
      path: () => "/api/game-messages",
      who: "player",
      json: () => ({ game_slug: "empress-simulator", messages: [] }),
    },
    "game-messages DELETE": { method: "DELETE", path: () => "/api/game-messages?game_slug=empress-simulator", who: "player" },
    "game-preview": {
      method: "POST",
      path: () => "/api/game-preview",
      who: "nobody",
      json: () => ({ game_slug: "empress-simulator", message: "I bow." }),
      openToVisitors: true,
    },
    "create-payment": { method: "POST", path: () => "/api/create-payment", who: "player", json: () => ({ packageType: "100" }) },
    "verify-payment": { method: "POST", path: () => "/api/verify-payment", who: "player", json: () => ({ sessionId: ids().strangersCheckout }) },
    "stripe webhook": { method: "POST", path: () => "/api/stripe/webhook", who: "nobody", json: () => ({ type: "checkout.session.completed" }) },
    "admin games POST": { method: "POST", path: () => "/api/admin/games", who: "admin", json: () => game },
    "admin game PUT": { method: "PUT", path: () => `/api/admin/games/${ids().game}`, who: "admin", json: () => game },
    "admin game DELETE": { method: "DELETE", path: () => `/api/admin/games/${ids().game}`, who: "admin" },
    "admin content POST": { method: "POST", path: () => "/api/admin/game-content", who: "admin", json: () => content },
    "admin content PUT": { method: "PUT", path: () => `/api/admin/game-content/${ids().content}`, who: "admin", json: () => content },
    "admin content DELETE": { method: "DELETE", path: () => `/api/admin/game-content/${ids().content}`, who: "admin" },
    "admin sections PUT": {
      method: "PUT",
      path: () => "/api/admin/game-content/sections",
      who: "admin",
      json: () => ({ gameSlug: "empress-simulator", sections: [{ contentType: "background", title: "Bg", content: "Text." }] }),
    },
    "admin guides POST": { method: "POST", path: () => "/api/admin/guides", who: "admin", json: () => guide },
    "admin guide PUT": { method: "PUT", path: () => `/api/admin/guides/${ids().guide}`, who: "admin", json: () => guide },
    "admin guide DELETE": { method: "DELETE", path: () => `/api/admin/guides/${ids().guide}`, who: "admin" },
    "admin contact messages": { method: "GET", path: () => "/api/admin/contact-messages", who: "admin" },
    "credits events": { method: "GET", path: () => "/api/credits/events", who: "player" },
    "game-messages GET": { method: "GET", path: () => "/api/game-messages?game_slug=empress-simulator", who: "player" },
    "game-messages GET, a page": {
      method: "GET",
      path: () => "/api/game-messages?game_slug=empress-simulator&limit=10&before=3",
      who: "player",
      spoiledQueries: ["limit=0", "limit=100000", "limit=x", "limit=%00", "before=0", "before=-1", "before=1e400", "before=x"].map(
        (query) => `game_slug=empress-simulator&${query}`,
      ),
    },
    "update-user": { method: "POST", path: () => "/api/auth/update-user", who: "player", json: () => ({ name: "Hostile" }) },
    "sign-up": {
      method: "POST",
      path: () => "/api/auth/sign-up/email",
      who: "nobody",
      json: () => ({ name: "New", email: "new-hostile@example.com", password: "a long enough password" }),
    },
    "sign-in": {
      method: "POST",
      path: () => "/api/auth/sign-in/email",
      who: "nobody",
      json: () => ({ email: "player@example.com", password: "a long enough password" }),
    },
    "password reset": {
      method: "POST",
      path: () => "/api/auth/request-password-reset",
      who: "nobody",
      json: () => ({ email: "player@example.com", redirectTo: "/auth/reset-password" }),
    },
    "contact form": {
      method: "POST",
      path: () => "/contact",
      who: "player",
      form: { name: "Ann", email: "ann@example.com", subject: "Hi", message: "Hello there." },
      openToVisitors: true,
    },
    "test checkout form": { method: "POST", path: () => `/checkout/test/${ids().strangersCheckout}`, who: "player", form: { intent: "pay" } },
    "sign-out form": { method: "POST", path: () => "/sign-out", who: "player", form: {}, openToVisitors: true },
    "publish form": {
      method: "POST",
      path: () => "/create",
      who: "player",
      form: { intent: "publish", worldId: STRANGERS_WORLD, visibility: "public" },
    },
    "unpublish form": { method: "POST", path: () => "/create", who: "player", form: { intent: "unpublish", worldId: STRANGERS_WORLD } },
    "world lore POST": { method: "POST", path: () => `/api/worlds/${STRANGERS_WORLD}/lore`, who: "player", json: () => loreEntry },
    "world lore PATCH": { method: "PATCH", path: () => `/api/worlds/${STRANGERS_WORLD}/lore`, who: "player", json: () => ({ scanDepth: 3 }) },
    "world lore entry PUT": {
      method: "PUT",
      path: () => `/api/worlds/${STRANGERS_WORLD}/lore/${STRANGERS_LORE_ENTRY}`,
      who: "player",
      json: () => loreEntry,
    },
    "world lore entry DELETE": { method: "DELETE", path: () => `/api/worlds/${STRANGERS_WORLD}/lore/${STRANGERS_LORE_ENTRY}`, who: "player" },
    "world lore world-info POST": {
      method: "POST",
      path: () => `/api/worlds/${STRANGERS_WORLD}/lore/world-info`,
      who: "player",
      json: () => ({ entries: [{ key: ["key"], comment: "Hostile", content: "Text." }] }),
    },
    "like a world": { method: "POST", path: () => `/worlds/${STRANGERS_WORLD}/like`, who: "player", form: {} },
    "remix a world": { method: "POST", path: () => `/worlds/${STRANGERS_WORLD}/remix`, who: "player", form: {} },
    "world cover form": { method: "POST", path: () => `/create/${STRANGERS_WORLD}/cover`, who: "player", form: { intent: "remove" } },
    "update a story's world version": {
      method: "POST",
      path: () => "/play/empress-simulator",
      who: "player",
      form: { intent: "update-world-version", storyId: "00000000-0000-4000-8000-000000000000" },
    },
    "settings form": { method: "POST", path: () => "/settings", who: "player", form: { mature: "confirm" } },
    "report a world": {
      method: "POST",
      path: () => `/worlds/${STRANGERS_WORLD}/report`,
      who: "player",
      form: { reason: "Spam or scam", details: "Links to a shop." },
    },
    "appeal a decision": { method: "POST", path: () => "/appeals", who: "player", form: { actionId: NO_SUCH_ID, text: "It was fair." } },
    "moderation: act on a world": {
      method: "POST",
      path: () => "/moderation",
      who: "admin",
      form: { intent: "act", action: "hide", worldId: NO_SUCH_ID, rule: "1", reason: "Spam." },
    },
    "moderation: decide an appeal": {
      method: "POST",
      path: () => "/moderation",
      who: "admin",
      form: { intent: "decide", appealId: NO_SUCH_ID, decision: "uphold", rule: "1", reason: "It stands." },
    },
    "moderation: block a term": { method: "POST", path: () => "/moderation", who: "admin", form: { intent: "add-term", term: "hostile" } },
    "moderation: unblock a term": {
      method: "POST",
      path: () => "/moderation",
      who: "admin",
      form: { intent: "remove-term", term: "never-blocked" },
    },
    "publish the content rules": { method: "POST", path: () => "/rules", who: "admin", form: { rules: "Be kind." } },
  };
}
