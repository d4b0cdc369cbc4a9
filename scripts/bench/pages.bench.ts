/**
 * Public pages under load: requests/s and p50/p99 latency of /, /games and
 * /game/empress-simulator at 50 concurrent clients (autocannon), on PGlite and on PostgreSQL,
 * plus the gzip bytes of JavaScript a first visit to /game/empress-simulator downloads.
 *
 * Each page is measured as visitors get it (the server keeps pages for signed-out visitors) and
 * rendered afresh for every request (what a signed-in player costs, and a cold cache).
 * PostgreSQL: BENCH_DATABASE_URL or TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test;
 * a scratch database is created next to it and dropped afterwards. Targets: p99 < 50 ms on
 * PostgreSQL; first-visit JavaScript < 150 KB gzip.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import { startServerProcess } from "#tests/helpers/process.ts";
import { createScratchDatabase } from "./scratch-database.ts";

const PAGES = ["/", "/games", "/game/empress-simulator"];
const CONNECTIONS = 50;
const DURATION_SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const P99_TARGET_MS = 50;
const JS_TARGET_BYTES = 150 * 1000;

/** `npm start` as its own process (so the load generator does not share its event loop). */
function startServer(env: Record<string, string>) {
  return startServerProcess({ LOG_LEVEL: "warn", ...env });
}

interface Row {
  database: string;
  page: string;
  mode: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  failures: number;
}

async function load(url: string, headers: Record<string, string> = {}) {
  // Warm up: the first render of a page compiles its code paths and fills the caches.
  for (let index = 0; index < 20; index += 1) await (await fetch(url, { headers })).arrayBuffer();
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_SECONDS, headers });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

async function measureDatabase(database: string, env: Record<string, string>): Promise<Row[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "pae-bench-"));
  const server = await startServer({ DATA_DIR: dataDir, ...env });
  const rows: Row[] = [];
  try {
    for (const page of PAGES) {
      rows.push({ database, page, mode: "visitor", ...(await load(server.url + page)) });
      // A session cookie the server cannot verify: every request is rendered, like a signed-in player's.
      const uncached = await load(server.url + page, { Cookie: "better-auth.session_token=bench.unsigned" });
      rows.push({ database, page, mode: "rendered", ...uncached });
    }
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

/** The JavaScript the HTML of a page makes the browser fetch: module preloads, scripts and inline module imports. */
async function firstVisitJavaScript(url: string) {
  const html = await (await fetch(url)).text();
  const sources = new Set<string>();
  for (const match of html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) sources.add(match[1]!);
  for (const match of html.matchAll(/<script\b[^>]*src="([^"]+)"/g)) sources.add(match[1]!);
  for (const match of html.matchAll(/\bimport\s*(?:[\w*{}\s,]+from\s*)?["']([^"']+\.js)["']/g)) sources.add(match[1]!);
  const files = await Promise.all(
    [...sources].map(async (source) => {
      const body = Buffer.from(await (await fetch(new URL(source, url))).arrayBuffer());
      return { source, bytes: body.length, gzip: gzipSync(body).length };
    }),
  );
  return files.sort((a, b) => b.gzip - a.gzip);
}

function printTable(rows: Row[]) {
  const header = ["database", "page", "mode", "req/s", "p50 ms", "p99 ms", "failed"];
  const lines = rows.map((row) => [
    row.database,
    row.page,
    row.mode,
    String(row.requestsPerSecond),
    String(row.p50),
    String(row.p99),
    String(row.failures),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  const format = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join("  ");
  console.log(format(header));
  for (const line of lines) console.log(format(line));
}

const rows: Row[] = [];
console.log(`${CONNECTIONS} connections, ${DURATION_SECONDS} s per page and mode\n`);
rows.push(...(await measureDatabase("pglite", {})));
const scratch = await createScratchDatabase(POSTGRES_URL, "bench_pages");
if (scratch) {
  try {
    rows.push(...(await measureDatabase("postgres", { DATABASE_URL: scratch.url })));
  } finally {
    await scratch.drop();
  }
}
printTable(rows);

const visitorP99 = rows.filter((row) => row.database === "postgres" && row.mode === "visitor").map((row) => row.p99);
if (visitorP99.length > 0) {
  const worst = Math.max(...visitorP99);
  console.log(`\nvisitor p99 on PostgreSQL: worst ${worst} ms (target < ${P99_TARGET_MS} ms) — ${worst < P99_TARGET_MS ? "met" : "MISSED"}`);
}

const dataDir = mkdtempSync(path.join(tmpdir(), "pae-bench-"));
const server = await startServer({ DATA_DIR: dataDir });
try {
  const files = await firstVisitJavaScript(`${server.url}/game/empress-simulator`);
  const total = files.reduce((sum, file) => sum + file.gzip, 0);
  console.log(
    `\nJavaScript of a first visit to /game/empress-simulator: ${files.length} files, ${total} bytes gzip (${(total / 1000).toFixed(1)} KB; target < ${JS_TARGET_BYTES / 1000} KB) — ${total < JS_TARGET_BYTES ? "met" : "MISSED"}`,
  );
  for (const file of files.slice(0, 8)) console.log(`  ${String(file.gzip).padStart(7)}  ${file.source}`);
  const rest = files.slice(8);
  if (rest.length > 0) console.log(`  ${String(rest.reduce((sum, file) => sum + file.gzip, 0)).padStart(7)}  ${rest.length} smaller files`);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
