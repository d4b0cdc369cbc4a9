/**
 * Public pages as browsers meet them (`Accept-Encoding: gzip, deflate, br`), against a static file
 * server answering the same bytes with the same headers, measured in turns in the same run: a
 * visitor's kept page, and the same page rendered for a signed-in player. The site runs as
 * `npm start` does, logging each request at `info`. On PGlite and on PostgreSQL
 * (BENCH_DATABASE_URL or TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test; a scratch
 * database is created next to it and dropped afterwards). Goal (issue 18): kept pages ≥ 0.8× the
 * static file server. Also prints the JavaScript a first visit downloads.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import { signUp } from "#tests/helpers/accounts.ts";
import { startServerProcess } from "#tests/helpers/process.ts";
import { markdownTable, writeReportSection } from "./report.ts";
import { createScratchDatabase } from "./scratch-database.ts";

const PAGES = ["/", "/games", "/game/empress-simulator"];
const CONNECTIONS = 50;
const DURATION_SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 5);
/** Site and baseline take turns this many times per page; the median of the rounds is reported. */
const ROUNDS = 3;
const ACCEPT_ENCODING = "gzip, deflate, br";
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const RATIO_GOAL = 0.8;

interface Load {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  failures: number;
}

interface Row {
  database: string;
  page: string;
  site: Load;
  baseline: Load;
  signedIn: Load;
  /** The same signed-in page asked for without compression (Accept-Encoding: identity). */
  signedInUncompressed: Load;
  pageBytes: number;
}

async function load(url: string, headers: Record<string, string>): Promise<Load> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_SECONDS, headers });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

