import type { OutgoingHttpHeader } from "node:http";
import type { Request, RequestHandler, Response } from "express";
import { carriesSession } from "#app/http/session-credentials.ts";
import { VISITOR_CACHE_HEADER } from "#app/lib/visitor-cache.ts";

/**
 * An in-process cache of pages for signed-out visitors (docs/decisions/020). Only GET responses
 * whose route opted in (VISITOR_CACHE_HEADER), with status 200 and no cookie, are kept, keyed by
 * URL and by the public content version they were rendered at: a page is served only while that
 * version is still current, so every change shows on the next request, on every instance. The
 * CSP nonce inside a kept page is replaced by each response's own nonce.
 */

export interface PageCacheOptions {
  /** The current public content version; read for every visitor request (batched, see FreshRead). */
  version?: () => Promise<number>;
  /** Bound on the bytes kept, all pages together. */
  maxBytes?: number;
  /** How long an expired page may still be served while one request renders it again. */
  staleSeconds?: number;
  now?: () => number;
}

interface Entry {
  version: number;
  status: number;
  headers: [string, OutgoingHttpHeader][];
  /** The body cut at each occurrence of the nonce it was rendered with. */
  parts: Buffer[];
  /** Length of the nonce the parts were cut at. */
  nonceBytes: number;
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

/**
 * Reads a value with the guarantee that the read started after the caller asked, while sharing
 * reads between concurrent callers: whoever arrives during a read waits for the next one.
 */
export class FreshRead<T> {
  readonly #load: () => Promise<T>;
  #running: Promise<T> | undefined;
  #queued: Promise<T> | undefined;

  constructor(load: () => Promise<T>) {
    this.#load = load;
  }

  read(): Promise<T> {
    if (!this.#running) return this.#start();
    this.#queued ??= this.#running.then(
      () => this.#startQueued(),
      () => this.#startQueued(),
    );
    return this.#queued;
  }

  #startQueued() {
    this.#queued = undefined;
    return this.#start();
  }

  #start() {
    const run = this.#load().finally(() => {
      if (this.#running === run) this.#running = undefined;
    });
    this.#running = run;
    return run;
  }
}

export class PageCache {
  readonly #entries = new Map<string, Entry>();
  readonly #version: FreshRead<number>;
  readonly #maxBytes: number;
  readonly #staleMs: number;
  readonly #now: () => number;
  #bytes = 0;

  constructor({ version = async () => 0, maxBytes = 32 * 1024 * 1024, staleSeconds = 30, now = Date.now }: PageCacheOptions = {}) {
    this.#version = new FreshRead(version);
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

  middleware(): RequestHandler {
    return (request, response, next) => {
      if (!isVisitorRead(request)) {
        this.#capture(request, response, undefined);
        next();
        return;
      }
      this.#version.read().then(
        (version) => {
          if (!this.#serve(request.originalUrl, version, response)) {
            this.#capture(request, response, version);
            next();
          }
        },
        // Without the version nothing can be served or kept safely: render as if uncached.
        () => {
          this.#capture(request, response, undefined);
          next();
        },
      );
    };
  }

  /** Serves a kept page when it is current; false when the request must be rendered. */
  #serve(key: string, version: number, response: Response) {
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
    send(response, entry, now < entry.expiresAt ? "HIT" : "STALE");
    return true;
  }

  /** Strips the route's marker from every response; keeps the body of a visitor's page. */
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
      const nonce = String(response.locals.cspNonce ?? "");
      const body = Buffer.concat(chunks, size);
      const now = this.#now();
      this.#put(key, {
        version,
        status: 200,
        headers: Object.entries(response.getHeaders()).flatMap(([name, value]): [string, OutgoingHttpHeader][] =>
          value === undefined || NOT_KEPT.has(name) ? [] : [[name, value]],
        ),
        parts: nonce ? splitBuffer(body, Buffer.from(nonce)) : [body],
        nonceBytes: Buffer.byteLength(nonce),
        bytes: size,
        expiresAt: now + lifetimeSeconds * 1000,
        staleUntil: now + lifetimeSeconds * 1000 + this.#staleMs,
        refreshing: false,
      });
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

function send(response: Response, entry: Entry, state: "HIT" | "STALE") {
  const nonce = Buffer.from(String(response.locals.cspNonce ?? ""));
  const gaps = entry.parts.length - 1;
  response.status(entry.status);
  for (const [name, value] of entry.headers) if (!response.hasHeader(name)) response.setHeader(name, value);
  response.setHeader("X-Cache", state);
  response.setHeader("Content-Length", entry.bytes - gaps * entry.nonceBytes + gaps * nonce.length);
  // Written piece by piece (one writev), not copied into a new buffer per response.
  response.cork();
  entry.parts.forEach((part, index) => {
    if (index > 0) response.write(nonce);
    response.write(part);
  });
  response.end();
  response.uncork();
}

function splitBuffer(buffer: Buffer, separator: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let start = 0;
  for (let index = buffer.indexOf(separator); index !== -1; index = buffer.indexOf(separator, start)) {
    parts.push(buffer.subarray(start, index));
    start = index + separator.length;
  }
  parts.push(buffer.subarray(start));
  return parts;
}
