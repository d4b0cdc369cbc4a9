import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";

/**
 * A kept page's bytes (docs/decisions/026, 039): its br and gzip variants, made at a cheap or the
 * best level, the encoding a client takes, and the CSP hashes that let its inline scripts run
 * without the nonce it was rendered with.
 */

export type CompressionLevel = "fast" | "best";
export type Compressor = (body: Buffer, level: CompressionLevel) => Promise<Record<"br" | "gzip", Buffer>>;

export type Encoding = "br" | "gzip" | "identity";

export interface Variant {
  body: Buffer;
  etag: string;
}

export interface Compressed {
  level: CompressionLevel;
  br: Variant;
  gzip: Variant;
}

/**
 * Brotli's window for a page: 2^18 bytes (256 KiB) holds any page the site renders whole, and
 * sets up an encoder for a small window, not the default 4 MiB one (docs/decisions/039).
 */
export const PAGE_BROTLI_WINDOW_BITS = 18;

const LEVELS: Record<CompressionLevel, { brotliQuality: number; gzipLevel: number }> = {
  // About what compressing a page as it is rendered costs: milliseconds for the largest page.
  fast: { brotliQuality: 5, gzipLevel: zlib.Z_DEFAULT_COMPRESSION },
  // The smallest variants, at some 200 ms of a core for the largest page: worth it for a page many ask for.
  best: { brotliQuality: zlib.BROTLI_MAX_QUALITY, gzipLevel: zlib.Z_BEST_COMPRESSION },
};

const compressBrotli = promisify(brotliCompress);
const compressGzip = promisify(gzip);

export async function compressVariants(body: Buffer, level: CompressionLevel): Promise<Record<"br" | "gzip", Buffer>> {
  const { brotliQuality, gzipLevel } = LEVELS[level];
  // One after the other: a compression takes one of libuv's threads at a time, never two.
  const br = await compressBrotli(body, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: brotliQuality,
      [zlib.BROTLI_PARAM_LGWIN]: PAGE_BROTLI_WINDOW_BITS,
      [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
      [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  return { br, gzip: await compressGzip(body, { level: gzipLevel }) };
}

export function compressedBytes(compressed: Compressed | undefined): number {
  return compressed ? compressed.br.body.length + compressed.gzip.body.length : 0;
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
