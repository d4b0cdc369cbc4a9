/**
 * The database's part of a turn, alone (issue 34): the site's two statements — begin_turn and
 * finish_turn, as turn.server.ts and reply-writer.server.ts call them
 * (tests/helpers/turn-statements.ts) — against the relay's two (relay-statements.ts), on one
 * connection of a scratch PostgreSQL database, one turn after another. The game-chat bench
 * measures the same work under 32 players' load, where the database backends' CPU a turn moves
 * with whatever else the machine runs; here each side's backend is measured on its own
 * (/proc/PID/stat), in rounds that alternate which goes first, each on a vacuumed and analyzed
 * database, and each round's pair is compared. Commits do not wait for the
 * disk (synchronous_commit off): a single connection would otherwise measure the disk's flush.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import pg from "pg";
import { connectDatabase } from "#app/db/client.server.ts";
import { profiles, stories, user } from "#app/db/schema.ts";
import { seedDatabase } from "#app/db/seed/seed.server.ts";
import { OPENING_EXCHANGE, seedStory } from "#tests/helpers/stories.ts";
import { beginTurnStatement, DEFAULT_WINDOW, finishTurnStatement } from "#tests/helpers/turn-statements.ts";
import { POSTGRES_URL, QUICK, REPLY_TOKENS } from "./game-chat-settings.ts";
import { relayStatements } from "./relay-statements.ts";
import { cpuSeconds } from "./process-usage.ts";
import { markdownTable, writeReportSection } from "./report.ts";
import { createScratchDatabase } from "./scratch-database.ts";
import { percentile } from "./turn-figures.ts";

const ROUNDS = QUICK ? 6 : 12;
const TURNS_A_ROUND = QUICK ? 150 : 300;
const GAME = "empress-simulator";
const MESSAGE = "I look around the throne room and ask the chief eunuch what he saw in the garden last night.";
const REPLY = REPLY_TOKENS.join("");

const scratch = await createScratchDatabase(POSTGRES_URL, "bench_turn_sql");
if (!scratch) process.exit(0);
const dataDir = mkdtempSync(path.join(tmpdir(), "pae-bench-turn-sql-"));
try {
  const connection = await connectDatabase({ databaseUrl: scratch.url, dataDir, migrate: true, maxConnections: 2 });
  await seedDatabase(connection.db);
  const userId = randomUUID();
  await connection.db.insert(user).values({ id: userId, name: "Bench", email: "bench-turn-sql@example.com", emailVerified: true });
  await connection.db
    .insert(profiles)
    .values({ userId, credits: 1_000_000 })
    .onConflictDoUpdate({ target: profiles.userId, set: { credits: 1_000_000 } });
  const relayStory = await seedStory(connection.db, { userId, gameSlug: GAME, exchanges: [OPENING_EXCHANGE] });
  await connection.db.update(stories).set({ title: "relay" }).where(eq(stories.id, relayStory));
  const siteStory = await seedStory(connection.db, { userId, gameSlug: GAME, exchanges: [OPENING_EXCHANGE] });
  await connection.close();

  const client = new pg.Client({ connectionString: scratch.url });
  await client.connect();
  await client.query("SET synchronous_commit = off");
  // As every instance of the site listens, for its players' other tabs (app/domain/realtime.server.ts):
  // a notification a turn sends is also the work of the backend that delivers it.
  const listener = new pg.Client({ connectionString: scratch.url });
  await listener.connect();
  await listener.query("LISTEN credits_changed");
  await listener.query("LISTEN story_changed");
  const backendPid = async (of: pg.Client) => (await of.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
  const turnBackend = await backendPid(client);
  const listeningBackend = await backendPid(listener);
  const cpuMs = (pid: number) => cpuSeconds(pid) * 1000;

  const relay = relayStatements(DEFAULT_WINDOW);
  let relayExchange = 1;
  const relayTurn = async () => {
    await client.query({ name: "relay-begin", text: relay.BEGIN, values: [userId, GAME, `relay:${randomUUID()}`, "relay"] });
    relayExchange += 1;
    await client.query({ name: "relay-store", text: relay.STORE, values: [userId, GAME, relayStory, relayExchange, MESSAGE, REPLY] });
  };

  const siteTurn = async () => {
    const turnId = randomUUID();
    const begun = await client.query<{ outcome: string; reply_id: number }>({
      name: "begin-turn",
      ...beginTurnStatement({ userId, gameSlug: GAME, storyId: siteStory, turnId, message: MESSAGE }),
    });
    const row = begun.rows[0];
    if (row?.outcome !== "started") throw new Error(`begin_turn: ${row?.outcome}`);
    await client.query({ name: "finish-turn", ...finishTurnStatement({ storyId: siteStory, turnId, reply: REPLY, replyId: row.reply_id }) });
  };

  /** CPU a turn of the turn's backend and of the listening one, and wall time a turn, in µs, on a freshly vacuumed database. */
  const measure = async (turn: () => Promise<void>) => {
    await client.query("VACUUM (ANALYZE)");
    for (let index = 0; index < 20; index += 1) await turn();
    const turnCpuBefore = cpuMs(turnBackend);
    const listenerCpuBefore = cpuMs(listeningBackend);
    const startedAt = performance.now();
    for (let index = 0; index < TURNS_A_ROUND; index += 1) await turn();
    const wall = performance.now() - startedAt;
    // Its last notifications delivered before the listener's CPU is read.
    await listener.query("SELECT 1");
    const perTurn = (ms: number) => (ms / TURNS_A_ROUND) * 1000;
    const own = perTurn(cpuMs(turnBackend) - turnCpuBefore);
    const delivery = perTurn(cpuMs(listeningBackend) - listenerCpuBefore);
    return { own, delivery, cpu: own + delivery, wall: perTurn(wall) };
  };

  type Run = Awaited<ReturnType<typeof measure>>;
  const pairs: { relay: Run; site: Run }[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    if (round % 2 === 0) {
      const relayRun = await measure(relayTurn);
      pairs.push({ relay: relayRun, site: await measure(siteTurn) });
    } else {
      const siteRun = await measure(siteTurn);
      pairs.push({ site: siteRun, relay: await measure(relayTurn) });
    }
    const last = pairs.at(-1)!;
    console.log(`round ${round + 1}: relay ${last.relay.cpu.toFixed(0)} µs · site ${last.site.cpu.toFixed(0)} µs backend CPU a turn`);
  }
  await client.end();
  await listener.end();

  const median = (values: number[]) => percentile(values, 50);
  const figure = (name: "relay" | "site") => [
    name,
    median(pairs.map((pair) => pair[name].cpu)).toFixed(0),
    median(pairs.map((pair) => pair[name].own)).toFixed(0),
    median(pairs.map((pair) => pair[name].delivery)).toFixed(0),
    Math.min(...pairs.map((pair) => pair[name].cpu)).toFixed(0),
    median(pairs.map((pair) => pair[name].wall)).toFixed(0),
  ];
  const ratio = median(pairs.map((pair) => pair.site.cpu / pair.relay.cpu));
  const lines = [
    `The database's part of a turn alone: the site's begin_turn and finish_turn (with the player's rate limit, the story's lock, the debit, the context, the lorebooks, the reply, the model call's record and the story's announcements) against the relay's two statements (the debit and the window; the exchange stored), on one connection of a scratch PostgreSQL database, ${TURNS_A_ROUND} turns a run after 20 not counted, in ${ROUNDS} rounds that alternate which goes first, each run on a vacuumed and analyzed database, both stories growing by one exchange a turn. CPU from /proc of the connection's backend and of a backend listening as each instance of the site does (\`credits_changed\`, \`story_changed\`: the relay's debit announces a balance too); commits do not wait for the disk:`,
    "",
    markdownTable(
      [
        "",
        "database CPU a turn, µs (median of the rounds)",
        "the turn's backend",
        "delivering its notifications",
        "least of the rounds",
        "wall a turn, µs (median)",
      ],
      [figure("relay"), figure("site")],
    ),
    "",
    `- The site's database work a turn against the relay's: ${ratio.toFixed(2)}× (median of the rounds' ratios; the site is below the relay in ${pairs.filter((pair) => pair.site.cpu < pair.relay.cpu).length} of ${ROUNDS} rounds).`,
  ];
  console.log(lines.join("\n"));
  writeReportSection("turn-sql", "The database's part of a turn, alone (`turn-sql`)", lines.join("\n"));
} finally {
  await scratch.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
