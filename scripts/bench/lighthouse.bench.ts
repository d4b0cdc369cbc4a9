/**
 * Lighthouse (mobile: a mid-range phone on a slow 4G link, simulated) on the home page, /games and
 * a game's page, as a first-time visitor gets them from `npm start` on the embedded defaults, in
 * Debian's Chromium. Prints each category's score, the timings behind performance, and the scripts
 * the first load fetches. Goals (issue 18): performance ≥ 95, total blocking time ≤ 150 ms,
 * accessibility 100, SEO 100. BENCH_CHROMIUM overrides /usr/bin/chromium.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { startServerProcess } from "#tests/helpers/process.ts";
import { markdownTable, writeReportSection } from "./report.ts";

const PAGES = ["/", "/games", "/game/empress-simulator"];
const CHROMIUM = process.env.BENCH_CHROMIUM ?? "/usr/bin/chromium";
const GOALS = { performance: 95, accessibility: 100, seo: 100, totalBlockingTime: 150 };

interface Audit {
  numericValue?: number;
  details?: { items?: { resourceType?: string; url?: string }[] };
}

interface Measured {
  page: string;
  performance: number;
  accessibility: number;
  seo: number;
  bestPractices: number;
  firstContentfulPaint: number;
  largestContentfulPaint: number;
  totalBlockingTime: number;
  cumulativeLayoutShift: number;
  scripts: number;
}

const score = (value: number | null | undefined) => Math.round((value ?? 0) * 100);

const dataDir = mkdtempSync(path.join(tmpdir(), "pae-lighthouse-"));
const server = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: "warn" });
const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"] });
const results: Measured[] = [];

/**
 * One Lighthouse run of a page. Now and then Chromium's trace of the load comes back without its
 * navigation start (NO_NAVSTART): Lighthouse then reports a score of 0 for a page it did not
 * measure, so that run is made again, with the same settings.
 */
async function measure(page: string) {
  for (let attempt = 1; ; attempt++) {
    const run = await lighthouse(`${server.url}${page}`, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility", "seo", "best-practices"],
    });
    if (!run) throw new Error(`Lighthouse returned nothing for ${page}`);
    const failure = run.lhr.runtimeError;
    if (!failure) return run;
    if (attempt === 3) throw new Error(`Lighthouse could not measure ${page}: ${failure.code} ${failure.message}`);
    console.log(`${page}: Lighthouse could not measure the load (${failure.code}); measuring again`);
  }
}

try {
  for (const page of PAGES) {
    const run = await measure(page);
    const { categories, audits } = run.lhr as unknown as {
      categories: Record<string, { score: number | null }>;
      audits: Record<string, Audit>;
    };
    const requests = audits["network-requests"]?.details?.items ?? [];
    results.push({
      page,
      performance: score(categories.performance?.score),
      accessibility: score(categories.accessibility?.score),
      seo: score(categories.seo?.score),
      bestPractices: score(categories["best-practices"]?.score),
      firstContentfulPaint: Math.round(audits["first-contentful-paint"]?.numericValue ?? 0),
      largestContentfulPaint: Math.round(audits["largest-contentful-paint"]?.numericValue ?? 0),
      totalBlockingTime: Math.round(audits["total-blocking-time"]?.numericValue ?? 0),
      cumulativeLayoutShift: Number((audits["cumulative-layout-shift"]?.numericValue ?? 0).toFixed(3)),
      scripts: requests.filter((request) => request.resourceType === "Script").length,
    });
  }
} finally {
  chrome.kill();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

const table = markdownTable(
  ["page", "performance", "accessibility", "SEO", "best practices", "FCP ms", "LCP ms", "TBT ms", "CLS", "scripts"],
  results.map((result) => [
    result.page,
    result.performance,
    result.accessibility,
    result.seo,
    result.bestPractices,
    result.firstContentfulPaint,
    result.largestContentfulPaint,
    result.totalBlockingTime,
    result.cumulativeLayoutShift,
    result.scripts,
  ]),
);
const missed = results.flatMap((result) => [
  ...(result.performance < GOALS.performance ? [`${result.page} performance ${result.performance}`] : []),
  ...(result.accessibility < GOALS.accessibility ? [`${result.page} accessibility ${result.accessibility}`] : []),
  ...(result.seo < GOALS.seo ? [`${result.page} SEO ${result.seo}`] : []),
  ...(result.totalBlockingTime > GOALS.totalBlockingTime ? [`${result.page} TBT ${result.totalBlockingTime} ms`] : []),
]);
const verdict =
  `Goals: performance ≥ ${GOALS.performance}, TBT ≤ ${GOALS.totalBlockingTime} ms, accessibility ${GOALS.accessibility}, SEO ${GOALS.seo} — ` +
  (missed.length === 0 ? "met." : `MISSED: ${missed.join("; ")}.`);
console.log(table);
console.log(`\n${verdict}`);
writeReportSection(
  "lighthouse",
  "Lighthouse, mobile (`lighthouse`)",
  [
    "Lighthouse's mobile run (simulated mid-range phone and slow 4G) in Debian's Chromium, on a first visit to each page served by `npm start` on the embedded defaults. Scripts: JavaScript files the first load fetches.",
    "",
    table,
    "",
    verdict,
  ].join("\n"),
);
