import { createHash } from "node:crypto";
import type { OutgoingHttpHeader } from "node:http";
import { availableParallelism } from "node:os";
import type { Request, RequestHandler, Response } from "express";
import { carriesSession } from "#app/http/session-credentials.ts";
import { VISITOR_CACHE_HEADER, VISITOR_CACHE_QUERY_HEADER } from "#app/lib/visitor-cache.ts";
import { PageAddress } from "./page-address.ts";
import {
  compressedBytes,
  compressVariants,
  inlineScriptHashes,
  preferredEncoding,
  type CompressionLevel,
  type Compressed,
  type Compressor,
  type Variant,
} from "./page-bytes.ts";

/**
 * An in-process cache of pages for signed-out visitors (docs/decisions/026). Only GET responses
 * whose route opted in (VISITOR_CACHE_HEADER), with status 200 and no cookie, are kept, keyed by
 * path and the query parameters the route declared it reads (docs/decisions/042), and by the
 * public content version they were rendered at: a page is served only while that version is still
 * current. A kept page is bytes made once: its inline scripts are allowed by CSP hashes instead of
 * the nonce it was rendered with, so its body never changes, and its br and gzip variants are
 * chosen by `Accept-Encoding`. They are made off the request path, at a cheap level when the page
 * is kept and at the best level once it has proved popular, a few at a time.
 */

export interface PageCacheOptions {
  /** The current public content version: a number when it is known, a promise when it must be read. */
  version?: () => number | Promise<number>;
  /** Bound on the bytes kept, all pages and their variants together. */
  maxBytes?: number;
  /** How long an expired page may still be served while one request renders it again. */
  staleSeconds?: number;
  now?: () => number;
  /** Compressions of kept pages running at once; a page that finds none free is served as it is meanwhile. */
  maxCompressions?: number;
  /** The hit from which a page is worth compressing at the best level. */
  popularAfterHits?: number;
  /** Makes a page's br and gzip variants at a level, off the event loop. */
  compress?: Compressor;
}

interface Entry {
  version: number;
  pathname: string;
  /** The rendered response's headers, with the CSP allowing the page's own inline scripts by hash. */
  headers: [string, OutgoingHttpHeader][];
  /** A hash of the body, which each variant's ETag begins with. */
  tag: string;
  identity: Variant;
  /** The variants made so far; until there are any, every client gets the page as it is. */
  compressed?: Compressed;
  compressing: boolean;
  hits: number;
  bytes: number;
  expiresAt: number;
  staleUntil: number;
  refreshing: boolean;
}

/** What the serving middleware hands the capturing one about a request it could not answer. */
interface Miss {
  version: number;
  address: PageAddress;
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
/** Where the serving middleware leaves a request it did not answer (a Miss), for the capturing one. */
const MISSED = "pageCacheMiss";
export class PageCache {
  readonly #entries = new Map<string, Entry>();
  /** The query parameters each kept path's route declared it reads, while a page of that path is kept. */
  readonly #queries = new Map<string, { names: readonly string[]; pages: number }>();
  readonly #version: () => number | Promise<number>;
  readonly #maxBytes: number;
  readonly #staleMs: number;
  readonly #now: () => number;
  readonly #maxCompressions: number;
  readonly #popularAfterHits: number;
  readonly #compress: Compressor;
  #bytes = 0;
  #compressions = 0;

  constructor({
    version = () => 0,
    maxBytes = 32 * 1024 * 1024,
    staleSeconds = 30,
    now = Date.now,
    maxCompressions = Math.max(1, Math.floor(availableParallelism() / 2)),
    popularAfterHits = 3,
    compress = compressVariants,
  }: PageCacheOptions = {}) {
    this.#version = version;
    this.#maxBytes = maxBytes;
    this.#staleMs = staleSeconds * 1000;
    this.#now = now;
    this.#maxCompressions = maxCompressions;
    this.#popularAfterHits = popularAfterHits;
    this.#compress = compress;
  }

  get size() {
    return this.#entries.size;
  }