function median(loads: Load[]): Load {
  const sorted = [...loads].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** A page as a browser gets it, compressed bytes and all (fetch would decode them). */
function getRaw(url: string, headers: Record<string, string>) {
  return new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

/** Records each page as the site serves it from memory, for the static file server to serve. */
async function recordPages(siteUrl: string, directory: string) {
  const sizes = new Map<string, number>();
  for (const [index, page] of PAGES.entries()) {
    let kept = await getRaw(siteUrl + page, { "Accept-Encoding": ACCEPT_ENCODING });
    for (let attempt = 0; kept.headers["x-cache"] !== "HIT" && attempt < 50; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      kept = await getRaw(siteUrl + page, { "Accept-Encoding": ACCEPT_ENCODING });
    }
    if (kept.headers["x-cache"] !== "HIT") throw new Error(`${page} is not kept for visitors`);
    const headers = Object.fromEntries(
      Object.entries(kept.headers).filter(([name]) => !["date", "connection", "keep-alive", "content-length", "transfer-encoding"].includes(name)),
    );
    writeFileSync(path.join(directory, `${index}.json`), JSON.stringify({ path: page, headers }));
    writeFileSync(path.join(directory, `${index}.body`), kept.body);
    sizes.set(page, kept.body.length);
  }
  return sizes;
}

async function startStaticFileServer(directory: string) {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, "static-file-server.ts"), directory], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`static file server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

async function measureDatabase(database: string, env: Record<string, string>): Promise<Row[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "pae-bench-"));
  const recorded = mkdtempSync(path.join(tmpdir(), "pae-static-"));
  const site = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: "info", ...env }, [], [], { discardLogs: true });
  const rows: Row[] = [];
  try {
    const player = await signUp({ url: site.url, fetch: (pathname, init) => fetch(new URL(pathname, site.url), { redirect: "manual", ...init }) });
    const sizes = await recordPages(site.url, recorded);
    const baseline = await startStaticFileServer(recorded);
    try {
      for (const page of PAGES) {
        const headers = { "Accept-Encoding": ACCEPT_ENCODING };
        // Warm up both: the first requests compile code paths.
        await load(site.url + page, headers);
        await load(baseline.url + page, headers);
        const siteLoads: Load[] = [];
        const baselineLoads: Load[] = [];
        for (let round = 0; round < ROUNDS; round += 1) {
          siteLoads.push(await load(site.url + page, headers));
          baselineLoads.push(await load(baseline.url + page, headers));
        }
        // What compressing a rendered page as it is sent costs: the same page, compressed and not, in turns.
        const signedInLoads: Load[] = [];
        const uncompressedLoads: Load[] = [];
        for (let round = 0; round < ROUNDS; round += 1) {
          signedInLoads.push(await load(site.url + page, { ...headers, Cookie: player.cookie }));
          uncompressedLoads.push(await load(site.url + page, { "Accept-Encoding": "identity", Cookie: player.cookie }));
        }
        rows.push({
          database,
          page,
          site: median(siteLoads),
          baseline: median(baselineLoads),
          signedIn: median(signedInLoads),
          signedInUncompressed: median(uncompressedLoads),
          pageBytes: sizes.get(page) ?? 0,
        });
      }
    } finally {
      baseline.stop();
    }
  } finally {
    await site.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(recorded, { recursive: true, force: true });
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
      return { source, gzip: gzipSync(body).length };
    }),
  );
  return files.sort((a, b) => b.gzip - a.gzip);
}

const ratio = (row: Row) => row.site.requestsPerSecond / row.baseline.requestsPerSecond;
const compressionRatio = (row: Row) => row.signedIn.requestsPerSecond / row.signedInUncompressed.requestsPerSecond;
const failed = (load: Load) => (load.failures ? ` (${load.failures} failed)` : "");

console.log(
  `${CONNECTIONS} connections, ${DURATION_SECONDS} s per measurement, ${ROUNDS} rounds taken in turns, Accept-Encoding: ${ACCEPT_ENCODING}\n`,
);
const rows: Row[] = [];
rows.push(...(await measureDatabase("PGlite", {})));
const scratch = await createScratchDatabase(POSTGRES_URL, "bench_pages");
if (scratch) {
  try {
    rows.push(...(await measureDatabase("PostgreSQL", { DATABASE_URL: scratch.url })));
  } finally {
    await scratch.drop();
  }
}

const table = markdownTable(
  [
    "database",
    "page",
    "kept page req/s",
    "p50 / p99 ms",
    "static file server req/s",
    "p50 / p99 ms",
    "ratio",
    "signed-in req/s",
    "p99 ms",
    "uncompressed req/s",
    "compressed ÷ uncompressed",
    "bytes (br)",
  ],
  rows.map((row) => [
    row.database,
    row.page,
    `${row.site.requestsPerSecond}${failed(row.site)}`,
    `${row.site.p50} / ${row.site.p99}`,
    `${row.baseline.requestsPerSecond}${failed(row.baseline)}`,
    `${row.baseline.p50} / ${row.baseline.p99}`,
    `${ratio(row).toFixed(2)}×`,
    `${row.signedIn.requestsPerSecond}${failed(row.signedIn)}`,
    row.signedIn.p99,
    `${row.signedInUncompressed.requestsPerSecond}${failed(row.signedInUncompressed)}`,
    `${compressionRatio(row).toFixed(2)}×`,
    row.pageBytes,
  ]),
);
const worst = Math.min(...rows.map(ratio));
const verdict = `Kept pages against the static file server: worst ratio ${worst.toFixed(2)}× (goal ≥ ${RATIO_GOAL}×) — ${worst >= RATIO_GOAL ? "met" : "MISSED"}.`;
const compressionCost = `Signed-in pages compressed as browsers ask against the same pages uncompressed: ${Math.min(...rows.map(compressionRatio)).toFixed(2)}–${Math.max(...rows.map(compressionRatio)).toFixed(2)}×.`;

/** The JavaScript a first visit to a game's page downloads, in one line. */
async function firstVisitSummary() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "pae-bench-"));
  const server = await startServerProcess({ DATA_DIR: dataDir });
  try {
    const files = await firstVisitJavaScript(`${server.url}/game/empress-simulator`);
    const total = files.reduce((sum, file) => sum + file.gzip, 0);
    return `JavaScript of a first visit to /game/empress-simulator: ${files.length} files, ${(total / 1000).toFixed(1)} KB gzip.`;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
const javascript = await firstVisitSummary();

console.log(table);
console.log(`\n${verdict}\n${compressionCost}\n${javascript}`);
writeReportSection(
  "pages",
  "Public pages (`pages`)",
  [
    `${CONNECTIONS} connections, ${DURATION_SECONDS} s per measurement, the median of ${ROUNDS} rounds in which the site and the static file server take turns; every request sends \`Accept-Encoding: ${ACCEPT_ENCODING}\` as browsers do, and the site logs each request at \`info\`. "Kept page" is what a signed-out visitor gets; the static file server (\`scripts/bench/static-file-server.ts\`) answers the same bytes with the same headers from memory. "Signed-in" renders the page for a player with a session, compressed as it is sent; "uncompressed" is the same page asked for with \`Accept-Encoding: identity\`, measured in turns with it.`,
    "",
    table,
    "",
    verdict,
    compressionCost,
    javascript,
  ].join("\n"),
);
