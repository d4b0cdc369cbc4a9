import { createHash } from "node:crypto";
import type { OutgoingHttpHeader } from "node:http";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import type { Request, RequestHandler, Response } from "express";
import { carriesSession } from "#app/http/session-credentials.ts";
import { VISITOR_CACHE_HEADER } from "#app/lib/visitor-cache.ts";

/**
 * An in-process cache of pages for signed-out visitors (docs/decisions/026). Only GET responses
 * whose route opted in (VISITOR_CACHE_HEADER), with status 200 and no cookie, are kept, keyed by
 * URL and by the public content version they were rendered at: a page is served only while that
 * version is still current. A kept page is bytes made once: its inline scripts are allowed by CSP
 * hashes instead of the nonce it was rendered with, so its body never changes, and its br and gzip
 * variants are compressed once and chosen by `Accept-Encoding`.
 */

export interface PageCacheOptions {
  /** The current public content version: a number when it is known, a promise when it must be read. */
  version?: () => number | Promise<number>;
  /** Bound on the bytes kept, all pages and their variants together. */
  maxBytes?: number;
  /** How long an expired page may still be served while one request renders it again. */
  staleSeconds?: number;
  now?: () => number;
}

type Encoding = "br" | "gzip" | "identity";

interface Variant {
  body: Buffer;
  etag: string;
}

interface Entry {
  version: number;
  /** The rendered response's headers, with the CSP allowing the page's own inline scripts by hash. */
  headers: [string, OutgoingHttpHeader][];
  identity: Variant;
  /** Compressed off the event loop; a hit waits for them (milliseconds) rather than render again. */
  compressed: Promise<Record<"br" | "gzip", Variant>> | Record<"br" | "gzip", Variant>;
  bytes: number;
  expiresAt: number;
  staleUntil: number;
  refreshing: boolean;
}

const MAX_ENTRY_BYTES = 2 * 1024 * 1024;
/** Headers of the rendered response that a later response computes for itself. */
const NOT_KEPT = new Set([
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "vary",
  "set-cookie",
  "x-request-id",
  "x-cache",
  "date",
  "etag",
]);
/** Where the serving middleware leaves the version a miss is rendered at, for the capturing one. */
const RENDERED_AT = "pageCacheVersion";

const compressBrotli = promisify(brotliCompress);
const compressGzip = promisify(gzip);

export class PageCache {
  readonly #entries = new Map<string, Entry>();
  readonly #version: () => number | Promise<number>;
  readonly #maxBytes: number;
  readonly #staleMs: number;
  readonly #now: () => number;
  #bytes = 0;

  constructor({ version = () => 0, maxBytes = 32 * 1024 * 1024, staleSeconds = 30, now = Date.now }: PageCacheOptions = {}) {
    this.#version = version;
    this.#maxBytes = maxBytes;
    this.#staleMs = staleSeconds * 1000;
    this.#now = now;
  }

  get size() {
    return this.#entries.size;
  }

  clear() {
    this.#entries.clear();
    this.#bytes = 0;
  }

  /**
   * Serves kept pages. Goes before the security headers and compression: a kept page carries the
   * headers it was rendered with, and its compressed variants.
   */
  serve(): RequestHandler {
    return (request, response, next) => {
      if (!isVisitorRead(request)) {
        next();
        return;
      }
      const answer = (version: number) => {
        if (!this.#serve(request, response, version)) {
          response.locals[RENDERED_AT] = version;
          next();
        }
      };
      let version: number | Promise<number>;
      try {
        version = this.#version();
      } catch {
        next();
        return;
      }
      // Without the version nothing can be served or kept safely: render as if uncached.
      if (typeof version === "number") answer(version);
      else version.then(answer, () => next());
    };
  }

  /**
   * Strips the route's marker from every response and keeps the body of a visitor's page. Goes
   * after compression, so that it sees the body as rendered.
   */
  capture(): RequestHandler {
    return (request, response, next) => {
      this.#capture(request, response, response.locals[RENDERED_AT] as number | undefined);
      next();
    };
  }

