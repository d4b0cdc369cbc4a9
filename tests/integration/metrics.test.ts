import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CREDIT_PACKAGES } from "#app/lib/constants.ts";
import { signUp, type TestAccount } from "#tests/helpers/accounts.ts";
import { eventually, postChat, readTurn, setBalance, startStoryTestServer, TEST_GAME } from "#tests/helpers/game-chat.ts";
import { createPayment } from "#tests/helpers/payments.ts";
import type { TestServer } from "#tests/helpers/server.ts";
import { beginStory } from "#tests/helpers/stories.ts";
import type { FakeModelServer } from "#tests/fakes/streaming-model.ts";

const TOKEN = "metrics-token-for-the-tests-0123456789";

let server: TestServer;
let model: FakeModelServer;
let stop: () => Promise<void>;

beforeAll(async () => {
  // A door of one place, so a test can fill it.
  ({ server, model, close: stop } = await startStoryTestServer({ METRICS_TOKEN: TOKEN, GAME_MASTER_MAX_STREAMS: "1" }));
});

afterAll(() => stop());

function scrape(authorization = `Bearer ${TOKEN}`) {
  return server.fetch("/metrics", { headers: { Authorization: authorization } });
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (`name{label="value",…} number` lines). */
async function samples(): Promise<Sample[]> {
  const response = await scrape();
  expect(response.status).toBe(200);
  const text = await response.text();
  return text
    .split("\n")
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, name, value]) => [name, value]));
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

