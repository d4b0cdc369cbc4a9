/**
 * Long stories open as fast as short ones (issues 22 and 17). On PostgreSQL, with the production
 * server in its own process and a local model answering at once, three players have stories of
 * 10, 1,000 and 10,000 exchanges. For each story it measures:
 *   - the play page: HTML bytes (as sent with Accept-Encoding: gzip, and unpacked) and the
 *     server's time for it (median of repeated requests);
 *   - a turn: the server's time to the end of the reply (median), the bytes of context it sends the
 *     model (a local OpenAI-compatible model that answers at once records them), and the
 *     database's time for the read that grows with a story — the model's context — from EXPLAIN ANALYZE;
 *   - in Chromium at 390 px with the CPU slowed 4×: the time until the composer takes typing
 *     (React has hydrated it) and the number of DOM nodes.
 * Each figure is printed with its ratio to the 10-exchange story measured in the same run, against
 * the issue's goals (page bytes ≤ 1.5×, server time ≤ 2×, time to typing ≤ 1.5×, DOM ≤ 1.5×, turn
 * time ≤ 1.2×).
 *
 * Then a branch of the 10,000-exchange story (issue 35, docs/decisions/063), forked ten exchanges
 * before its end with ten of its own, so its newest turns are read across the fork: its play
 * page's server time and its turn's reads (begin_turn's context and state) against the story's,
 * measured turn about in the same run (goal ≤ 1.2×).
 *
 *   npm run bench -- long-story
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { request } from "node:http";
import { gunzipSync } from "node:zlib";
import pg from "pg";
import { chromium } from "playwright-core";
import { STORY_OPENING_EXCHANGES } from "#app/lib/story-view.ts";
import { startOpenAICompatibleServer } from "#tests/fakes/openai-compatible.ts";
import { startServerProcess } from "#tests/helpers/process.ts";
import { DEFAULT_WINDOW } from "#tests/helpers/turn-statements.ts";
import { writeReportSection } from "./report.ts";
import { createScratchDatabase } from "./scratch-database.ts";

const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const SIZES = [10, 1_000, 10_000];
const GAME = "empress-simulator";
const PAGE_REQUESTS = 30;
const TURNS = 15;
const BROWSER_RUNS = 3;
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const scratch = await createScratchDatabase(POSTGRES_URL, "bench_story");
if (!scratch) process.exit(0);
const dataDir = mkdtempSync(path.join(tmpdir(), "pae-bench-story-"));
const model = await startOpenAICompatibleServer();
model.script(() => ({ tokens: ["The court ", "waits on ", "your word."] }));
const server = await startServerProcess({
  DATA_DIR: dataDir,
  DATABASE_URL: scratch.url,
  AI_PROVIDER: "openai-compatible",
  AI_BASE_URL: model.baseUrl,
  AI_MODEL: "bench",
  CHAT_TURNS_PER_MINUTE: "10000",
  LOG_LEVEL: "warn",
});
const database = new pg.Client({ connectionString: scratch.url });
await database.connect();

function median(values: number[]) {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

interface Player {
  email: string;
  cookie: string;
  userId: string;
}

async function signUp(index: number): Promise<Player> {
  const email = `long-story-${index}@example.com`;
  const response = await fetch(`${server.url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: server.url, "X-Forwarded-For": `10.9.0.${index + 1}` },
    body: JSON.stringify({ email, password: "a long enough password", name: "Reader" }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status}`);
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const { rows } = await database.query<{ id: string }>(`select id from "user" where email = $1`, [email]);
  await database.query(`select apply_credit_change($1, 1000000, 'admin_grant', 'bench:' || $1)`, [rows[0]!.id]);
  return { email, cookie, userId: rows[0]!.id };
}

/** A story of `exchanges` short exchanges, written straight into the database. */
async function seedStory(player: Player, exchanges: number) {
  const { rows } = await database.query<{ id: string }>(`insert into stories (user_id, game_slug, exchanges) values ($1, $2, $3) returning id`, [
    player.userId,
    GAME,
    exchanges,
  ]);
  const storyId = rows[0]!.id;
  await seedExchanges(player, storyId, 1, exchanges);
  return storyId;
}