  /** Serves a kept page when it is current; false when the request must be rendered. */
  #serve(request: Request, response: Response, version: number) {
    const key = request.originalUrl;
    const entry = this.#entries.get(key);
    if (!entry) return false;
    const now = this.#now();
    if (entry.version !== version || now >= entry.staleUntil) {
      this.#delete(key);
      return false;
    }
    if (now >= entry.expiresAt && !entry.refreshing) {
      // This request renders the page again; meanwhile others still get this copy.
      entry.refreshing = true;
      response.once("close", () => {
        entry.refreshing = false;
      });
      return false;
    }
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    const state = now < entry.expiresAt ? "HIT" : "STALE";
    const encoding = preferredEncoding(request.headers["accept-encoding"]);
    if (encoding === "identity" || !(entry.compressed instanceof Promise)) {
      send(request, response, entry, encoding, state);
    } else {
      entry.compressed.then(
        () => send(request, response, entry, encoding, state),
        () => send(request, response, entry, "identity", state),
      );
    }
    return true;
  }

  #capture(request: Request, response: Response, version: number | undefined) {
    const eligible = version !== undefined;
    const key = request.originalUrl;
    let lifetimeSeconds = 0;
    const chunks: Buffer[] = [];
    let size = 0;

    const writeHead = response.writeHead.bind(response);
    response.writeHead = function (...args: unknown[]) {
      const marker = Number(response.getHeader(VISITOR_CACHE_HEADER));
      response.removeHeader(VISITOR_CACHE_HEADER);
      if (marker > 0) {
        lifetimeSeconds = eligible ? marker : 0;
        response.setHeader("X-Cache", eligible ? "MISS" : "BYPASS");
      }
      return Reflect.apply(writeHead, undefined, args) as Response;
    } as typeof response.writeHead;
    if (!eligible) return;

    const collect = (chunk: unknown, encoding: unknown) => {
      if (size > MAX_ENTRY_BYTES || chunk === undefined || chunk === null || typeof chunk === "function") return;
      const buffer =
        typeof chunk === "string"
          ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
          : Buffer.from(chunk as Uint8Array);
      chunks.push(buffer);
      size += buffer.length;
    };
    const write = response.write.bind(response);
    response.write = function (chunk: unknown, ...rest: unknown[]) {
      collect(chunk, rest[0]);
      return Reflect.apply(write, undefined, [chunk, ...rest]) as boolean;
    } as typeof response.write;
    const end = response.end.bind(response);
    response.end = function (...args: unknown[]) {
      collect(args[0], args[1]);
      const result = Reflect.apply(end, undefined, args) as Response;
      store();
      return result;
    } as typeof response.end;

    const store = () => {
      const cacheable = lifetimeSeconds > 0 && response.statusCode === 200 && !response.hasHeader("set-cookie") && size <= MAX_ENTRY_BYTES;
      if (!cacheable) {
        // A page that stopped being cacheable (gone, failing) must not keep being served stale.
        this.#delete(key);
        return;
      }
      const body = Buffer.concat(chunks, size);
      const nonce = String(response.locals.cspNonce ?? "");
      const headers = Object.entries(response.getHeaders()).flatMap(([name, value]): [string, OutgoingHttpHeader][] => {
        if (value === undefined || NOT_KEPT.has(name)) return [];
        if (name === "content-security-policy" && nonce) return [[name, String(value).replace(`'nonce-${nonce}'`, inlineScriptHashes(body))]];
        return [[name, value]];
      });
      const now = this.#now();
      const tag = createHash("sha256").update(body).digest("base64url").slice(0, 27);
      const compressed = compressVariants(body, tag);
      const entry: Entry = {
        version,
        headers,
        identity: { body, etag: `"${tag}"` },
        compressed,
        bytes: body.length,
        expiresAt: now + lifetimeSeconds * 1000,
        staleUntil: now + lifetimeSeconds * 1000 + this.#staleMs,
        refreshing: false,
      };
      compressed.then(
        (variants) => {
          entry.compressed = variants;
          if (this.#entries.get(key) === entry) this.#grow(entry, variants.br.body.length + variants.gzip.body.length);
        },
        // A page that could not be compressed is served as it is, never left unanswered.
        () => {},
      );
      this.#put(key, entry);
    };
  }

  #delete(key: string) {
    const previous = this.#entries.get(key);
    if (!previous) return;
    this.#entries.delete(key);
    this.#bytes -= previous.bytes;
  }

  #put(key: string, entry: Entry) {
    this.#delete(key);
    this.#entries.set(key, entry);
    this.#bytes += entry.bytes;
    this.#evict();
  }

  #grow(entry: Entry, bytes: number) {
    entry.bytes += bytes;
    this.#bytes += bytes;
    this.#evict();
  }

  /** Forgets the least recently used pages until the bound holds. */
  #evict() {
    for (const [oldKey, oldEntry] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(oldKey);
      this.#bytes -= oldEntry.bytes;
    }
  }
}