/** The sum of a metric's samples whose labels include `labels` (0 when there are none). */
function total(all: Sample[], name: string, labels: Record<string, string> = {}) {
  return all
    .filter((sample) => sample.name === name && Object.entries(labels).every(([label, value]) => sample.labels[label] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}

describe("GET /metrics", () => {
  it("refuses a missing or wrong token with 401, asking for a bearer token, in the one error shape", async () => {
    for (const authorization of ["", `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, TOKEN, `Basic ${TOKEN}`]) {
      const response = await scrape(authorization);
      expect(response.status, authorization).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect(await response.json()).toEqual({
        error: "Metrics need the bearer token this server was given as METRICS_TOKEN.",
        code: "unauthenticated",
      });
    }
  });

  it("answers the token's holder in Prometheus's text format, with the process's own figures and every turn outcome", async () => {
    const response = await scrape();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const all = await samples();
    const names = new Set(all.map((sample) => sample.name));
    for (const name of [
      "process_cpu_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_heap_size_used_bytes",
      "nodejs_eventloop_lag_p99_seconds",
      "game_master_streams_active",
      "db_pool_waiting",
      "credits_spent_total",
      "credits_purchased_total",
    ]) {
      expect(names, name).toContain(name);
    }
    const outcomes = all.filter((sample) => sample.name === "game_master_turns_total").map((sample) => sample.labels.outcome);
    expect(outcomes.sort()).toEqual(
      ["cancelled", "completed", "failed", "insufficient_credits", "interrupted", "refused", "refused_busy", "refused_rate_limited"].sort(),
    );
    expect(total(all, "db_pool_waiting")).toBe(0);
  });
});

describe("what a turn moves", () => {
  let player: TestAccount;
  beforeAll(async () => {
    player = await signUp(server);
    await beginStory(server, player, TEST_GAME.slug);
  });

  it("counts a completed turn, its first token, its credit and its request under the route's pattern", async () => {
    model.script(() => ({ tokens: ["The ", "bell ", "rings."], tokenDelayMs: 10 }));
    const before = await samples();
    const turn = await readTurn(await postChat(server, player, { message: "I ring the bell.", game_slug: TEST_GAME.slug }));
    expect(turn.done).toBe(true);

    const chatRequests = { route: "/api/game-chat", status: "200" };
    const after = await eventually(async () => {
      const all = await samples();
      return (
        total(all, "http_request_duration_seconds_count", chatRequests) > total(before, "http_request_duration_seconds_count", chatRequests) && all
      );
    });
    const moved = (name: string, labels?: Record<string, string>) => total(after, name, labels) - total(before, name, labels);
    expect(moved("game_master_turns_total", { outcome: "completed" })).toBe(1);
    expect(moved("game_master_turns_total")).toBe(1);
    expect(moved("game_master_first_token_seconds_count")).toBe(1);
    expect(moved("game_master_first_token_seconds_sum")).toBeGreaterThan(0);
    expect(moved("credits_spent_total")).toBe(1);
    expect(moved("http_request_duration_seconds_count", chatRequests)).toBe(1);
    expect(moved("http_request_duration_seconds_sum", chatRequests)).toBeGreaterThan(0);
  });

  it("counts a model that fails before any text as failed, spending nothing", async () => {
    model.script(() => ({ status: 400 }));
    const before = await samples();
    const turn = await readTurn(await postChat(server, player, { message: "I wait.", game_slug: TEST_GAME.slug }));
    expect(turn.error).toBeDefined();
    const after = await samples();
    expect(total(after, "game_master_turns_total", { outcome: "failed" }) - total(before, "game_master_turns_total", { outcome: "failed" })).toBe(
      1,
    );
    expect(total(after, "credits_spent_total")).toBe(total(before, "credits_spent_total"));
    expect(total(after, "game_master_first_token_seconds_count")).toBe(total(before, "game_master_first_token_seconds_count"));
  });

  it("counts the reply holding the door's place while it is written, and the call the full door refuses", async () => {
    // A reply of a few seconds, and the second player signed up before it begins: on a loaded
    // machine a sign-up outlasted a shorter reply, and the door was free again.
    model.script(() => ({ tokens: ["The ", "tide ", "turns ", "slowly."], tokenDelayMs: 1_000 }));
    const second = await signUp(server);
    const before = await samples();
    const writing = await postChat(server, player, { message: "I wait for the tide.", game_slug: TEST_GAME.slug });
    expect(writing.status).toBe(200);
    expect(total(await samples(), "game_master_streams_active")).toBe(1);
    const turnedAway = await postChat(server, second, { message: "Me too.", game_slug: TEST_GAME.slug });
    expect(turnedAway.status).toBe(503);
    expect((await readTurn(writing)).done).toBe(true);
    const after = await samples();
    const moved = (outcome: string) =>
      total(after, "game_master_turns_total", { outcome }) - total(before, "game_master_turns_total", { outcome });
    expect(moved("refused_busy")).toBe(1);
    expect(moved("completed")).toBe(1);
    // The place is given back as the reply's bookkeeping ends, just after its last event.
    await eventually(async () => total(await samples(), "game_master_streams_active") === 0);
  });

  it("counts a turn refused for want of credits", async () => {
    const poor = await signUp(server);
    await beginStory(server, poor, TEST_GAME.slug);
    await setBalance(poor, 0);
    const before = await samples();
    expect((await postChat(server, poor, { message: "I beg.", game_slug: TEST_GAME.slug })).status).toBe(402);
    const after = await samples();
    const outcome = { outcome: "insufficient_credits" };
    expect(total(after, "game_master_turns_total", outcome) - total(before, "game_master_turns_total", outcome)).toBe(1);
    expect(total(after, "game_master_turns_total") - total(before, "game_master_turns_total")).toBe(1);
  });
});

describe("what a purchase moves", () => {
  it("adds the package's credits once, however often the payment is confirmed", async () => {
    const buyer = await signUp(server);
    const creditPackage = CREDIT_PACKAGES[0]!;
    const created = await createPayment(server, buyer, creditPackage.id);
    expect(created.status).toBe(200);
    const { url } = (await created.json()) as { url: string };
    const before = await samples();
    const pay = () =>
      server.fetch(new URL(url).pathname, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: buyer.cookie },
        body: new URLSearchParams({ intent: "pay" }).toString(),
      });
    expect((await pay()).status).toBe(302);
    expect((await pay()).status).toBe(302);
    const after = await samples();
    expect(total(after, "credits_purchased_total") - total(before, "credits_purchased_total")).toBe(creditPackage.credits);
  });
});

describe("request labels", () => {
  it("name pages by their route's pattern and every unknown path alike, never by the URL asked for", async () => {
    const player = await signUp(server);
    await server.fetch(`/play/${TEST_GAME.slug}`, { headers: { Cookie: player.cookie } });
    await server.fetch("/wp-login.php?probe=1");
    await server.fetch("/no/such/page/at-all");
    const all = await eventually(async () => {
      const found = await samples();
      return total(found, "http_request_duration_seconds_count", { route: "unmatched", status: "404" }) >= 2 && found;
    });
    const routes = new Set(all.filter((sample) => sample.name === "http_request_duration_seconds_count").map((sample) => sample.labels.route));
    expect(routes).toContain("/play/:slug");
    expect(routes).toContain("/metrics");
    for (const route of routes) expect(route).not.toMatch(/lantern-harbor|wp-login|no\/such/);
  });
});

describe("the starter Grafana dashboard", () => {
  it("plots only metrics the server exposes", async () => {
    const dashboard = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../deploy/grafana-dashboard.json"), "utf8")) as {
      panels: { targets?: { expr: string }[] }[];
    };
    const queries = dashboard.panels.flatMap((panel) => panel.targets ?? []).map((target) => target.expr);
    expect(queries.length).toBeGreaterThan(10);
    const plotted = new Set(
      queries.flatMap((query) =>
        [...query.matchAll(/\b([a-z_]+_(?:total|seconds|bytes|active|waiting|bucket|count|sum))\b/g)].map((match) => match[1]),
      ),
    );
    const exposed = new Set((await samples()).map((sample) => sample.name));
    for (const name of plotted) expect(exposed, name).toContain(name);
  });
});
