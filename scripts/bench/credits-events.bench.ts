/**
 * Live balance fan-out: many players with several open tabs each; every balance change must reach
 * all of that player's tabs. Prints how long a change takes from its commit to each tab's SSE
 * event, and the server's memory per open stream.
 *
 *   npm run bench -- credits-events                      (embedded PGlite)
 *   DATABASE_URL=postgres://… npm run bench -- credits-events
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { applyCreditChange } from "#app/domain/credits.server.ts";
import type { RunningServer } from "#server/app.ts";
import { freePort } from "#tests/helpers/server.ts";
import { writeReportSection } from "./report.ts";
import { openEventStream, type SseConnection } from "#tests/helpers/sse.ts";

const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 50);
const TABS_PER_PLAYER = Number(process.env.BENCH_TABS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);

const dataDir = mkdtempSync(path.join(tmpdir(), "pae-bench-"));
const port = await freePort();
Object.assign(process.env, {
  NODE_ENV: "production",
  HOST: "127.0.0.1",
  PORT: String(port),
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  DATA_DIR: dataDir,
  LOG_LEVEL: "silent",
});
const bundle = (await import(new URL("../../build/server/index.js", import.meta.url).href)) as {
  startServer: () => Promise<RunningServer>;
};
const server = await bundle.startServer();

async function signUp(index: number) {
  const response = await fetch(`${server.url}/api/auth/sign-up/email`, {
    method: "POST",
    // Each player from their own address: the sign-up limit is per address, and it is not what is measured.
    headers: { "Content-Type": "application/json", Origin: server.url, "X-Forwarded-For": `10.1.${index >> 8}.${index & 255}` },
    body: JSON.stringify({ email: `bench-${index}-${Date.now()}@example.com`, password: "a long enough password", name: "Bench" }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const { user } = (await response.json()) as { user: { id: string } };
  const cookie = response.headers
    .getSetCookie()
    .find((header) => header.includes("session_token="))
    ?.split(";")[0];
  if (!cookie) throw new Error("sign-up set no session cookie");
  return { userId: user.id, cookie };
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

try {
  const players = [];
  for (let index = 0; index < PLAYERS; index += 1) players.push(await signUp(index));

  const memoryBefore = process.memoryUsage().rss;
  const tabs = new Map<string, SseConnection[]>();
  const tabsOf = (userId: string) => tabs.get(userId) ?? [];
  for (const player of players) {
    const opened = await Promise.all(
      Array.from({ length: TABS_PER_PLAYER }, () => openEventStream(`${server.url}/api/credits/events`, { Cookie: player.cookie })),
    );
    await Promise.all(opened.map((tab) => tab.nextCredits()));
    tabs.set(player.userId, opened);
  }
  const streams = PLAYERS * TABS_PER_PLAYER;
  const memoryPerStream = (process.memoryUsage().rss - memoryBefore) / streams;

  /** One change for the player; resolves with the delay until each of their tabs had the event. */
  async function change(player: { userId: string }, reference: string) {
    const arrivals = tabsOf(player.userId).map((tab) => tab.nextCredits(10_000).then(() => performance.now()));
    const requested = performance.now();
    await applyCreditChange({ userId: player.userId, delta: 1, reason: "admin_grant", reference });
    return (await Promise.all(arrivals)).map((arrived) => arrived - requested);
  }

  const oneAtATime: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const player of players) oneAtATime.push(...(await change(player, `bench:single:${round}:${player.userId}`)));
  }
  const bursts: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const delays = await Promise.all(players.map((player) => change(player, `bench:burst:${round}:${player.userId}`)));
    bursts.push(...delays.flat());
  }

  const summary = (latencies: number[]) => {
    const sorted = latencies.toSorted((a, b) => a - b);
    return `p50 ${percentile(sorted, 50).toFixed(1)} ms · p95 ${percentile(sorted, 95).toFixed(1)} ms · p99 ${percentile(sorted, 99).toFixed(1)} ms · max ${percentile(sorted, 100).toFixed(1)} ms (${sorted.length} deliveries)`;
  };
  const lines = [
    `${server.connection.driver === "pglite" ? "PGlite" : "PostgreSQL"}; ${PLAYERS} players × ${TABS_PER_PLAYER} tabs = ${streams} open streams. Delay from a balance change being requested to the event in each of the player's tabs:`,
    "",
    `- one change at a time: ${summary(oneAtATime)}`,
    `- ${PLAYERS} players' changes at once: ${summary(bursts)}`,
    `- memory per open stream (client and server in one process): ${(memoryPerStream / 1024).toFixed(1)} KiB`,
  ];
  console.log(lines.join("\n"));
  writeReportSection("credits-events", "Live balance (`credits-events`)", lines.join("\n"));
  for (const opened of tabs.values()) for (const tab of opened) tab.close();
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