/** A GET from someone without a session: their page is the one every visitor gets. */
function isVisitorRead(request: Request) {
  return request.method === "GET" && !carriesSession(request.headers.cookie, request.headers.authorization);
}

async function compressVariants(body: Buffer, tag: string): Promise<Record<"br" | "gzip", Variant>> {
  // Once per page and version: the smallest variants are worth a few milliseconds off the event loop.
  const [br, gz] = await Promise.all([
    compressBrotli(body, {
      params: {
        [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
        [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
        [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    compressGzip(body, { level: zlib.Z_BEST_COMPRESSION }),
  ]);
  return { br: { body: br, etag: `"${tag}-br"` }, gzip: { body: gz, etag: `"${tag}-gzip"` } };
}

/** The CSP sources that allow exactly the inline scripts of a page (`'sha256-…'` each). */
export function inlineScriptHashes(body: Buffer): string {
  const hashes = new Set<string>();
  for (const [, attributes = "", script = ""] of body.toString("utf8").matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\ssrc\s*=/i.test(attributes)) continue;
    hashes.add(`'sha256-${createHash("sha256").update(script, "utf8").digest("base64")}'`);
  }
  return [...hashes].join(" ");
}

/** br when the client takes it, then gzip, else the page as it is (a `q=0` refuses an encoding). */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return "identity";
  const accepted = new Set<string>();
  for (const item of acceptEncoding.split(",")) {
    const [name = "", ...parameters] = item.trim().toLowerCase().split(";");
    const refused = parameters.some((parameter) => /^\s*q\s*=\s*0(?:\.0*)?\s*$/.test(parameter));
    if (!refused) accepted.add(name.trim());
  }
  if (accepted.has("br")) return "br";
  if (accepted.has("gzip") || accepted.has("*")) return "gzip";
  return "identity";
}

function send(request: Request, response: Response, entry: Entry, encoding: Encoding, state: "HIT" | "STALE") {
  const variant = encoding === "identity" || entry.compressed instanceof Promise ? entry.identity : entry.compressed[encoding];
  const sentEncoding = variant === entry.identity ? "identity" : encoding;
  for (const [name, value] of entry.headers) response.setHeader(name, value);
  response.setHeader("X-Cache", state);
  response.setHeader("Vary", "Accept-Encoding");
  response.setHeader("ETag", variant.etag);
  if (request.headers["if-none-match"]?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === variant.etag)) {
    response.writeHead(304);
    response.end();
    return;
  }
  if (sentEncoding !== "identity") response.setHeader("Content-Encoding", sentEncoding);
  response.setHeader("Content-Length", variant.body.length);
  response.writeHead(200);
  response.end(variant.body);
}