/** Exchanges first…last of a story, written straight into the database. */
async function seedExchanges(player: Player, storyId: string, first: number, last: number) {
  await database.query(
    `insert into game_messages (user_id, game_slug, story_id, exchange, role, content, state)
     select $1, $2, $3, turn, role, case when role = 'user' then 'I weigh my next move, turn ' || turn || '.'
       else 'The court answers your move ' || turn || '. The ministers bow, the eunuchs whisper, and the lanterns burn low.' end,
       case when role = 'assistant' then jsonb_build_object('Grace', 40 + turn % 50, 'Allies at Court', jsonb_build_array('Madam Lin Cuiwei')) end
     from generate_series($4::int, $5::int) as turn cross join (values ('user'), ('assistant')) as roles(role)`,
    [player.userId, GAME, storyId, first, last],
  );
  await database.query("analyze game_messages");
}

/** The exchanges a benchmarked branch has of its own, after its fork point. */
const BRANCH_OWN_EXCHANGES = 10;

/**
 * A branch of the story, forked BRANCH_OWN_EXCHANGES before its end with as many of its own, and
 * the story and the branch measured turn about: each play page's server time (median), and the
 * database's time for each one's turn reads.
 */
async function measureBranch(player: Player, storyId: string) {
  const { rows: story } = await database.query<{ exchanges: number }>("select exchanges from stories where id = $1", [storyId]);
  const exchanges = story[0]!.exchanges;
  const fork = exchanges - BRANCH_OWN_EXCHANGES;
  const { rows } = await database.query<{ id: string }>(
    `insert into stories (user_id, game_slug, exchanges, parent_story_id, fork_exchange) values ($1, $2, $3, $4, $5) returning id`,
    [player.userId, GAME, exchanges, storyId, fork],
  );
  const branchId = rows[0]!.id;
  await seedExchanges(player, branchId, fork + 1, exchanges);
  const pageOf = (id: string) => `${server.url}/play/${GAME}/${id}`;
  for (let warm = 0; warm < 3; warm += 1) {
    await getPage(pageOf(storyId), player.cookie);
    await getPage(pageOf(branchId), player.cookie);
  }
  const times = { story: [] as number[], branch: [] as number[] };
  // Twice as many as for a story alone: two pages measured turn about on a shared machine.
  for (let index = 0; index < PAGE_REQUESTS * 2; index += 1) {
    for (const [which, id] of [
      ["story", storyId],
      ["branch", branchId],
    ] as const) {
      const startedAt = performance.now();
      await getPage(pageOf(id), player.cookie);
      times[which].push(performance.now() - startedAt);
    }
  }
  const [storyReads, branchReads] = [await turnReadsMs(storyId), await turnReadsMs(branchId)];
  // The read of the page that goes through the lineage: its newest exchanges (STORY_OPENING_EXCHANGES).
  const pageRead = (id: string) =>
    executionMs("select * from story_messages($1::uuid, $2::int, $3::int)", [id, exchanges - STORY_OPENING_EXCHANGES + 1, exchanges]);
  // The goals are the page and the turn's reads as begin_turn makes them; the parts are shown without one
  // (a few hundredths of a millisecond, where one more index range is a large share).
  return [
    { name: "server time for the play page", story: median(times.story), branch: median(times.branch), goal: 1.2 },
    {
      name: "database: the turn's reads (begin_turn's context and state)",
      story: storyReads.contextMs + storyReads.stateMs,
      branch: branchReads.contextMs + branchReads.stateMs,
      goal: 1.2,
    },
    { name: "database: the turn's story read", story: storyReads.contextMs, branch: branchReads.contextMs },
    { name: "database: the turn's state read", story: storyReads.stateMs, branch: branchReads.stateMs },
    { name: "database: the page's newest exchanges", story: await pageRead(storyId), branch: await pageRead(branchId) },
  ];
}

