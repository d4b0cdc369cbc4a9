import { createHash } from "node:crypto";
import type { Server } from "node:http";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import express from "express";
import { VISITOR_CACHE_HEADER, VISITOR_CACHE_QUERY_HEADER } from "#app/lib/visitor-cache.ts";
import { PAGE_BROTLI_WINDOW_BITS, type CompressionLevel, type Compressor } from "#server/page-bytes.ts";
import type { PageCache } from "#server/page-cache.ts";

/** The page cache's tests' server (server/page-cache.test.ts): a PageCache in front of routes that count their renders. */

export interface Harness {
  url: string;
  renders: Map<string, number>;
  /** Makes the next renders of /slow wait until the returned function is called. */
  hold(): () => void;
  close(): Promise<void>;
}

const servers: Harness[] = [];

/** Closes every server serve() started (the tests' afterEach). */
export async function closeServers() {
  await Promise.all(servers.splice(0).map((server) => server.close()));
}

/**
 * A real Express server: the cache's two halves around a per-response nonce like helmet's, and
 * routes that count their renders. /games reads `difficulty` and `search` and says so, as the
 * site's /games does.
 */
export async function serve(cache: PageCache): Promise<Harness> {
  const renders = new Map<string, number>();
  let gate: Promise<void> | undefined;
  let nonces = 0;
  const app = express();
  app.use(cache.serve());
  app.use((_request, response, next) => {
    nonces += 1;
    response.locals.cspNonce = `N${String(nonces).padStart(4, "0")}nonce`;
    response.setHeader("Content-Security-Policy", `script-src 'nonce-${String(response.locals.cspNonce)}'`);
    next();
  });
  app.use(cache.capture());
  app.get("/{*path}", async (request, response) => {
    const count = (renders.get(request.path) ?? 0) + 1;
    renders.set(request.path, count);
    if (request.path === "/slow" && gate) await gate;
    if (request.path !== "/private") response.setHeader(VISITOR_CACHE_HEADER, "60");
    if (request.path.startsWith("/games")) response.setHeader(VISITOR_CACHE_QUERY_HEADER, "difficulty,search");
    if (request.path === "/missing") response.status(404);
    if (request.path === "/cookie") response.setHeader("Set-Cookie", "a=b");
    response.setHeader("Content-Type", "text/html; charset=utf-8");
    const nonce = String(response.locals.cspNonce);
    response.write(`<script nonce="${nonce}">`);
    const search = typeof request.query.search === "string" ? ` search=${request.query.search}` : "";
    response.end(`render ${count} of ${request.path}${search}</script><p>${filler(request.path)}</p>`);
  });
  const server = await new Promise<Server>((resolve) => {
    const started = app.listen(0, "127.0.0.1", () => resolve(started));
  });
  const harness: Harness = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    renders,
    hold() {
      let release: () => void = () => {};
      gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      return () => {
        gate = undefined;
        release();
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  servers.push(harness);
  return harness;
}

export async function get(harness: Harness, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(harness.url + path, { headers });
  const body = await response.text();
  const policy = response.headers.get("content-security-policy") ?? "";
  const policyNonce = /'nonce-([^']+)'/.exec(policy)?.[1];
  return { response, body, policy, policyNonce, cache: response.headers.get("x-cache") };
}

/** The bytes as sent, with the encoding the server chose (fetch would decode them). */
export function getRaw(harness: Harness, path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    httpRequest(harness.url + path, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    })
      .on("error", reject)
      .end();
  });
}

/** /big pages are about 3 KB (and about 100 bytes compressed); /text is 30 KB of words that compress differently at each level. */
function filler(path: string) {
  if (path.startsWith("/big")) return "x".repeat(3000);
  if (path === "/text") {
    let seed = 1;
    return Array.from({ length: 5000 }, () => {
      seed = (seed * 48271) % 2147483647;
      return WORDS[seed % WORDS.length];
    }).join(" ");
  }
  return "x".repeat(10);
}
const WORDS = ["the", "empress", "court", "jade", "throne", "whisper", "edict", "concubine", "eunuch", "banquet", "poison", "favour", "silk"];

const compressBrotli = promisify(brotliCompress);
const compressGzip = promisify(gzip);

/** Compresses as a server would, at a quality that tells the levels apart, each call held until the test releases it. */
export function heldCompressor() {
  const calls: { level: CompressionLevel; release: () => void }[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const compress: Compressor = async (body, level) => {
    running += 1;
    mostAtOnce = Math.max(mostAtOnce, running);
    await new Promise<void>((release) => calls.push({ level, release }));
    const quality = level === "best" ? zlib.BROTLI_MAX_QUALITY : 5;
    const br = await compressBrotli(body, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: quality, [zlib.BROTLI_PARAM_LGWIN]: PAGE_BROTLI_WINDOW_BITS },
    });
    const gz = await compressGzip(body);
    running -= 1;
    return { br, gzip: gz };
  };
  return {
    compress,
    calls,
    mostAtOnce: () => mostAtOnce,
    releaseAll: () => calls.forEach((call) => call.release()),
  };
}

export function sha256(text: string) {
  return `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
}