  clear() {
    this.#entries.clear();
    this.#queries.clear();
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
      const address = new PageAddress(request.originalUrl);
      // The edge refuses it (400), whatever parameter holds it: nothing is served or kept.
      if (address.unsafe) {
        next();
        return;
      }
      const answer = (version: number) => {
        if (!this.#serve(request, response, address, version)) {
          response.locals[MISSED] = { version, address } satisfies Miss;
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
    return (_request, response, next) => {
      this.#capture(response, response.locals[MISSED] as Miss | undefined);
      next();
    };
  }

  /** Serves a kept page when it is current; false when the request must be rendered. */
  #serve(request: Request, response: Response, address: PageAddress, version: number) {
    const declared = this.#queries.get(address.pathname);
    if (!declared) return false;
    const key = address.key(declared.names);
    const entry = this.#entries.get(key);
    if (!entry) return false;
    const now = this.#now();
    if (entry.version !== version || now >= entry.staleUntil) {
      this.#remove(key);
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
    send(request, response, entry, now < entry.expiresAt ? "HIT" : "STALE");
    entry.hits += 1;
    this.#improve(key, entry);
    return true;
  }

  #capture(response: Response, miss: Miss | undefined) {
    let lifetimeSeconds = 0;
    let names: readonly string[] = [];
    const chunks: Buffer[] = [];
    let size = 0;

    const writeHead = response.writeHead.bind(response);
    response.writeHead = function (...args: unknown[]) {
      const marker = Number(response.getHeader(VISITOR_CACHE_HEADER));
      names = String(response.getHeader(VISITOR_CACHE_QUERY_HEADER) ?? "")
        .split(",")
        .filter(Boolean);
      response.removeHeader(VISITOR_CACHE_HEADER);
      response.removeHeader(VISITOR_CACHE_QUERY_HEADER);
      if (marker > 0) {
        lifetimeSeconds = miss ? marker : 0;
        response.setHeader("X-Cache", miss ? "MISS" : "BYPASS");
      }
      return Reflect.apply(writeHead, undefined, args) as Response;
    } as typeof response.writeHead;
    if (!miss) return;

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
      const key = miss.address.key(names);
      const cacheable = lifetimeSeconds > 0 && response.statusCode === 200 && !response.hasHeader("set-cookie") && size <= MAX_ENTRY_BYTES;
      if (!cacheable) {
        // A page that stopped being cacheable (gone, failing) must not keep being served stale; a
        // refusal of the one who asked (429) says nothing about the page.
        if (response.statusCode !== 429) this.#remove(key);
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
      const entry: Entry = {
        version: miss.version,
        pathname: miss.address.pathname,
        headers,
        tag,
        identity: { body, etag: `"${tag}"` },
        compressing: false,
        hits: 0,
        bytes: body.length,
        expiresAt: now + lifetimeSeconds * 1000,
        staleUntil: now + lifetimeSeconds * 1000 + this.#staleMs,
        refreshing: false,
      };
      this.#put(key, entry, names);
      this.#improve(key, entry);
    };
  }

  /**
   * Compresses a page further when it is worth it and a compression is free: at the fast level
   * once kept, at the best once popular. Never waited for: until the variants are made, the page
   * goes out as it is (or in the variants it has), and a page that found no compression free
   * tries again at its next hit, so a burst of new pages never queues compressions without bound.
   */
  #improve(key: string, entry: Entry) {
    const level: CompressionLevel = entry.hits >= this.#popularAfterHits ? "best" : "fast";
    if (entry.compressing || entry.compressed?.level === "best" || entry.compressed?.level === level) return;
    if (this.#compressions >= this.#maxCompressions) return;
    this.#compressions += 1;
    entry.compressing = true;
    void this.#compress(entry.identity.body, level)
      .then(
        ({ br, gzip }) => {
          const compressed: Compressed = {
            level,
            br: { body: br, etag: `"${entry.tag}-br-${level}"` },
            gzip: { body: gzip, etag: `"${entry.tag}-gzip-${level}"` },
          };
          const growth = compressedBytes(compressed) - compressedBytes(entry.compressed);
          entry.compressed = compressed;
          if (this.#entries.get(key) === entry) this.#grow(entry, growth);
        },
        // A page that could not be compressed is served as it is, never left unanswered.
        () => {},
      )
      .finally(() => {
        this.#compressions -= 1;
        entry.compressing = false;
      });
  }

  #remove(key: string) {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
    const declared = this.#queries.get(entry.pathname);
    if (declared && --declared.pages === 0) this.#queries.delete(entry.pathname);
  }

  #put(key: string, entry: Entry, names: readonly string[]) {
    this.#remove(key);
    this.#entries.set(key, entry);
    this.#bytes += entry.bytes;
    const declared = this.#queries.get(entry.pathname);
    this.#queries.set(entry.pathname, { names, pages: (declared?.pages ?? 0) + 1 });
    this.#evict();
  }

  #grow(entry: Entry, bytes: number) {
    entry.bytes += bytes;
    this.#bytes += bytes;
    this.#evict();
  }

  /** Forgets the least recently used pages until the bound holds. */
  #evict() {
    for (const oldKey of this.#entries.keys()) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#remove(oldKey);
    }
  }
}

/** A GET from someone without a session: their page is the one every visitor gets. */
function isVisitorRead(request: Request) {
  return request.method === "GET" && !carriesSession(request.headers.cookie, request.headers.authorization);
}

function send(request: Request, response: Response, entry: Entry, state: "HIT" | "STALE") {
  const encoding = preferredEncoding(request.headers["accept-encoding"]);
  const variant = (encoding !== "identity" && entry.compressed?.[encoding]) || entry.identity;
  for (const [name, value] of entry.headers) response.setHeader(name, value);
  response.setHeader("X-Cache", state);
  response.setHeader("Vary", "Accept-Encoding");
  response.setHeader("ETag", variant.etag);
  if (request.headers["if-none-match"]?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === variant.etag)) {
    response.writeHead(304);
    response.end();
    return;
  }
  if (variant !== entry.identity) response.setHeader("Content-Encoding", encoding);
  response.setHeader("Content-Length", variant.body.length);
  response.writeHead(200);
  response.end(variant.body);
}