/** The page as a browser gets it: asked for with Accept-Encoding, its bytes as they travel. */
function getPage(url: string, cookie: string) {
  return new Promise<{ body: Buffer; encoding: string | undefined }>((resolve, reject) => {
    const outgoing = request(url, { headers: { Cookie: cookie, "Accept-Encoding": "gzip" } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ body: Buffer.concat(chunks), encoding: response.headers["content-encoding"] }));
      response.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

async function measurePage(player: Player) {
  const times: number[] = [];
  let packed = 0;
  let unpacked = 0;
  for (let index = 0; index < PAGE_REQUESTS; index += 1) {
    const startedAt = performance.now();
    const { body, encoding } = await getPage(`${server.url}/play/${GAME}`, player.cookie);
    times.push(performance.now() - startedAt);
    packed = body.length;
    unpacked = encoding === "gzip" ? gunzipSync(body).length : body.length;
  }
  return { packed, unpacked, serverMs: median(times.slice(5)) };
}

async function measureTurns(player: Player) {
  const times: number[] = [];
  model.requests.splice(0);
  for (let index = 0; index < TURNS; index += 1) {
    const startedAt = performance.now();
    const response = await fetch(`${server.url}/api/game-chat`, {
      method: "POST",
      headers: { Cookie: player.cookie, Origin: server.url, "Content-Type": "application/json" },
      body: JSON.stringify({ message: `I act, move ${index}.`, game_slug: GAME }),
    });
    const text = await response.text();
    if (!text.includes("[DONE]")) throw new Error(`a turn failed: ${text.slice(0, 200)}`);
    times.push(performance.now() - startedAt);
  }
  const contextBytes = median(model.requests.map((request) => Buffer.byteLength(JSON.stringify(request.body.messages))));
  return { turnMs: median(times.slice(3)), contextBytes };
}

/** The database's median time for a statement, from EXPLAIN ANALYZE (the server's own time, not the round trip). */
async function executionMs(statement: string, parameters: unknown[]) {
  const times: number[] = [];
  for (let index = 0; index < 10; index += 1) {
    const { rows } = await database.query<{ "QUERY PLAN": { "Execution Time": number }[] }>(
      `explain (analyze, format json) ${statement}`,
      parameters,
    );
    times.push(rows[0]!["QUERY PLAN"][0]!["Execution Time"]);
  }
  return median(times);
}

/** The database's time for the reads of the next turn that could grow with a story: the model's context, and the state it starts from. */
async function turnReadsMs(storyId: string) {
  const { rows: story } = await database.query<{ exchanges: number }>("select exchanges from stories where id = $1", [storyId]);
  const before = story[0]!.exchanges + 1;
  const { maxExchanges, maxCharacters } = DEFAULT_WINDOW;
  const contextMs = await executionMs("select * from story_context($1::uuid, $2::int, $3::int, $4::int)", [
    storyId,
    before,
    maxExchanges,
    maxCharacters,
  ]);
  const stateMs = await executionMs("select state from story_states($1::uuid, $2::int, 1)", [storyId, before - 1]);
  return { contextMs, stateMs };
}

async function measureBrowser(player: Player) {
  const profile = mkdtempSync(path.join(tmpdir(), "pae-bench-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 390, height: 844 },
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  const url = new URL(server.url);
  await context.addCookies(
    player.cookie.split("; ").map((pair) => {
      const [name, ...value] = pair.split("=");
      return { name: name!, value: value.join("="), domain: url.hostname, path: "/" };
    }),
  );
  const typing: number[] = [];
  const nodes: number[] = [];
  try {
    for (let run = 0; run < BROWSER_RUNS; run += 1) {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
      await page.goto(`${server.url}/play/${GAME}`, { waitUntil: "commit" });
      // The composer takes typing once React has hydrated it (its handlers are attached).
      const ready = await page.waitForFunction(
        () => {
          const field = document.querySelector("#play-input");
          return field && Object.keys(field).some((key) => key.startsWith("__reactProps")) ? performance.now() : undefined;
        },
        undefined,
        { polling: 16, timeout: 120_000 },
      );
      typing.push((await ready.jsonValue()) ?? Number.NaN);
      await page.waitForTimeout(300);
      nodes.push(await page.evaluate(() => document.getElementsByTagName("*").length));
      await page.close();
    }
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
  return { typingMs: median(typing), domNodes: median(nodes) };
}

try {
  const rows: {
    exchanges: number;
    packed: number;
    unpacked: number;
    serverMs: number;
    turnMs: number;
    contextBytes: number;
    contextMs: number;
    stateMs: number;
    typingMs: number;
    domNodes: number;
  }[] = [];
  let branchRows: Awaited<ReturnType<typeof measureBranch>> = [];
  for (const [index, exchanges] of SIZES.entries()) {
    const player = await signUp(index);
    const storyId = await seedStory(player, exchanges);
    // Warm up the server's paths for this story before measuring.
    for (let warm = 0; warm < 3; warm += 1)
      await (await fetch(`${server.url}/play/${GAME}`, { headers: { Cookie: player.cookie } })).arrayBuffer();
    const page = await measurePage(player);
    const browser = await measureBrowser(player);
    const { turnMs, contextBytes } = await measureTurns(player);
    const reads = await turnReadsMs(storyId);
    rows.push({ exchanges, ...page, turnMs, contextBytes, ...reads, ...browser });
    if (exchanges === SIZES.at(-1)) branchRows = await measureBranch(player, storyId);
  }

  const [base] = rows;
  const ratio = (value: number, of: number) => (of > 0 ? value / of : Number.NaN);
  const goals: [string, (row: (typeof rows)[number]) => number, number | undefined, (value: number) => string][] = [
    ["play page HTML (gzip)", (row) => row.packed, 1.5, (value) => `${(value / 1024).toFixed(1)} KiB`],
    ["play page HTML (unpacked)", (row) => row.unpacked, 1.5, (value) => `${(value / 1024).toFixed(1)} KiB`],
    ["server time for the page", (row) => row.serverMs, 2, (value) => `${value.toFixed(1)} ms`],
    ["a turn, to its last word", (row) => row.turnMs, 1.2, (value) => `${value.toFixed(1)} ms`],
    ["context sent to the model per turn", (row) => row.contextBytes, undefined, (value) => `${(value / 1024).toFixed(1)} KiB`],
    ["database: the turn's story read", (row) => row.contextMs, undefined, (value) => `${value.toFixed(2)} ms`],
    ["database: the turn's state read", (row) => row.stateMs, undefined, (value) => `${value.toFixed(2)} ms`],
    ["phone (4× CPU): composer takes typing", (row) => row.typingMs, 1.5, (value) => `${value.toFixed(0)} ms`],
    ["DOM nodes", (row) => row.domNodes, 1.5, (value) => value.toFixed(0)],
  ];
  const lines = [
    `| measure | ${rows.map((row) => `${row.exchanges.toLocaleString("en-US")} exchanges`).join(" | ")} | worst ratio | goal |`,
    `|---|${rows.map(() => "---|").join("")}---|---|`,
    ...goals.map(([name, value, goal, format]) => {
      const worst = Math.max(...rows.slice(1).map((row) => ratio(value(row), value(base!))));
      const verdict = goal === undefined ? "—" : `≤ ${goal}× ${worst <= goal ? "met" : "MISSED"}`;
      return `| ${name} | ${rows.map((row) => format(value(row))).join(" | ")} | ${worst.toFixed(2)}× | ${verdict} |`;
    }),
  ];
  const heading = "PostgreSQL; a local OpenAI-compatible model answering at once; ratios are to the 10-exchange story in this run.";
  const longest = rows.at(-1)!.exchanges.toLocaleString("en-US");
  const branchLines = [
    `A branch of the ${longest}-exchange story, forked ${BRANCH_OWN_EXCHANGES} exchanges before its end with ${BRANCH_OWN_EXCHANGES} of its own (its newest turns are read across the fork), against the story, measured turn about in this run:`,
    "",
    "| measure | the story | its branch | ratio | goal |",
    "|---|---|---|---|---|",
    ...branchRows.map(({ name, story, branch, goal }) => {
      const branchRatio = ratio(branch, story);
      const verdict = goal === undefined ? "—" : `≤ ${goal}× ${branchRatio <= goal ? "met" : "MISSED"}`;
      return `| ${name} | ${story.toFixed(2)} ms | ${branch.toFixed(2)} ms | ${branchRatio.toFixed(2)}× | ${verdict} |`;
    }),
  ];
  const report = `${heading}\n\n${lines.join("\n")}\n\n${branchLines.join("\n")}`;
  console.log(report);
  writeReportSection("long-story", "Long stories (`long-story`)", report);
} finally {
  await database.end();
  await server.stop();
  await model.close();
  await scratch.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
